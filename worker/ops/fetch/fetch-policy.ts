// Who may fetch what. Every hop of every request is decided here, with the input document of the
// `fetch` policy category (docs/policies.md): `{operation: "fetch", url, method, headers,
// url_parsed: {scheme, host, port, path, query}}`. Without a fetch policy the server's default
// decides (`--fetch-default`, deny unless the operator says allow): a multi-tenant server must not
// let scripts reach the network, its own metadata endpoints or the operator's intranet by default.
import type { WorkerSettings } from '../../../shared/worker-settings.ts';
import { OpError, type OpContext } from '../op-types.ts';
import { urlParsed, type UrlParsed } from '../../network/url-parsed.ts';

export interface FetchInput {
  readonly operation: 'fetch';
  readonly url: string;
  readonly method: string;
  /** Lowercased names; values as sent (after header injection). */
  readonly headers: Readonly<Record<string, string>>;
  readonly url_parsed: UrlParsed;
}

/** The request a hop is made with, after the policy's pre hooks (which may rewrite it). */
export interface DecidedRequest {
  readonly url: URL;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
}

export type FetchGate = (input: FetchInput, ctx: OpContext, signal: AbortSignal) => Promise<DecidedRequest>;

/** The input document for `url` as the policy sees it. */
export function fetchInput(url: URL, method: string, headers: Readonly<Record<string, string>>): FetchInput {
  return {
    operation: 'fetch',
    url: url.href,
    method: method.toUpperCase(),
    headers,
    url_parsed: urlParsed(url),
  };
}

function isRecordOfStrings(v: unknown): v is Record<string, string> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === 'string');
}

/**
 * The request a pre hook left: its `url`, `method` and `headers` where it rewrote them (and they
 * are well-formed: an http(s) URL, a method token, string headers); what was asked otherwise.
 */
function decided(original: FetchInput, rewritten: unknown): DecidedRequest {
  const r = (typeof rewritten === 'object' && rewritten !== null ? rewritten : {}) as Record<string, unknown>;
  const rawUrl = typeof r['url'] === 'string' ? r['url'] : original.url;
  const url = URL.parse(rawUrl);
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new OpError(`fetch policy failed: a pre hook rewrote the URL to ${JSON.stringify(rawUrl)}, which is not an http(s) URL`, 'Error', 'ERR_POLICY_FAILED');
  }
  const method = typeof r['method'] === 'string' && /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(r['method']) ? r['method'] : original.method;
  const headers = isRecordOfStrings(r['headers']) ? r['headers'] : original.headers;
  return { url, method, headers };
}

/**
 * Every hop goes through the run's policy engine (ctx.policy, which records the decision in the
 * run's log); without a `fetch` category configured, `--fetch-default` decides.
 */
export function fetchGate(settings: WorkerSettings): FetchGate {
  const unconfigured = settings.network.fetchDefault === 'allow' ? 'allow' : 'deny';
  return async (input, ctx, signal) => {
    const rewritten = await ctx.policy.enforce('fetch', input, { unconfigured, defaultReason: `${input.method} ${input.url} is not allowed`, signal });
    return decided(input, rewritten);
  };
}
