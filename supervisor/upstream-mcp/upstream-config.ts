/**
 * `--mcp-config` (JSON, config section `[[mcp_servers]]`) and `--mcp-server` (compact form) →
 * the upstream MCP servers runjs connects to, checked in full at startup: a mistake stops the
 * server with a message naming the flag and the key. docs/mcp-servers.md describes the shapes.
 *
 * Entry: `{name, transport: "stdio", command, args?, env?}` or `{name, transport: "sse" | "http",
 * url}`. `--mcp-config` takes an array of entries, one entry, or an object mapping names to
 * entries (without `name`). `auth` (`{type: "oauth_browser", ...}`, oauth-browser.ts) is taken on
 * `http` entries only: on `sse` it is an error, on `stdio` it is ignored (`ignoredAuth`, warned
 * about at startup) — the reference's behaviour. The compact `--mcp-server` form has no `auth`.
 */

export interface StdioUpstream {
  readonly name: string;
  readonly transport: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  /** Added to the environment the SDK gives the child (a safe subset of ours). */
  readonly env: Readonly<Record<string, string>>;
  /** The entry had an `auth`, which stdio ignores (warned about at startup). */
  readonly ignoredAuth?: true;
}

/** `auth` of an `http` entry: the authorization-code flow with PKCE, the operator's browser doing the login. */
export interface OAuthBrowserConfig {
  readonly type: 'oauth_browser';
  /** Asked for when the server's metadata names no scopes. */
  readonly scope?: string;
  /** A pre-registered client; without it runjs registers one dynamically (RFC 7591). */
  readonly clientId?: string;
  readonly clientSecret?: string;
  /** The redirect listener's port on 127.0.0.1; 0 (default) picks a free one at startup. */
  readonly redirectPort: number;
  /** The JSON file that keeps tokens (mode 0600) across restarts; absolute, or relative to the working directory. Without it tokens live in memory only. */
  readonly tokenCache?: string;
}

export interface UrlUpstream {
  readonly name: string;
  readonly transport: 'sse' | 'http';
  readonly url: string;
  /** `http` only. */
  readonly auth?: OAuthBrowserConfig;
}

export type UpstreamConfig = StdioUpstream | UrlUpstream;

export class UpstreamConfigError extends Error {
  override readonly name = 'UpstreamConfigError';
}

/** Letters, digits, `_` and `-`: the name appears in stub tool names (`runjs__<server>__<tool>`). */
const NAME = /^[A-Za-z0-9_-]+$/;
const ENTRY_KEYS = ['name', 'transport', 'command', 'args', 'env', 'url', 'auth'] as const;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkName(v: unknown, at: string): string {
  if (typeof v !== 'string' || !NAME.test(v)) throw new UpstreamConfigError(`${at}: 'name' must be letters, digits, _ and - only (got ${JSON.stringify(v)})`);
  if (v.includes('__')) throw new UpstreamConfigError(`${at}: 'name' ${JSON.stringify(v)} must not contain '__' (it separates server and tool in stub names)`);
  return v;
}

function checkUrl(v: unknown, at: string): string {
  const url = typeof v === 'string' ? URL.parse(v) : null;
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new UpstreamConfigError(`${at}: 'url' must be an http(s) URL (got ${JSON.stringify(v)})`);
  return url.href;
}

/** One entry of `--mcp-config`; `at` names it in messages (`[0]`, `files`). */
export function parseEntry(raw: unknown, at: string, nameFromKey?: string): UpstreamConfig {
  if (!isObject(raw)) throw new UpstreamConfigError(`${at}: expected an object {name, transport, ...}`);
  for (const key of Object.keys(raw)) {
    if (!(ENTRY_KEYS as readonly string[]).includes(key)) throw new UpstreamConfigError(`${at}.${key}: unknown key (expected one of ${ENTRY_KEYS.join(', ')})`);
  }
  const name = checkName(nameFromKey ?? raw['name'], at);
  if (nameFromKey !== undefined && raw['name'] !== undefined && raw['name'] !== nameFromKey) {
    throw new UpstreamConfigError(`${at}.name: ${JSON.stringify(raw['name'])} differs from the key it is listed under`);
  }
  const transport = raw['transport'];
  if (transport === 'stdio') {
    for (const key of ['url']) if (raw[key] !== undefined) throw new UpstreamConfigError(`${at}.${key}: applies to the sse and http transports only`);
    const command = raw['command'];
    if (typeof command !== 'string' || command.trim() === '') throw new UpstreamConfigError(`${at}: 'command' must be a non-empty string (transport stdio)`);
    const args = raw['args'] ?? [];
    if (!Array.isArray(args) || !args.every((a) => typeof a === 'string')) throw new UpstreamConfigError(`${at}.args: expected an array of strings`);
    const env = raw['env'] ?? {};
    if (!isObject(env) || !Object.values(env).every((v) => typeof v === 'string')) throw new UpstreamConfigError(`${at}.env: expected an object of strings`);
    const ignoredAuth = raw['auth'] !== undefined ? { ignoredAuth: true as const } : {};
    return Object.freeze({ name, transport, command, args: Object.freeze([...args]), env: Object.freeze({ ...(env as Record<string, string>) }), ...ignoredAuth });
  }
  if (transport === 'sse' || transport === 'http') {
    for (const key of ['command', 'args', 'env']) if (raw[key] !== undefined) throw new UpstreamConfigError(`${at}.${key}: applies to the stdio transport only`);
    const url = checkUrl(raw['url'], at);
    if (raw['auth'] === undefined) return Object.freeze({ name, transport, url });
    if (transport === 'sse') throw new UpstreamConfigError(`${at}.auth: oauth_browser applies to the http (Streamable HTTP) transport only, not sse`);
    return Object.freeze({ name, transport, url, auth: parseAuth(raw['auth'], `${at}.auth`) });
  }
  throw new UpstreamConfigError(`${at}.transport: expected "stdio", "sse" or "http" (got ${JSON.stringify(transport)})`);
}

const AUTH_KEYS = ['type', 'scope', 'client_id', 'client_secret', 'redirect_port', 'token_cache'] as const;

function optionalString(raw: Record<string, unknown>, key: string, at: string): string | undefined {
  const v = raw[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v === '') throw new UpstreamConfigError(`${at}.${key}: expected a non-empty string`);
  return v;
}

function parseAuth(raw: unknown, at: string): OAuthBrowserConfig {
  if (!isObject(raw)) throw new UpstreamConfigError(`${at}: expected an object {type: "oauth_browser", ...}`);
  for (const key of Object.keys(raw)) {
    if (!(AUTH_KEYS as readonly string[]).includes(key)) throw new UpstreamConfigError(`${at}.${key}: unknown key (expected one of ${AUTH_KEYS.join(', ')})`);
  }
  if (raw['type'] !== 'oauth_browser') throw new UpstreamConfigError(`${at}.type: expected "oauth_browser" (got ${JSON.stringify(raw['type'])})`);
  const scope = optionalString(raw, 'scope', at);
  const clientId = optionalString(raw, 'client_id', at);
  const clientSecret = optionalString(raw, 'client_secret', at);
  const tokenCache = optionalString(raw, 'token_cache', at);
  if (clientSecret !== undefined && clientId === undefined) throw new UpstreamConfigError(`${at}.client_secret: needs client_id`);
  const port = raw['redirect_port'] ?? 0;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535) throw new UpstreamConfigError(`${at}.redirect_port: expected an integer from 0 to 65535 (got ${JSON.stringify(port)})`);
  return Object.freeze({
    type: 'oauth_browser' as const,
    redirectPort: port,
    ...(scope !== undefined ? { scope } : {}),
    ...(clientId !== undefined ? { clientId } : {}),
    ...(clientSecret !== undefined ? { clientSecret } : {}),
    ...(tokenCache !== undefined ? { tokenCache } : {}),
  });
}

/** `--mcp-config`'s value (already parsed from JSON): an array of entries, one entry, or `{name: entry}`. */
export function parseMcpConfig(value: unknown): UpstreamConfig[] {
  if (Array.isArray(value)) return value.map((e, i) => parseEntry(e, `[${i}]`));
  if (!isObject(value)) throw new UpstreamConfigError('expected an array of servers, one server, or an object of servers by name');
  if (typeof value['transport'] === 'string') return [parseEntry(value, '')];
  return Object.entries(value).map(([name, e]) => parseEntry(e, name, name));
}

/**
 * One `--mcp-server`: `NAME=stdio:COMMAND:ARG:...`, `NAME=sse:URL` or `NAME=http:URL` (the URL
 * keeps its own colons). The stdio form splits at every `:`, so a command or argument cannot
 * contain one: use `--mcp-config` for those.
 */
export function parseMcpServerFlag(text: string): UpstreamConfig {
  const eq = text.indexOf('=');
  const at = `--mcp-server ${JSON.stringify(text)}`;
  if (eq <= 0) throw new UpstreamConfigError(`${at}: expected NAME=stdio:COMMAND:ARG..., NAME=sse:URL or NAME=http:URL`);
  const name = text.slice(0, eq);
  const rest = text.slice(eq + 1);
  const colon = rest.indexOf(':');
  const transport = colon === -1 ? rest : rest.slice(0, colon);
  const body = colon === -1 ? '' : rest.slice(colon + 1);
  if (transport === 'stdio') {
    const [command = '', ...args] = body.split(':');
    return parseEntry({ name, transport, command, args }, at);
  }
  return parseEntry({ name, transport, url: body }, at);
}

/** Every configured server: `--mcp-server` entries first, then `--mcp-config`'s; names are unique. */
export function upstreamServersOf(flags: readonly string[], config: unknown): UpstreamConfig[] {
  const servers = [...flags.map(parseMcpServerFlag), ...(config === undefined ? [] : parseMcpConfig(config))];
  const seen = new Set<string>();
  for (const s of servers) {
    if (seen.has(s.name)) throw new UpstreamConfigError(`MCP server '${s.name}' is configured twice (names must be unique across --mcp-server and --mcp-config)`);
    seen.add(s.name);
  }
  return servers;
}
