// Who may open an HTTP/2 session to where, and send which streams on it. A session is decided
// before it connects (`{operation: "connect", url, url_parsed}`), and each stream before it is sent
// (`{operation: "request", scheme, authority, method, path, headers}`, headers lowercased, after
// header injection). Without an `http2` policy configured, the connection is refused (the
// interface spec): `http2 is not enabled: …`.
import type { PolicyCategory } from '../../../shared/policy-settings.ts';
import { OpError, type OpContext } from '../op-types.ts';
import { urlParsed, type UrlParsed } from '../../network/url-parsed.ts';
import { guestError } from '../guest-errors.ts';

const CATEGORY: PolicyCategory = 'http2';

export interface Http2ConnectInput {
  readonly operation: 'connect';
  readonly url: string;
  readonly url_parsed: UrlParsed;
}

export interface Http2RequestInput {
  readonly operation: 'request';
  readonly scheme: string;
  readonly authority: string;
  readonly method: string;
  readonly path: string;
  /** Regular headers (no pseudo-headers), lowercased names, as they will be sent. */
  readonly headers: Readonly<Record<string, string>>;
}

function refuseUnconfigured(ctx: OpContext, origin: string): void {
  if (!ctx.policy.configured(CATEGORY)) throw guestError('HTTP2_NOT_ENABLED', origin);
}

/** Decides a session; resolves to the origin to connect to (a pre hook may rewrite `url`). */
export async function decideConnect(origin: URL, ctx: OpContext, signal: AbortSignal): Promise<URL> {
  refuseUnconfigured(ctx, origin.origin);
  const input: Http2ConnectInput = { operation: 'connect', url: origin.href, url_parsed: urlParsed(origin) };
  const rewritten = await ctx.policy.enforce(CATEGORY, input, { defaultReason: `a connection to ${origin.origin} is not allowed`, signal });
  const raw = (rewritten as { url?: unknown } | null)?.url;
  if (raw === undefined || raw === input.url) return origin;
  const url = typeof raw === 'string' ? URL.parse(raw) : null;
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new OpError(`http2 policy failed: a pre hook rewrote the URL to ${JSON.stringify(raw)}, which is not an http(s) URL`, 'Error', 'ERR_POLICY_FAILED');
  }
  return new URL(url.origin);
}

/** Decides a stream; resolves to the input to act on (a pre hook may rewrite method, path, authority and headers). */
export async function decideRequest(input: Http2RequestInput, ctx: OpContext, signal: AbortSignal): Promise<Http2RequestInput> {
  refuseUnconfigured(ctx, `${input.scheme}://${input.authority}`);
  const rewritten = await ctx.policy.enforce(CATEGORY, input, { defaultReason: `${input.method} ${input.scheme}://${input.authority}${input.path} is not allowed`, signal });
  if (rewritten === input || typeof rewritten !== 'object' || rewritten === null) return input;
  const r = rewritten as Record<string, unknown>;
  const str = (k: string, d: string): string => (typeof r[k] === 'string' && r[k] !== '' ? r[k] : d);
  const h = r['headers'];
  const headers = typeof h === 'object' && h !== null && !Array.isArray(h) && Object.values(h).every((v) => typeof v === 'string')
    ? Object.fromEntries(Object.entries(h as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]))
    : input.headers;
  return { operation: 'request', scheme: input.scheme, authority: str('authority', input.authority), method: str('method', input.method), path: str('path', input.path), headers };
}
