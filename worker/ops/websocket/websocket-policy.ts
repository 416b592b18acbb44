// Who may open a WebSocket to where. Every connection is decided before its handshake, with the
// input document of the `websocket` policy category (docs/policies.md): `{operation: "connect",
// url, protocols, headers, url_parsed: {scheme, host, port, path, query}}`. Without a websocket
// policy the server's default decides: the same `--fetch-default` switch as fetch (deny unless the
// operator says allow), since a WebSocket reaches the same hosts a fetch would.
import type { WorkerSettings } from '../../../shared/worker-settings.ts';
import { OpError, type OpContext } from '../op-types.ts';
import { urlParsed, type UrlParsed } from '../../network/url-parsed.ts';

export interface WebSocketInput {
  readonly operation: 'connect';
  /** The ws: or wss: URL (a script's http(s) URL is converted first, as the WHATWG standard says). */
  readonly url: string;
  /** The subprotocols the script asked for, in its order. */
  readonly protocols: readonly string[];
  /** The handshake's extra headers (lowercased names) as they will be sent: the script's (undici's `{headers}` form), then injected ones. */
  readonly headers: Readonly<Record<string, string>>;
  readonly url_parsed: UrlParsed;
}

/** The handshake to make, after the policy's pre hooks (which may rewrite its URL and headers). */
export interface DecidedConnect {
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
}

export type WebSocketGate = (input: WebSocketInput, ctx: OpContext, signal: AbortSignal) => Promise<DecidedConnect>;

export function websocketInput(url: URL, protocols: readonly string[], headers: Readonly<Record<string, string>>): WebSocketInput {
  return { operation: 'connect', url: url.href, protocols: [...protocols], headers, url_parsed: urlParsed(url) };
}

function isRecordOfStrings(v: unknown): v is Record<string, string> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
}

/** The URL a pre hook left: a ws(s) URL (an http(s) one is converted), without a fragment. */
function rewrittenUrl(raw: string): URL {
  const url = URL.parse(raw);
  if (url !== null && url.protocol === 'http:') url.protocol = 'ws:';
  if (url !== null && url.protocol === 'https:') url.protocol = 'wss:';
  if (url === null || (url.protocol !== 'ws:' && url.protocol !== 'wss:') || url.hash !== '' || url.href.includes('#')) {
    throw new OpError(`websocket policy failed: a pre hook rewrote the URL to ${JSON.stringify(raw)}, which is not a ws(s) URL without a fragment`, 'Error', 'ERR_POLICY_FAILED');
  }
  return url;
}

function decided(original: WebSocketInput, rewritten: unknown): DecidedConnect {
  const r = (typeof rewritten === 'object' && rewritten !== null ? rewritten : {}) as Record<string, unknown>;
  const url = rewrittenUrl(typeof r['url'] === 'string' ? r['url'] : original.url);
  const headers = isRecordOfStrings(r['headers']) ? r['headers'] : original.headers;
  return { url, headers };
}

/**
 * Every connection goes through the run's policy engine (ctx.policy, which records the decision
 * in the run's log); without a `websocket` category configured, `--fetch-default` decides.
 */
export function websocketGate(settings: WorkerSettings): WebSocketGate {
  const unconfigured = settings.network.fetchDefault === 'allow' ? 'allow' : 'deny';
  return async (input, ctx, signal) => {
    const rewritten = await ctx.policy.enforce('websocket', input, { unconfigured, defaultReason: `a WebSocket to ${input.url} is not allowed`, signal });
    return decided(input, rewritten);
  };
}
