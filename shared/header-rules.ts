// Header-injection rules as a worker receives them (WorkerSettings.headerRules): parsed and checked
// by the supervisor (supervisor/config/header-config.ts, from `--fetch-header`,
// `--fetch-header-config` and the config section `fetch_headers`), then applied on the host to
// every outbound request a script makes (worker/network/header-injection.ts). They hold operator
// credentials: a worker uses them, a script never sees them (docs/network.md, "Header injection").

/** A static rule: these headers (names lowercased) on every matching request. */
export interface StaticHeaderRule {
  readonly kind: 'static';
  /** `api.example.com` (exact, case-insensitive) or `*example.com` (suffix; `*.x.com` also matches `x.com`). Lowercased. */
  readonly host: string;
  /** Uppercased; empty matches every method. */
  readonly methods: readonly string[];
  /** [lowercased name, value] pairs, in the order configured. */
  readonly headers: readonly (readonly [string, string])[];
  /** true (the default): replaces a header of the same name the script set; false: fills it only when absent. */
  readonly override: boolean;
}

/** An OAuth 2.0 client-credentials rule: `<token_type> <access_token>` in `header`, filled only when absent. */
export interface OAuthHeaderRule {
  readonly kind: 'oauth';
  readonly host: string;
  readonly methods: readonly string[];
  /** The header name as configured (error texts show it); injected lowercased. */
  readonly header: string;
  readonly tokenUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scope: string | undefined;
  /** A token counts as expired this many seconds before it does. */
  readonly refreshBufferSecs: number;
}

export type HeaderRule = StaticHeaderRule | OAuthHeaderRule;
export type HeaderRules = readonly HeaderRule[];

export const DEFAULT_REFRESH_BUFFER_SECS = 30;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isStrings = (v: unknown): boolean => Array.isArray(v) && v.every(isString);

function isRule(v: unknown): v is HeaderRule {
  if (!isObject(v) || !isString(v['host']) || !isStrings(v['methods'])) return false;
  if (v['kind'] === 'static') {
    return typeof v['override'] === 'boolean' && Array.isArray(v['headers'])
      && v['headers'].every((h) => Array.isArray(h) && h.length === 2 && isString(h[0]) && isString(h[1]));
  }
  return v['kind'] === 'oauth' && isString(v['header']) && isString(v['tokenUrl']) && isString(v['clientId']) && isString(v['clientSecret'])
    && (v['scope'] === undefined || isString(v['scope']))
    && typeof v['refreshBufferSecs'] === 'number' && Number.isSafeInteger(v['refreshBufferSecs']) && v['refreshBufferSecs'] >= 0;
}

export function isHeaderRules(v: unknown): v is HeaderRules {
  return Array.isArray(v) && v.every(isRule);
}
