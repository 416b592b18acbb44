// Header injection (--fetch-header, --fetch-header-config): the operator's credentials added on the
// host to a script's outbound request, after the guest built it (so `Request.headers` never holds
// them) and before the policy decides the hop (its input shows the headers as sent, the injected
// values redacted). Shared by every network capability: fetch requests and WebSocket handshakes
// (method GET) now; HTTP/2 streams will reuse it with their own host and method. One injector per
// worker process, built by worker/ops/capabilities.ts for every network capability: it holds one
// OAuth token cache per OAuth rule, so fetch and WebSocket share a token.
import type { HeaderRule, HeaderRules, OAuthHeaderRule } from '../../shared/header-rules.ts';
import { OAuthTokenCache, type TokenCacheDeps } from './oauth-token-cache.ts';

/** `*.github.com` matches `api.github.com` and `github.com`; `*foo.com` whatever ends in `foo.com`; else exact. Case-insensitive. */
export function hostMatches(pattern: string, host: string): boolean {
  const p = pattern.toLowerCase();
  const h = host.toLowerCase().replace(/\.$/, '');
  if (!p.startsWith('*')) return p === h;
  const suffix = p.slice(1);
  if (h.endsWith(suffix)) return true;
  return suffix.startsWith('.') && h === suffix.slice(1);
}

export function ruleMatches(rule: HeaderRule, host: string, method: string): boolean {
  return hostMatches(rule.host, host) && (rule.methods.length === 0 || rule.methods.includes(method.toUpperCase()));
}

/** Every header name a rule may set (lowercased): the decision log redacts them whatever the host. */
export function injectedHeaderNames(rules: HeaderRules): string[] {
  return rules.flatMap((r) => (r.kind === 'static' ? r.headers.map(([n]) => n) : [r.header.toLowerCase()]));
}

/** Where injected values are registered as secrets (the run's redactor: worker/policy/redact.ts). */
export interface SecretSink {
  addKey(name: string): void;
  addValue(secret: string): void;
}

/**
 * What one injection changed, to undo it before the next hop: each injected (lowercased) header
 * name with the script's value it replaced (undefined when the script had not set it).
 */
export type Injected = ReadonlyMap<string, string | undefined>;

export class HeaderInjector {
  readonly #rules: HeaderRules;
  readonly #tokens: ReadonlyMap<OAuthHeaderRule, OAuthTokenCache>;

  constructor(rules: HeaderRules, tokenDeps: TokenCacheDeps) {
    this.#rules = rules;
    this.#tokens = new Map(rules.filter((r): r is OAuthHeaderRule => r.kind === 'oauth').map((r) => [r, new OAuthTokenCache(r, tokenDeps)]));
  }

  get empty(): boolean {
    return this.#rules.length === 0;
  }

  /** The token cache of an OAuth rule (tests). */
  cacheOf(rule: OAuthHeaderRule): OAuthTokenCache | undefined {
    return this.#tokens.get(rule);
  }

  /**
   * Applies every rule matching `url`'s host and `method`, in order, to `headers` (lowercased
   * names), registering each injected name and value with `secrets`. Rejects with a
   * TokenAcquisitionError (its message is safe to show) when an OAuth token cannot be had.
   */
  async apply(url: URL, method: string, headers: Map<string, string>, secrets: SecretSink, signal?: AbortSignal): Promise<Injected> {
    const injected = new Map<string, string | undefined>();
    if (this.#rules.length === 0) return injected;
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const set = (name: string, value: string): void => {
      if (!injected.has(name)) injected.set(name, headers.get(name));
      headers.set(name, value);
      secrets.addKey(name);
      secrets.addValue(value);
    };
    for (const rule of this.#rules) {
      if (!ruleMatches(rule, host, method)) continue;
      if (rule.kind === 'static') {
        for (const [name, value] of rule.headers) if (rule.override || !headers.has(name)) set(name, value);
        continue;
      }
      const name = rule.header.toLowerCase();
      if (headers.has(name)) continue; // a value the script set wins over an OAuth token
      const token = await this.#tokens.get(rule)!.token(signal);
      secrets.addValue(token.accessToken);
      set(name, token.headerValue);
    }
    return injected;
  }
}

/** Takes back what `apply` did: the script's own values return, injected ones go. */
export function undoInjection(headers: Map<string, string>, injected: Injected): void {
  for (const [name, original] of injected) {
    if (original === undefined) headers.delete(name);
    else headers.set(name, original);
  }
}
