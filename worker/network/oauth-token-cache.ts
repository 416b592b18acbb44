// One OAuth 2.0 client-credentials rule's token, for one worker process: acquired when a matching
// request needs it, shared by every request (and run) of the worker until it expires, with a single
// token request in flight however many requests wait for it. The token endpoint is the operator's
// (configured with the rule), so the request goes out from the worker with undici directly, not
// through the script's fetch policy. Nothing about the endpoint's answer or the client secret ever
// reaches a script: a failure is the one sanitised message below.
import type { fetch as undiciFetch } from 'undici';
import { lazyFetch } from './undici.ts';
import type { OAuthHeaderRule } from '../../shared/header-rules.ts';

/** The only thing a script learns when a token cannot be had (the reference's text). */
export function tokenFailureMessage(header: string): string {
  return `dynamic credential injection failed for header '${header}' during token acquisition`;
}

export class TokenAcquisitionError extends Error {
  constructor(header: string) {
    super(tokenFailureMessage(header));
    this.name = 'TokenAcquisitionError';
  }
}

interface Token {
  /** `<token_type or "Bearer"> <access_token>`. */
  readonly headerValue: string;
  readonly accessToken: string;
  /** Epoch milliseconds. */
  readonly expiresAt: number;
  readonly refreshToken: string | undefined;
}

export interface TokenCacheDeps {
  readonly fetch?: typeof undiciFetch;
  readonly now?: () => number;
  /** The longest a token request may take (ms). */
  readonly timeoutMs: number;
  /** Operator-facing notes (never shown to a script): which endpoint failed and how, never its body. */
  readonly log?: (line: string) => void;
}

/** The `exp` claim of a JWT, decoded without verifying anything (only to know when to refresh). */
export function jwtExpiry(token: string): number | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    const exp = (claims as { exp?: unknown } | null)?.exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

export class OAuthTokenCache {
  readonly #rule: OAuthHeaderRule;
  readonly #fetch: typeof undiciFetch;
  readonly #now: () => number;
  readonly #timeoutMs: number;
  readonly #log: (line: string) => void;
  #token: Token | undefined;
  /** The token request every waiting request shares (one generation: its failure is theirs, the next call starts anew). */
  #inflight: Promise<Token> | undefined;
  /** Token requests made (tests and diagnostics). */
  requests = 0;

  constructor(rule: OAuthHeaderRule, deps: TokenCacheDeps) {
    this.#rule = rule;
    this.#fetch = deps.fetch ?? lazyFetch;
    this.#now = deps.now ?? Date.now;
    this.#timeoutMs = deps.timeoutMs;
    this.#log = deps.log ?? ((line) => process.stderr.write(`runjs: ${line}\n`));
  }

  #fresh(t: Token | undefined): t is Token {
    return t !== undefined && this.#now() < t.expiresAt - this.#rule.refreshBufferSecs * 1000;
  }

  /** The token to send: the cached one while valid, else a new one. Rejects with TokenAcquisitionError. */
  async token(signal?: AbortSignal): Promise<{ headerValue: string; accessToken: string }> {
    if (this.#fresh(this.#token)) return this.#token;
    this.#inflight ??= this.#acquire().finally(() => { this.#inflight = undefined; });
    const pending = this.#inflight;
    if (signal === undefined) return await pending;
    signal.throwIfAborted();
    // A request that gives up stops waiting; the token request goes on for the others.
    return await new Promise((resolve, reject) => {
      const onAbort = (): void => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      pending.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  async #acquire(): Promise<Token> {
    const previous = this.#token;
    if (previous?.refreshToken !== undefined) {
      try {
        return (this.#token = await this.#request({ grant_type: 'refresh_token', refresh_token: previous.refreshToken }, previous.refreshToken));
      } catch (e) {
        this.#log(`token refresh for header '${this.#rule.header}' at ${this.#rule.tokenUrl} failed (${(e as Error).message}); trying client_credentials`);
      }
    }
    this.#token = undefined;
    try {
      return (this.#token = await this.#request({ grant_type: 'client_credentials', ...(this.#rule.scope === undefined ? {} : { scope: this.#rule.scope }) }, undefined));
    } catch (e) {
      this.#log(`token request for header '${this.#rule.header}' at ${this.#rule.tokenUrl} failed: ${(e as Error).message}`);
      throw new TokenAcquisitionError(this.#rule.header);
    }
  }

  /** One form POST to the token endpoint; throws an operator-facing Error (no body, no secret). */
  async #request(grant: Record<string, string>, keptRefreshToken: string | undefined): Promise<Token> {
    this.requests++;
    const form = new URLSearchParams({ ...grant, client_id: this.#rule.clientId, client_secret: this.#rule.clientSecret });
    let res: Awaited<ReturnType<typeof undiciFetch>>;
    try {
      res = await this.#fetch(this.#rule.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
        redirect: 'error',
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (e) {
      const cause = (e as { cause?: { code?: unknown } }).cause;
      throw new Error(`${grant['grant_type']}: ${typeof cause?.code === 'string' ? cause.code : (e as Error).name}`);
    }
    const text = await res.text().catch(() => '');
    if (!res.ok) throw new Error(`${grant['grant_type']}: HTTP ${res.status}`);
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null) throw new Error('not an object');
      body = parsed as Record<string, unknown>;
    } catch {
      throw new Error(`${grant['grant_type']}: the answer is not a JSON object`);
    }
    const access = body['access_token'];
    if (typeof access !== 'string' || access === '' || /[\r\n\0]/.test(access)) throw new Error(`${grant['grant_type']}: no access_token`);
    const type = typeof body['token_type'] === 'string' && /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(body['token_type']) ? body['token_type'] : 'Bearer';
    const expiresIn = typeof body['expires_in'] === 'string' && /^\d+$/.test(body['expires_in']) ? Number(body['expires_in']) : body['expires_in'];
    const expiresAt = typeof expiresIn === 'number' && Number.isFinite(expiresIn) ? this.#now() + expiresIn * 1000 : jwtExpiry(access);
    if (expiresAt === undefined) throw new Error(`${grant['grant_type']}: no expires_in and the token is not a JWT with an exp claim`);
    const refresh = typeof body['refresh_token'] === 'string' && body['refresh_token'] !== '' ? body['refresh_token'] : keptRefreshToken;
    return { headerValue: `${type} ${access}`, accessToken: access, expiresAt, refreshToken: refresh };
  }
}
