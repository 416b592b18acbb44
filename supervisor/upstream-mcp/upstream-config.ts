/**
 * `--mcp-config` (JSON, config section `[[mcp_servers]]`) and `--mcp-server` (compact form) →
 * the upstream MCP servers runjs connects to, checked in full at startup: a mistake stops the
 * server with a message naming the flag and the key. docs/mcp-servers.md describes the shapes.
 *
 * Entry: `{name, transport: "stdio", command, args?, env?}` or `{name, transport: "sse" | "http",
 * url}`. `--mcp-config` takes an array of entries, one entry, or an object mapping names to
 * entries (without `name`). `auth` (browser OAuth) is refused: not supported yet.
 */

export interface StdioUpstream {
  readonly name: string;
  readonly transport: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  /** Added to the environment the SDK gives the child (a safe subset of ours). */
  readonly env: Readonly<Record<string, string>>;
}

export interface UrlUpstream {
  readonly name: string;
  readonly transport: 'sse' | 'http';
  readonly url: string;
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
  if (raw['auth'] !== undefined) {
    throw new UpstreamConfigError(`${at}.auth: authentication of upstream MCP servers ('auth', e.g. oauth_browser) is not supported yet; remove the key, or put the server behind a proxy that adds the credentials`);
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
    return Object.freeze({ name, transport, command, args: Object.freeze([...args]), env: Object.freeze({ ...(env as Record<string, string>) }) });
  }
  if (transport === 'sse' || transport === 'http') {
    for (const key of ['command', 'args', 'env']) if (raw[key] !== undefined) throw new UpstreamConfigError(`${at}.${key}: applies to the stdio transport only`);
    return Object.freeze({ name, transport, url: checkUrl(raw['url'], at) });
  }
  throw new UpstreamConfigError(`${at}.transport: expected "stdio", "sse" or "http" (got ${JSON.stringify(transport)})`);
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
