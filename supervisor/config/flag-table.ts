/**
 * THE flag table: every setting runjs accepts, as data. Parsing, the JSON
 * Schema, precedence, --help, docs/configuration.md and config.example.toml are
 * all generated from it, so adding a flag here is the whole job.
 *
 * Derived per entry by `define` (flag-spec.ts): config key = name with
 * underscores (unless `fileKey: null` or `cliOnly`), env = RUNJS_<UPPER_SNAKE>
 * then `extraEnv`, `repeatable` = kind is `list`. Defaults are final values
 * (sizes in bytes, paths absolute); a function default reads other flags'
 * final values. `implemented: false` flags parse and validate but are refused
 * at startup by assertImplemented until the feature lands.
 */
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { define } from './flag-spec.ts';
import { HEAP_MB_FLOOR, HEAP_MB_MIN, QUICKJS_MAX_HEAP_MB, TIMEOUT_SECS } from '../../shared/execution-contract.ts';
import type { ResolvedLookup } from './flag-spec.ts';

const MiB = 1024 * 1024;
const HOST_PORT = '(\\[[0-9A-Fa-f:.]+\\]|[^\\s:@\\[\\]]+):[0-9]{1,5}$';
const STUB_PREFIX = '^[A-Za-z0-9_-]*$';
const STUB_PREFIX_SHAPE = 'letters, digits, _ and - only (may be empty)';
const IDENTIFIER_EQ = '^[A-Za-z_][A-Za-z0-9_]*=.+$';

const sessionDbChild = (leaf: string) => (get: ResolvedLookup): string =>
  path.join(get('session-db-path') as string, leaf);

const listIsNonEmpty = (get: ResolvedLookup, flag: string): boolean =>
  (get(flag) as readonly unknown[]).length > 0;

// Examples of the structured values (docs and config.example.toml only).
const EXAMPLE_POLICIES = {
  fetch: { mode: 'all', policies: [{ url: 'http://127.0.0.1:8181', policy_path: 'mcp/fetch' }] },
};
const EXAMPLE_FETCH_HEADERS = [
  { host: 'api.github.com', methods: ['GET'], headers: { Authorization: 'Bearer example-token' }, override: true },
];
const EXAMPLE_MCP_SERVERS = [
  { name: 'files', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/'] },
];
const EXAMPLE_WASM = {
  hello: '/opt/runjs/wasm/hello.wasm',
  image: { path: '/opt/runjs/wasm/image.wasm', max_memory_bytes: 33554432, description: 'Image resizing helpers' },
};
const EXAMPLE_SANDBOX = {
  version: '0.1.0',
  filesystem: { grants: [{ path: '/srv/data', access: 'read' }] },
  network: { mode: 'blocked' },
};

export const FLAGS = [
  // ── general ──────────────────────────────────────────────────────────────
  define({
    name: 'config', kind: 'path', fileKey: null, group: 'general', implemented: true,
    description: 'Load settings from one TOML or JSON file (chosen by extension); config files cannot chain.',
  }),
  define({
    name: 'help', kind: 'boolean', default: false, cliOnly: true, group: 'general', implemented: true,
    description: 'Print this help and exit.',
  }),
  define({
    name: 'version', kind: 'boolean', default: false, cliOnly: true, group: 'general', implemented: true,
    description: 'Print the version and exit.',
  }),
  define({
    name: 'print-openapi', kind: 'boolean', default: false, cliOnly: true, group: 'general', implemented: true,
    description: 'Print the OpenAPI document of the REST API and exit.',
  }),
  define({
    name: 'log-level', kind: 'enum', values: ['error', 'warn', 'info', 'debug'], default: 'info',
    group: 'general', implemented: true,
    description: 'Minimum severity of log lines written to stderr.',
  }),

  // ── transports, HTTP and authentication ──────────────────────────────────
  define({
    name: 'http-port', kind: 'port', example: 8080, group: 'transport', implemented: true,
    defaultDoc: 'unset (stdio), or PORT when no port is set anywhere',
    description: 'Serve MCP over Streamable HTTP, plus the REST API, on this port.',
  }),
  define({
    name: 'sse-port', kind: 'port', example: 8081, group: 'transport', implemented: true,
    description: 'Serve MCP over the legacy SSE transport on this port; exclusive with --http-port.',
  }),
  define({
    name: 'bind-host', kind: 'string', default: '0.0.0.0', metavar: 'HOST', group: 'transport', implemented: true,
    description: 'Listener address; `::` for dual-stack.',
  }),
  define({
    name: 'allowed-hosts', kind: 'list', commaSplit: true, default: ['localhost', '127.0.0.1', '::1'],
    metavar: 'HOST', group: 'transport', implemented: true,
    description: 'Host header allowlist for every HTTP route (/mcp, /sse, /message, /api/*; else 403) except the OpenAPI document; `*` allows any; a bare host matches any port; must not be empty.',
  }),
  define({
    name: 'allowed-origins', kind: 'list', commaSplit: true, default: [], example: ['https://app.example.com'],
    metavar: 'ORIGIN', shape: 'an origin (scheme://host[:port]) or null',
    pattern: '^(null|[A-Za-z][A-Za-z0-9+.-]*://[^/\\s]+)$',
    group: 'transport', implemented: true,
    description: 'When non-empty, a request with an unlisted Origin gets 403; requests without Origin pass.',
  }),
  define({
    name: 'jwks-url', kind: 'url', extraEnv: ['JWKS_URL'], example: 'https://auth.example.com/.well-known/jwks.json',
    group: 'transport', implemented: true,
    description: 'Require a JWT verified against this key set on /mcp and /api/*; RUNJS_JWKS_URL wins over JWKS_URL.',
  }),
  define({
    name: 'public-url', kind: 'url', example: 'https://runjs.example.com', group: 'transport', implemented: true,
    description: 'Externally reachable base URL, used to build absolute artifact upload URLs (get_artifact_upload_url) and CLI download URLs; without it upload URLs are paths.',
  }),
  define({
    name: 'max-request-body', kind: 'size', default: 16 * MiB, min: 1, group: 'transport', implemented: true,
    description: 'Largest accepted REST request body (JSON or raw).',
  }),

  // ── sessions ─────────────────────────────────────────────────────────────
  define({
    name: 'stateless', kind: 'boolean', default: false, group: 'session', implemented: true,
    description: 'Stateless mode: a single `run_js` tool that waits for the result; no sessions.',
  }),
  define({
    name: 'session-id', kind: 'string', metavar: 'ID', example: 'main', group: 'session', implemented: true,
    description: 'Fixed session id used when a request carries no session header (e.g. stdio).',
  }),
  define({
    name: 'session-fork-from', kind: 'string', metavar: 'ID', example: 'template', group: 'session',
    implemented: true,
    description: 'Fork the --session-id session copy-on-write from this session\'s latest snapshot (once, when empty).',
  }),
  define({
    name: 'session-db-path', kind: 'path', default: '/tmp/mcp-v8-sessions', group: 'session', implemented: true,
    description: 'Session log and execution registry database; parent of the other stores.',
  }),

  // ── execution limits (the per-call contract: shared/execution-contract.ts) ──
  define({
    name: 'heap-memory-max', kind: 'integer', unit: 'MB', default: 8, min: HEAP_MB_MIN, clampMin: HEAP_MB_FLOOR,
    group: 'execution', implemented: true,
    description: `Engine heap cap per isolate when a call names none, in MB; values below ${HEAP_MB_FLOOR} are accepted and raised to ${HEAP_MB_FLOOR}. Must not exceed --heap-memory-ceiling; with a heap store (QuickJS, a 32-bit WebAssembly VM) it is at most ${QUICKJS_MAX_HEAP_MB}, and a larger value stops the start.`,
  }),
  define({
    name: 'heap-memory-ceiling', kind: 'integer', unit: 'MB', default: 1024, min: HEAP_MB_FLOOR, group: 'execution', implemented: true,
    description: `Largest per-call heap_memory_max_mb, in MB; a larger value is refused (REST 400, MCP error result). With a heap store the ceiling is also at most ${QUICKJS_MAX_HEAP_MB}. The worker's memory watchdog allows a run up to 4 times its cap, so this bounds what one caller can make the host commit.`,
  }),
  define({
    name: 'execution-timeout', kind: 'integer', unit: 'seconds', default: 30, min: TIMEOUT_SECS.min, max: TIMEOUT_SECS.max,
    group: 'execution', implemented: true,
    description: 'Wall-clock limit per execution.',
  }),
  define({
    name: 'max-concurrent-executions', kind: 'integer', min: 1, default: (): number => availableParallelism(),
    defaultDoc: 'CPU core count', example: 4, group: 'execution', implemented: true,
    description: 'Executions running at once, server-wide.',
  }),
  define({
    name: 'max-queued-executions', kind: 'integer', default: 1000, min: 0, group: 'execution', implemented: true,
    description: 'FIFO queue length beyond the concurrency cap; further submissions are rejected.',
  }),
  define({
    name: 'execution-retention', kind: 'integer', default: 1000, min: 1, group: 'execution', implemented: true,
    description: 'Finished executions kept in the registry and list; older ones are pruned.',
  }),
  define({
    name: 'max-output-bytes', kind: 'size', default: 16 * MiB, min: 1, group: 'execution', implemented: true,
    description: 'Console output kept per execution.',
  }),
  define({
    name: 'allow-external-modules', kind: 'boolean', default: false, group: 'execution', implemented: true,
    description: 'Let scripts import `npm:`, `jsr:` and http(s) URL modules: resolved from the npm registry npm itself would use (`npm_config_registry`, `.npmrc`), bundled, and cached under `--session-db-path` (docs/packages.md).',
  }),
  define({
    name: 'allow-run-js-file', kind: 'boolean', default: false, group: 'execution', implemented: true,
    description: 'Let `run_js` read any readable path; takes precedence over a `run_js_file` read policy.',
  }),

  // ── MCP surface ──────────────────────────────────────────────────────────
  define({
    name: 'instructions', kind: 'string', atFile: true, metavar: 'TEXT|@FILE',
    example: 'Run JavaScript with run_js, then poll get_execution.', group: 'mcp-surface', implemented: true,
    description: 'Override the MCP initialize instructions; `@file` reads a file, `@@` stands for a literal `@`.',
  }),
  define({
    name: 'run-js-description', kind: 'string', atFile: true, metavar: 'TEXT|@FILE',
    example: 'Run a JavaScript or TypeScript snippet in a sandbox.', group: 'mcp-surface', implemented: true,
    description: 'Override the advertised `run_js` tool description; `@file` and `@@` as for --instructions.',
  }),

  define({
    name: 'stateless-artifact-tools', kind: 'boolean', default: false, group: 'mcp-surface', implemented: true,
    description: 'In --stateless mode, also list get_artifact, list_artifacts, delete_artifact and get_artifact_upload_url (the spec\'s stateless mode has `run_js` only; emitted artifacts come inline in its result); requires --stateless.',
  }),

  // ── heap and filesystem persistence ──────────────────────────────────────
  define({
    name: 'heap-store', kind: 'enum', values: ['none', 'dir', 's3'], default: 'none', group: 'storage',
    implemented: true,
    description: 'Heap persistence; with `none` globals do not survive runs; other values exclude WASM modules.',
  }),
  define({
    name: 'heap-dir', kind: 'path', default: '/tmp/mcp-v8-heaps', group: 'storage', implemented: true,
    description: 'Heap snapshot directory for --heap-store=dir.',
  }),
  define({
    name: 'fs-store', kind: 'enum', values: ['none', 'dir', 's3'], default: 'none', group: 'storage',
    implemented: true,
    description: 'Filesystem snapshot backend; `s3` is required for filesystem persistence in a cluster.',
  }),
  define({
    name: 'fs-dir', kind: 'path', default: sessionDbChild('fs-blobs'), defaultDoc: '<session-db-path>/fs-blobs',
    example: '/var/lib/runjs/fs-blobs', group: 'storage', implemented: true,
    description: 'Filesystem snapshot blob store.',
  }),
  define({
    name: 'fs-labels-db', kind: 'path', default: sessionDbChild('fs-labels'), defaultDoc: '<session-db-path>/fs-labels',
    example: '/var/lib/runjs/fs-labels', group: 'storage', implemented: true,
    description: 'Directory of the filesystem label and reflog database (an SQLite file, fs-labels.sqlite, shareable by server processes on one host).',
  }),
  define({
    name: 'fs-passthrough', kind: 'boolean', default: false, group: 'storage', implemented: true,
    description: 'A `readFile` of a path outside `/work` that the run\'s filesystem does not hold falls through, read-only and policy-gated (`filesystem`), to the same path of the real filesystem, as the worker process sees it (docs/filesystem.md, "Passthrough").',
  }),
  define({
    name: 's3-bucket', kind: 'string', metavar: 'BUCKET', example: 'runjs-snapshots', group: 'storage',
    implemented: true,
    description: 'Bucket for stores set to `s3` (required then).',
  }),
  define({
    name: 's3-endpoint', kind: 'url', example: 'https://s3.example.com', group: 'storage', implemented: true,
    description: 'S3-compatible endpoint (default: AWS).',
  }),
  define({
    name: 's3-force-path-style', kind: 'boolean', default: false, group: 'storage', implemented: true,
    description: 'Address buckets as `<endpoint>/<bucket>` instead of virtual-host style.',
  }),
  define({
    name: 'cache-dir', kind: 'path', example: '/var/cache/runjs', group: 'storage', implemented: true,
    description: 'Local write-through cache for S3 stores.',
  }),

  // ── policies and header injection ────────────────────────────────────────
  define({
    name: 'policies-json', kind: 'json-or-path', jsonShape: 'object', section: 'policies', example: EXAMPLE_POLICIES,
    group: 'policy', implemented: true,
    description: 'Per-operation policies and hooks (docs/policies.md).',
  }),
  define({
    name: 'fetch-default', kind: 'enum', values: ['deny', 'allow'], default: 'deny', group: 'policy', implemented: true,
    description: 'What a script\'s fetch or WebSocket gets when no `fetch` (or `websocket`) policy decides it: `deny` (the default: scripts reach no network) or `allow` (any http(s) or ws(s) URL).',
  }),
  define({
    name: 'fetch-ca-file', kind: 'path', example: '/etc/runjs/intranet-ca.pem', group: 'policy', implemented: true,
    description: 'A PEM file of certificate authorities trusted, besides Node\'s bundled roots, for scripts\' https fetches and wss WebSockets (e.g. an intranet CA). Read once at startup.',
  }),
  define({
    name: 'fetch-header-config', kind: 'json-or-path', jsonShape: 'array', section: 'fetch_headers',
    example: EXAMPLE_FETCH_HEADERS, group: 'policy', implemented: true,
    description: 'Header-injection rules: a JSON array of `{host, methods?, headers, override?}` (static) or `{host, methods?, auth: {type: "oauth_client_credentials", header, token_url, client_id, client_secret, scope?, refresh_buffer_secs?}}` rules, applied on the host to scripts\' outbound requests; the script never sees the values (docs/network.md, "Header injection").',
  }),
  define({
    name: 'fetch-header', kind: 'list', default: [], metavar: 'KEY=VALUE,...',
    pattern: '^[a-z_]+=[^,]*(,[a-z_]+=[^,]*)*$',
    example: ['host=api.example.com,header=Authorization,value=Bearer example-token'],
    group: 'policy', implemented: true,
    description: 'One header-injection rule as comma-separated key=value pairs: `host` and `header` required, `methods` separated by `;`, then either `value` (static; `override` defaults to true) or `token_url`, `client_id`, `client_secret` (OAuth client credentials; optional `scope`, `refresh_buffer_secs` default 30). Repeatable; applied before `--fetch-header-config`\'s rules.',
  }),

  // ── external MCP servers ─────────────────────────────────────────────────
  define({
    name: 'mcp-config', kind: 'json-or-path', jsonShape: 'object-or-array', section: 'mcp_servers',
    example: EXAMPLE_MCP_SERVERS, group: 'upstream-mcp', implemented: true,
    description: 'External MCP servers whose tools scripts can call (`mcp.callTool`): a JSON array of `{name, transport: "stdio", command, args?, env?}` or `{name, transport: "sse" | "http", url}`; an `http` entry may add `auth: {type: "oauth_browser", scope?, client_id?, client_secret?, redirect_port?, token_cache?}` (docs/mcp-servers.md, "OAuth").',
  }),
  define({
    name: 'mcp-server', kind: 'list', default: [], metavar: 'NAME=stdio:CMD:ARG...|NAME=sse:URL|NAME=http:URL',
    pattern: '^[A-Za-z0-9_-]+=(stdio|sse|http):.+$', example: ['git=stdio:uvx:mcp-server-git', 'search=http:http://127.0.0.1:9000/mcp'],
    group: 'upstream-mcp', implemented: true,
    description: 'One external MCP server, compact form (no browser OAuth); the stdio form splits at every `:`. Repeatable.',
  }),
  define({
    name: 'mcp-stubs', kind: 'boolean', example: true, group: 'upstream-mcp', implemented: true,
    default: (get: ResolvedLookup): boolean => get('mcp-config') !== undefined || listIsNonEmpty(get, 'mcp-server'),
    defaultDoc: 'true when any server is configured',
    description: 'List upstream tools as `<prefix><server>__<tool>` stubs pointing to `mcp.callTool` in run_js.',
  }),
  define({
    name: 'mcp-stub-prefix', kind: 'string', default: 'runjs__', metavar: 'PREFIX',
    pattern: STUB_PREFIX, shape: STUB_PREFIX_SHAPE,
    group: 'upstream-mcp', implemented: true,
    description: 'Prefix of MCP stub tool names.',
  }),

  // ── WebAssembly ──────────────────────────────────────────────────────────
  define({
    name: 'wasm-config', kind: 'json-or-path', jsonShape: 'object', section: 'wasm', example: EXAMPLE_WASM,
    group: 'wasm', implemented: true,
    description: 'Map of global name to module path or `{path, max_memory_bytes, description}`.',
  }),
  define({
    name: 'wasm-module', kind: 'list', default: [], fileKey: null, metavar: 'NAME=PATH[:LIMIT]',
    pattern: IDENTIFIER_EQ, example: ['hello=/opt/runjs/wasm/hello.wasm:32m'], group: 'wasm', implemented: true,
    description: 'Preload a module as global `__wasm_<NAME>`; LIMIT caps its native memory.',
  }),
  define({
    name: 'wasm-default-max-memory', kind: 'size', default: 16 * MiB, min: 1, group: 'wasm', implemented: true,
    description: 'Native memory cap per module, separate from the JS heap.',
  }),
  define({
    name: 'wasm-stubs', kind: 'boolean', example: true, group: 'wasm', implemented: true,
    default: (get: ResolvedLookup): boolean => get('wasm-config') !== undefined || listIsNonEmpty(get, 'wasm-module'),
    defaultDoc: 'true when modules are loaded',
    description: 'List modules as `<prefix>wasm__<name>` stub tools.',
  }),
  define({
    name: 'wasm-stub-prefix', kind: 'string', default: 'runjs__', metavar: 'PREFIX',
    pattern: STUB_PREFIX, shape: STUB_PREFIX_SHAPE,
    group: 'wasm', implemented: true,
    description: 'Prefix of WASM stub tool names.',
  }),
  define({
    name: 'wasm-stub-description', kind: 'list', default: [], fileKey: null, metavar: 'NAME=TEXT',
    pattern: IDENTIFIER_EQ, example: ['hello=Greets people'], group: 'wasm', implemented: true,
    description: 'Stub description of one module; overrides the description in --wasm-config.',
  }),

  // ── sandbox and hardening ────────────────────────────────────────────────
  define({
    name: 'sandbox-manifest', kind: 'json-or-path', jsonShape: 'object', section: 'sandbox', example: EXAMPLE_SANDBOX,
    group: 'hardening', implemented: false,
    description: 'OS-enforced process confinement, applied irreversibly at startup; startup fails if unenforceable.',
  }),
  define({
    name: 'harden-freeze-ops', kind: 'boolean', default: false, group: 'hardening', implemented: false,
    description: 'Freeze the internal host-op table.',
  }),
  define({
    name: 'harden-neutralize-proxy-details', kind: 'boolean', default: false, group: 'hardening', implemented: false,
    description: 'Neutralize the proxy-detail op.',
  }),
  define({
    name: 'harden-neutralize-introspection', kind: 'boolean', default: false, group: 'hardening', implemented: false,
    description: 'Neutralize the memory-usage and terminal-check ops.',
  }),
  define({
    name: 'harden-remove-bootstrap', kind: 'boolean', default: false, group: 'hardening', implemented: false,
    description: 'Remove the bootstrap global.',
  }),
  define({
    name: 'harden-remove-shared-memory', kind: 'boolean', default: false, group: 'hardening', implemented: false,
    description: 'Remove `SharedArrayBuffer` and `Atomics` (threaded WASM needs them).',
  }),

  // ── cluster ──────────────────────────────────────────────────────────────
  define({
    name: 'cluster-port', kind: 'port', example: 9000, group: 'cluster', implemented: false,
    description: 'Enable cluster mode, serving the Raft endpoints on this port; needs --http-port or --sse-port.',
  }),
  define({
    name: 'metadata-only', kind: 'boolean', default: false, group: 'cluster', implemented: false,
    description: 'Raft-only node: needs --cluster-port; no transports and no JS-execution settings.',
  }),
  define({
    name: 'node-id', kind: 'string', default: 'node1', pattern: '^[A-Za-z0-9._-]+$', metavar: 'ID',
    shape: 'letters, digits, ., _ and - only',
    group: 'cluster', implemented: false,
    description: 'This node\'s name in the cluster.',
  }),
  define({
    name: 'peers', kind: 'list', commaSplit: true, default: [], metavar: '[ID@]HOST:PORT',
    pattern: `^([A-Za-z0-9._-]+@)?${HOST_PORT}`, example: ['node2@10.0.0.2:9000', '10.0.0.3:9000'],
    group: 'cluster', implemented: false,
    description: 'Seed peers; other nodes may join later via /raft/join.',
  }),
  define({
    name: 'join', kind: 'string', metavar: 'HOST:PORT', pattern: `^${HOST_PORT}`, example: '10.0.0.2:9000',
    group: 'cluster', implemented: false,
    description: 'Contact an existing member, which forwards the join to the leader.',
  }),
  define({
    name: 'join-as-learner', kind: 'boolean', default: false, group: 'cluster', implemented: false,
    description: 'Join as a non-voting replica, excluded from elections and quorums.',
  }),
  define({
    name: 'advertise-addr', kind: 'string', metavar: 'HOST:PORT', pattern: `^${HOST_PORT}`, example: '10.0.0.1:9000',
    defaultDoc: '<node-id>:<cluster-port>', group: 'cluster', implemented: false,
    default: (get: ResolvedLookup): string | undefined =>
      get('cluster-port') === undefined ? undefined : `${String(get('node-id'))}:${String(get('cluster-port'))}`,
    description: 'Address advertised to peers.',
  }),
  define({
    name: 'heartbeat-interval', kind: 'integer', unit: 'ms', default: 100, min: 1, group: 'cluster',
    implemented: false,
    description: 'Leader heartbeat interval.',
  }),
  define({
    name: 'election-timeout-min', kind: 'integer', unit: 'ms', default: 300, min: 1, group: 'cluster',
    implemented: false,
    description: 'Lower bound of the randomised election timeout.',
  }),
  define({
    name: 'election-timeout-max', kind: 'integer', unit: 'ms', default: 500, min: 1, group: 'cluster',
    implemented: false,
    description: 'Upper bound of the randomised election timeout.',
  }),
] as const;

export type FlagTable = typeof FLAGS;
export type FlagName = FlagTable[number]['name'];
