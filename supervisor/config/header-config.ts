/**
 * `--fetch-header` (one rule per occurrence, `key=value,...`) and `--fetch-header-config` (a JSON
 * array, config section `fetch_headers`) → HeaderRules, the frozen typed form workers receive.
 * Everything is checked here, at startup: a rule that cannot work stops the server with a message
 * naming the flag (the CLI form's texts are the reference's, mcp-v8 §6.3). docs/network.md,
 * "Header injection", describes the rules.
 */
import {
  DEFAULT_REFRESH_BUFFER_SECS, type HeaderRule, type HeaderRules, type OAuthHeaderRule, type StaticHeaderRule,
} from '../../shared/header-rules.ts';

/** A problem with one rule; the message is shown as is (it names the flag or the key path). */
export class HeaderConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HeaderConfigError';
  }
}

export const CLI_KEYS = ['host', 'methods', 'header', 'value', 'override', 'token_url', 'client_id', 'client_secret', 'scope', 'refresh_buffer_secs'] as const;
const OAUTH_CLI_KEYS = ['token_url', 'client_id', 'client_secret', 'scope', 'refresh_buffer_secs'] as const;
const RULE_KEYS = ['host', 'methods', 'headers', 'override', 'auth'] as const;
const AUTH_KEYS = ['type', 'header', 'token_url', 'client_id', 'client_secret', 'scope', 'refresh_buffer_secs'] as const;

/** An RFC 9110 token: header names and methods. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A header value undici sends as is: no control characters but tab, no leading or trailing blanks. */
const FIELD_VALUE = /^[^\x00-\x08\x0a-\x1f\x7f]*$/;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkHost(host: unknown, at: string): string {
  if (typeof host !== 'string' || host.trim() === '') throw new HeaderConfigError(`${at}: 'host' must be a non-empty host name or *suffix pattern`);
  const h = host.trim().toLowerCase();
  if (!/^\*?[a-z0-9.\-_:[\]]*$/.test(h) || h === '*' || h.indexOf('*', 1) !== -1) {
    throw new HeaderConfigError(`${at}: 'host' ${JSON.stringify(host)} is not a host name or a pattern starting with '*' (e.g. *.example.com)`);
  }
  return h;
}

function checkMethods(methods: readonly unknown[], at: string): string[] {
  return methods.map((m) => {
    if (typeof m !== 'string' || !TOKEN.test(m.trim())) throw new HeaderConfigError(`${at}: 'methods' entry ${JSON.stringify(m)} is not an HTTP method`);
    return m.trim().toUpperCase();
  });
}

function checkHeaderName(name: unknown, at: string): string {
  if (typeof name !== 'string' || !TOKEN.test(name)) throw new HeaderConfigError(`${at}: header name ${JSON.stringify(name)} is not a valid HTTP header name`);
  return name;
}

function checkValue(value: unknown, what: string, at: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new HeaderConfigError(`${at}: ${what} must not be empty`);
  if (!FIELD_VALUE.test(value)) throw new HeaderConfigError(`${at}: ${what} contains control characters`);
  return value;
}

function checkTokenUrl(v: unknown, at: string): string {
  const url = typeof v === 'string' ? URL.parse(v) : null;
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new HeaderConfigError(`${at}: 'token_url' must be an http(s) URL`);
  return url.href;
}

function checkBuffer(v: unknown, at: string): number {
  if (v === undefined) return DEFAULT_REFRESH_BUFFER_SECS;
  const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw new HeaderConfigError(`${at}: 'refresh_buffer_secs' must be a whole number of seconds (0 or more)`);
  return n;
}

function staticRule(host: string, methods: string[], headers: Record<string, unknown>, override: boolean, at: string): StaticHeaderRule {
  const pairs: [string, string][] = [];
  const seen = new Map<string, string>();
  for (const [name, value] of Object.entries(headers)) {
    checkHeaderName(name, at);
    const lower = name.toLowerCase();
    const before = seen.get(lower);
    if (before !== undefined) throw new HeaderConfigError(`${at}: duplicate header names '${before}' and '${name}' (names are case-insensitive)`);
    seen.set(lower, name);
    pairs.push([lower, checkValue(value, `the value of header '${name}'`, at)]);
  }
  if (pairs.length === 0) throw new HeaderConfigError(`${at}: 'headers' must name at least one header`);
  return { kind: 'static', host, methods, headers: pairs, override };
}

interface OAuthFields { header: unknown; token_url: unknown; client_id: unknown; client_secret: unknown; scope: unknown; refresh_buffer_secs: unknown }

function oauthRule(host: string, methods: string[], f: OAuthFields, at: string): OAuthHeaderRule {
  const scope = f.scope === undefined ? undefined : checkValue(f.scope, "'scope'", at);
  return {
    kind: 'oauth', host, methods,
    header: checkHeaderName(f.header, at),
    tokenUrl: checkTokenUrl(f.token_url, at),
    clientId: checkValue(f.client_id, "'client_id'", at),
    clientSecret: checkValue(f.client_secret, "'client_secret'", at),
    scope,
    refreshBufferSecs: checkBuffer(f.refresh_buffer_secs, at),
  };
}

/** One `--fetch-header` occurrence: `host=…,header=…,value=…` or the OAuth key set. */
export function parseHeaderFlag(text: string): HeaderRule {
  const at = '--fetch-header';
  const kv = new Map<string, string>();
  for (const part of text.split(',')) {
    if (part.trim() === '') continue;
    const eq = part.indexOf('=');
    const key = (eq === -1 ? part : part.slice(0, eq)).trim();
    if (!(CLI_KEYS as readonly string[]).includes(key)) throw new HeaderConfigError(`Unknown key '${key}' in --fetch-header. Expected: ${CLI_KEYS.join(', ')}`);
    if (eq === -1) throw new HeaderConfigError(`${at}: '${key}' needs a value (${key}=...)`);
    if (kv.has(key)) throw new HeaderConfigError(`${at}: '${key}' is given twice`);
    kv.set(key, part.slice(eq + 1).trim());
  }
  if (!kv.has('host')) throw new HeaderConfigError("--fetch-header missing 'host'");
  if (!kv.has('header')) throw new HeaderConfigError("--fetch-header missing 'header'");
  const host = checkHost(kv.get('host'), at);
  const methods = checkMethods((kv.get('methods') ?? '').split(';').filter((m) => m.trim() !== ''), at);
  const oauthKeys = OAUTH_CLI_KEYS.filter((k) => kv.has(k));
  if (kv.has('value')) {
    if (oauthKeys.length > 0) throw new HeaderConfigError('--fetch-header cannot mix static \'value\' with dynamic oauth keys');
    const o = kv.get('override');
    if (o !== undefined && o !== 'true' && o !== 'false') throw new HeaderConfigError(`${at}: 'override' must be true or false`);
    return staticRule(host, methods, { [checkHeaderName(kv.get('header'), at)]: kv.get('value') }, o !== 'false', at);
  }
  if (!kv.has('token_url') || !kv.has('client_id') || !kv.has('client_secret')) {
    throw new HeaderConfigError("--fetch-header must provide either 'value' for a static rule or the full dynamic oauth key set: token_url, client_id, client_secret");
  }
  if (kv.has('override')) throw new HeaderConfigError(`${at}: 'override' applies to static rules only (an OAuth header is only filled when the script did not set it)`);
  return oauthRule(host, methods, {
    header: kv.get('header'), token_url: kv.get('token_url'), client_id: kv.get('client_id'), client_secret: kv.get('client_secret'),
    scope: kv.get('scope'), refresh_buffer_secs: kv.get('refresh_buffer_secs'),
  }, at);
}

function checkKeys(v: Record<string, unknown>, allowed: readonly string[], at: string): void {
  for (const key of Object.keys(v)) {
    if (!allowed.includes(key)) throw new HeaderConfigError(`${at}.${key}: unknown key (expected one of ${allowed.join(', ')})`);
  }
}

/** One rule of `--fetch-header-config`; `at` names it (`[0]`). */
function parseJsonRule(v: unknown, at: string): HeaderRule {
  if (!isObject(v)) throw new HeaderConfigError(`${at}: expected an object with host, methods and either headers or auth`);
  checkKeys(v, RULE_KEYS, at);
  if (!('host' in v)) throw new HeaderConfigError(`${at}: missing 'host'`);
  const host = checkHost(v['host'], at);
  const rawMethods = v['methods'] ?? [];
  if (!Array.isArray(rawMethods)) throw new HeaderConfigError(`${at}.methods: expected an array of HTTP methods`);
  const methods = checkMethods(rawMethods, `${at}.methods`);
  const hasHeaders = v['headers'] !== undefined;
  const hasAuth = v['auth'] !== undefined;
  if (hasHeaders === hasAuth) throw new HeaderConfigError(`${at}: give exactly one of 'headers' (static) or 'auth' (oauth_client_credentials)`);
  if (hasHeaders) {
    if (!isObject(v['headers'])) throw new HeaderConfigError(`${at}.headers: expected an object of header names to values`);
    const o = v['override'];
    if (o !== undefined && typeof o !== 'boolean') throw new HeaderConfigError(`${at}.override: expected true or false`);
    return staticRule(host, methods, v['headers'], o !== false, `${at}.headers`);
  }
  if (v['override'] !== undefined) throw new HeaderConfigError(`${at}.override: applies to static rules only (an OAuth header is only filled when the script did not set it)`);
  const auth = v['auth'];
  if (!isObject(auth)) throw new HeaderConfigError(`${at}.auth: expected an object`);
  checkKeys(auth, AUTH_KEYS, `${at}.auth`);
  if (auth['type'] !== 'oauth_client_credentials') throw new HeaderConfigError(`${at}.auth.type: expected "oauth_client_credentials"`);
  for (const key of ['header', 'token_url', 'client_id', 'client_secret'] as const) {
    if (auth[key] === undefined) throw new HeaderConfigError(`${at}.auth: missing '${key}'`);
  }
  if (auth['refresh_buffer_secs'] !== undefined && typeof auth['refresh_buffer_secs'] !== 'number') {
    throw new HeaderConfigError(`${at}.auth: 'refresh_buffer_secs' must be a whole number of seconds (0 or more)`);
  }
  return oauthRule(host, methods, auth as unknown as OAuthFields, `${at}.auth`);
}

/** The whole `--fetch-header-config` value (already JSON: inline, read from its file, or the config section). */
export function parseHeaderConfig(raw: unknown): HeaderRule[] {
  if (!Array.isArray(raw)) throw new HeaderConfigError('expected a JSON array of rules');
  return raw.map((r, i) => parseJsonRule(r, `[${i}]`));
}

/** Every rule, in the order they apply: each `--fetch-header` in turn, then `--fetch-header-config`'s. */
export function headerRulesOf(flags: readonly string[], config: unknown): HeaderRules {
  const rules = [...flags.map(parseHeaderFlag), ...(config === undefined ? [] : parseHeaderConfig(config))];
  return deepFreeze(rules);
}

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}
