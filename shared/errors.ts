// The error registry: every error runjs answers a caller with, by stable code → message template
// → HTTP status → MCP mapping (→ the exception a script sees, for errors a host op can raise).
// Services, routes, tools and ops throw `RunjsError(code, ...args)`; REST renders it in one place
// (supervisor/rest/api-error.ts), MCP tools in one place (supervisor/mcp/tool-kit.ts). Outcome
// texts (an execution's `error`) are the second table, EXECUTION_ERRORS.
// Texts fixed by the interface spec are pinned by test/unit/shared/errors.test.ts; docs/errors.md
// is generated from this file (scripts/gen-error-docs.ts).
//
// This module imports nothing: bounds that appear in a text (1 to 300 s, the 16 MiB artifact
// limit) are arguments, passed by the module that owns the number.

/**
 * How an error reaches an MCP client:
 * - `tool-error`: a tools/call result with `isError: true` and `{"error": message}` (a tool with a
 *   shape of its own for failures, like cancel_execution's `{ok: false, error}`, keeps it);
 * - `invalid-params`: a JSON-RPC error -32602 with the message;
 * - `http`: answered by the MCP HTTP endpoint itself before MCP runs: the status and `{"error": message}`;
 * - `http-json-rpc`: the same, with a JSON-RPC error body (`jsonRpcCode`) instead;
 * - `none`: never reaches an MCP client (REST routes and host ops only).
 */
export type McpMapping = 'tool-error' | 'invalid-params' | 'http' | 'http-json-rpc' | 'none';

/** The exception class a script sees when the error reaches it through a host op. */
export type GuestErrorName = 'Error' | 'TypeError' | 'RangeError';

export interface ErrorSpec<Args extends readonly unknown[]> {
  /** The HTTP status (REST, and the MCP HTTP endpoints); for MCP-only codes, the 4xx/5xx class. */
  readonly status: number;
  readonly mcp: McpMapping;
  /** The JSON-RPC error code of an `http-json-rpc` body. */
  readonly jsonRpcCode?: number;
  /** Set when a host op can raise it: the script gets this exception class. */
  readonly guest?: GuestErrorName;
  readonly message: (...args: Args) => string;
}

/** Rust's Debug rendering of an Option<String>, which the reference's fs_snapshot denial text carries. */
function debugOption(v: string | null): string {
  return v === null ? 'None' : `Some(${JSON.stringify(v)})`;
}

/** Keeps each entry's argument types (a table-wide annotation would erase them). */
function spec<Args extends readonly unknown[]>(s: ErrorSpec<Args>): ErrorSpec<Args> {
  return s;
}

/** A value for a message, shortened when long (a caller can send megabytes). */
function shown(v: unknown): string {
  return JSON.stringify(typeof v === 'string' && v.length > 80 ? `${v.slice(0, 80)}…` : v);
}

/** A raw value for a message (no quotes, as mcp-v8's texts have it), shortened when long. */
function clipped(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v) ?? String(v);
  return s.length > 80 ? `${s.slice(0, 80)}…` : s;
}

const MIB = 1024 * 1024;

export const ERRORS = {
  // ── executions (the service; REST and MCP alike) ────────────────────────
  EXECUTION_NOT_FOUND: spec({ status: 404, mcp: 'tool-error', message: (id: string) => `Execution '${id}' not found` }),
  EXECUTION_NOT_RUNNING: spec({ status: 400, mcp: 'tool-error', message: (id: string, status: string) => `Execution '${id}' is not running (status: ${status})` }),
  QUEUE_FULL: spec({ status: 503, mcp: 'tool-error', message: (limit: number) => `Too many executions waiting: the queue holds at most ${limit} (see --max-queued-executions)` }),
  TIMEOUT_OUT_OF_RANGE: spec({
    status: 400, mcp: 'tool-error',
    message: (got: unknown, min: number, max: number) => `execution_timeout_secs must be an integer from ${min} to ${max}, got ${JSON.stringify(got)}`,
  }),
  HEAP_OUT_OF_RANGE: spec({
    status: 400, mcp: 'tool-error',
    message: (got: unknown, floor: number, max: number) => `heap_memory_max_mb must be an integer from ${floor} to ${max} (smaller values are raised to ${floor}), got ${JSON.stringify(got)}`,
  }),
  HEAP_NOT_ENABLED: spec({ status: 400, mcp: 'tool-error', message: () => 'heap snapshots are not enabled on this server: start it with --heap-store dir or s3 to use `heap` and `tags`' }),
  /** `fs` on a run when the store is configured: mounting snapshots into runs is not built yet. */
  FS_NOT_ENABLED: spec({ status: 400, mcp: 'tool-error', message: () => 'filesystem snapshots are not enabled on this server: start it with --fs-store dir or s3 to use `fs`' }),
  // run_js `file` (supervisor/executions/run-js-file.ts); the reference's texts.
  RUN_JS_FILE_DISABLED: spec({
    status: 400, mcp: 'tool-error',
    message: () => 'run_js file-path execution is disabled. Enable it with --allow-run-js-file or configure a `run_js_file` policy in --policies-json.',
  }),
  RUN_JS_CODE_AND_FILE: spec({ status: 400, mcp: 'tool-error', message: () => 'run_js: provide either `code` or `file`, not both' }),
  RUN_JS_FILE_UNREADABLE: spec({ status: 400, mcp: 'tool-error', message: (path: string, why: string) => `run_js file '${path}': ${why}` }),
  RUN_JS_FILE_DENIED: spec({ status: 403, mcp: 'tool-error', message: (path: string, reason: string) => `run_js file '${path}' denied by run_js_file policy: ${reason}` }),
  RUN_JS_FILE_POLICY_FAILED: spec({ status: 500, mcp: 'tool-error', message: (detail: string) => detail }),

  // ── heaps, tags and sessions ────────────────────────────────────────────
  INVALID_HEAP_KEY: spec({ status: 400, mcp: 'tool-error', message: (got: unknown) => `invalid heap key ${shown(got)}: expected a heap key as returned in \`heap\` (64 lowercase hex characters)` }),
  INVALID_TAGS: spec({ status: 400, mcp: 'tool-error', message: (detail: string) => `invalid tags: ${detail}` }),
  INVALID_SESSION: spec({ status: 400, mcp: 'tool-error', message: (detail: string) => `invalid session name: ${detail}` }),
  SESSIONS_NOT_ENABLED: spec({ status: 400, mcp: 'tool-error', message: () => 'sessions are not configured on this server: start it with --heap-store dir or s3 to keep a session log' }),
  NO_SESSION: spec({ status: 400, mcp: 'tool-error', message: () => 'no session: send the X-MCP-Session-Id header at initialize, start the server with --session-id, or name a session' }),

  // ── filesystem snapshots and labels (texts follow mcp-v8 where it has one) ──
  FS_LABELS_NOT_ENABLED: spec({ status: 400, mcp: 'tool-error', message: () => 'fs labels are not configured on this server' }),
  FS_SNAPSHOTS_NOT_ENABLED: spec({ status: 400, mcp: 'tool-error', message: () => 'fs snapshots are not configured on this server' }),
  FS_INVALID_ID: spec({ status: 400, mcp: 'tool-error', message: (got: unknown) => `invalid CA id: ${clipped(got)}` }),
  FS_INVALID_EXPECTED: spec({ status: 400, mcp: 'tool-error', message: (got: unknown) => `invalid expected CA id: ${clipped(got)}` }),
  FS_INVALID_LABEL: spec({
    status: 400, mcp: 'tool-error',
    message: (got: unknown, max: number) => `invalid label name: ${clipped(got)}: use 1 to ${max} letters, digits, '.', '_', '-', '+' or '@', starting with a letter or digit, and not 64 hex digits (that is a CA id)`,
  }),
  FS_INVALID_PATH: spec({ status: 400, mcp: 'tool-error', message: (path: string, why: string) => `invalid path ${shown(path)}: ${why}` }),
  FS_MESSAGE_TOO_LONG: spec({ status: 400, mcp: 'tool-error', message: (bytes: number, max: number) => `label message too long: ${bytes} bytes (max ${max})` }),
  FS_UNKNOWN_LABEL: spec({ status: 404, mcp: 'tool-error', message: (label: string) => `unknown label: ${clipped(label)}` }),
  FS_NOT_IN_REFLOG: spec({
    status: 400, mcp: 'tool-error',
    message: (id: string, label: string) => `CA id ${id} is not in the reflog for label '${label}'; pass allow_unlogged to reset anyway`,
  }),
  FS_PUSH_NEEDS_LABEL: spec({ status: 400, mcp: 'tool-error', message: () => 'fs push requires a label unless detach is true' }),
  FS_INVALID_PREFER: spec({ status: 400, mcp: 'tool-error', message: (got: unknown) => `invalid prefer '${clipped(got)}': expected ours|theirs|none` }),
  /** A merge input that is not a stored snapshot (or a store failure while merging). */
  FS_MERGE_FAILED: spec({ status: 400, mcp: 'tool-error', message: (detail: string) => `fs_merge: ${detail}` }),
  SESSION_PATH_NOT_FOUND: spec({ status: 404, mcp: 'tool-error', message: (path: string) => `no such file or directory in the session's filesystem: ${clipped(path)}` }),
  SESSION_PATH_NOT_A_DIRECTORY: spec({ status: 400, mcp: 'tool-error', message: (path: string) => `not a directory: ${clipped(path)}` }),
  SESSION_PATH_NOT_A_FILE: spec({ status: 400, mcp: 'tool-error', message: (path: string) => `not a file: ${clipped(path)}` }),
  SESSION_PATH_NOT_A_SYMLINK: spec({ status: 400, mcp: 'tool-error', message: (path: string) => `not a symlink: ${clipped(path)}` }),
  SESSION_DIR_NOT_EMPTY: spec({ status: 400, mcp: 'tool-error', message: (path: string) => `directory not empty: ${clipped(path)} (pass recursive=true)` }),
  SESSION_FS_OP_INVALID: spec({ status: 400, mcp: 'tool-error', message: (detail: string) => `session fs: ${detail}` }),
  FS_SNAPSHOT_NOT_FOUND: spec({ status: 400, mcp: 'tool-error', message: (id: string) => `snapshot ${id} was not found in the filesystem store` }),
  /** A stored object that fails verification or does not parse: the store's fault, not the caller's. */
  FS_SNAPSHOT_CORRUPT: spec({ status: 500, mcp: 'tool-error', message: (key: string, detail: string) => `filesystem snapshot object ${key} is corrupt: ${detail}` }),
  FS_STORE_UNAVAILABLE: spec({ status: 500, mcp: 'tool-error', message: () => 'filesystem snapshot store unavailable (the server log has the details)' }),
  FS_GC_REFUSED: spec({ status: 400, mcp: 'none', message: (why: string) => `fs gc refused: ${why}` }),
  FS_GC_INVALID: spec({ status: 400, mcp: 'none', message: (detail: string) => `fs gc: ${detail}` }),
  FS_SNAPSHOT_DENIED: spec({
    status: 403, mcp: 'tool-error',
    message: (op: string, label: string | null, caId: string | null, reason: string | undefined) =>
      `fs_snapshot ${op} denied by policy (label=${debugOption(label)}, ca_id=${debugOption(caId)})${reason === undefined ? '' : `: ${reason}`}`,
  }),
  FS_SNAPSHOT_POLICY_FAILED: spec({ status: 400, mcp: 'tool-error', message: (detail: string) => `fs_snapshot policy error: ${detail}` }),
  SESSION_FS_DENIED: spec({
    status: 403, mcp: 'tool-error',
    message: (operation: string, path: string, reason: string) => `fs.${operation} denied by policy: ${path} ${reason === 'not allowed' ? 'is not allowed' : `is not allowed: ${reason}`}`,
  }),
  SESSION_FS_POLICY_FAILED: spec({ status: 500, mcp: 'tool-error', message: (detail: string) => detail }),

  // ── artifacts ────────────────────────────────────────────────────────────
  ARTIFACT_NOT_FOUND: spec({ status: 404, mcp: 'tool-error', message: (key: string) => `artifact '${key}' not found` }),
  ARTIFACT_STORE_UNAVAILABLE: spec({ status: 500, mcp: 'none', message: () => 'artifact store unavailable' }),
  ARTIFACT_KEY_EMPTY: spec({ status: 400, mcp: 'tool-error', guest: 'TypeError', message: () => 'artifact key must be a non-empty string' }),
  ARTIFACT_KEY_TOO_LONG: spec({ status: 400, mcp: 'tool-error', guest: 'TypeError', message: (max: number) => `artifact key is longer than ${max} characters` }),
  ARTIFACT_KEY_INVALID: spec({
    status: 400, mcp: 'tool-error', guest: 'TypeError',
    message: (key: string) => `invalid artifact key '${key}': use letters, digits, '.', '_' and '-', starting with a letter or digit`,
  }),
  MIME_EMPTY: spec({ status: 400, mcp: 'tool-error', guest: 'TypeError', message: () => 'mime type must be a non-empty string (e.g. "image/png")' }),
  MIME_TOO_LONG: spec({ status: 400, mcp: 'tool-error', guest: 'TypeError', message: (max: number) => `mime type is longer than ${max} characters` }),
  MIME_INVALID: spec({
    status: 400, mcp: 'tool-error', guest: 'TypeError',
    message: (mime: string) => `invalid mime type '${mime}': expected type/subtype with optional parameters (e.g. "text/csv; charset=utf-8")`,
  }),
  MIME_WILDCARD: spec({
    status: 400, mcp: 'tool-error', guest: 'TypeError',
    message: (mime: string) => `invalid mime type '${mime}': '*' is a wildcard, name the exact type (e.g. "image/png")`,
  }),
  /** A payload over the limit as the artifact rules see it (a script's `artifact()`, the service); REST answers with the route's code below. */
  ARTIFACT_PAYLOAD_TOO_LARGE: spec({
    status: 413, mcp: 'none', guest: 'RangeError',
    message: (limit: number, size?: number) => `artifact payload ${size === undefined ? '' : `of ${size} bytes `}exceeds the limit of ${limit} bytes (${limit / MIB} MiB)`,
  }),
  ARTIFACT_PAYLOAD_NOT_BYTES: spec({ status: 400, mcp: 'none', guest: 'TypeError', message: () => 'payload must be bytes' }),
  /** PUT /api/artifacts/{key}: the interface spec answers an oversized payload there with 400. */
  ARTIFACT_TOO_LARGE: spec({ status: 400, mcp: 'none', message: (limit: number) => `artifact payload is larger than the limit of ${limit} bytes (${limit / MIB} MiB)` }),
  /** PUT /api/artifact-uploads/{token}: 413. */
  UPLOAD_TOO_LARGE: spec({ status: 413, mcp: 'none', message: (limit: number) => `artifact payload is larger than the limit of ${limit} bytes (${limit / MIB} MiB)` }),
  UPLOAD_TOKEN_NOT_FOUND: spec({ status: 404, mcp: 'none', message: () => 'upload token not found: it is unknown, expired, already used, or an upload with it is in progress' }),
  UPLOAD_TTL_OUT_OF_RANGE: spec({ status: 400, mcp: 'tool-error', message: (got: unknown, max: number) => `expires_in_secs must be an integer from 1 to ${max}, got ${JSON.stringify(got)}` }),

  // ── upstream MCP servers (the script's `mcp` global; worker/ops/mcp/, supervisor/upstream-mcp/) ──
  // The reference's texts where it has them (mcp-v8 §7.1).
  MCP_SERVER_NOT_FOUND: spec({
    status: 404, mcp: 'none', guest: 'Error',
    message: (server: string, available: string) => `MCP server '${server}' not found. Available: ${available}`,
  }),
  MCP_SERVER_UNAVAILABLE: spec({
    status: 503, mcp: 'none', guest: 'Error',
    message: (server: string, why: string) => `MCP server '${server}' is not connected (${why}); runjs keeps reconnecting in the background, try again later`,
  }),
  /** An `oauth_browser` upstream waiting for the operator to log in (supervisor/upstream-mcp/oauth-browser.ts). */
  MCP_SERVER_NEEDS_AUTH: spec({
    status: 503, mcp: 'none', guest: 'Error',
    message: (server: string, url: string) => `MCP server '${server}' needs authorization: open ${url}`,
  }),
  MCP_CALL_FAILED: spec({
    status: 502, mcp: 'none', guest: 'Error',
    message: (server: string, tool: string, detail: string) => `mcp.callTool ${server}.${tool} failed: ${detail}`,
  }),
  MCP_ARGUMENTS_TOO_LARGE: spec({
    status: 413, mcp: 'none', guest: 'RangeError',
    message: (server: string, tool: string, size: number, limit: number) => `mcp.callTool ${server}.${tool}: the arguments are ${size} bytes of JSON, more than the limit of ${limit} bytes (${limit / MIB} MiB)`,
  }),
  MCP_RESULT_TOO_LARGE: spec({
    status: 502, mcp: 'none', guest: 'RangeError',
    message: (server: string, tool: string, size: number, limit: number) => `mcp.callTool ${server}.${tool}: the result is ${size} bytes of JSON, more than the limit of ${limit} bytes (${limit / MIB} MiB)`,
  }),

  // ── child processes (node:child_process, Deno.Command; worker/ops/subprocess/) ──
  // Guest codes: ERR_RUNJS_<key> (worker/ops/guest-errors.ts).
  SUBPROCESS_TOO_MANY: spec({
    status: 429, mcp: 'none', guest: 'Error',
    message: (max: number) => `subprocess: more than ${max} child processes of this execution are running at once; wait for earlier ones to exit`,
  }),
  SUBPROCESS_OUTPUT_LIMIT: spec({
    status: 413, mcp: 'none', guest: 'RangeError',
    message: (max: number) => `subprocess: the execution's child processes wrote more than ${max} bytes (${max / MIB} MiB) of output, the per-execution limit; the child was killed`,
  }),
  SUBPROCESS_STDIN_LIMIT: spec({
    status: 413, mcp: 'none', guest: 'RangeError',
    message: (max: number) => `subprocess: more than ${max} bytes written to the child's stdin are waiting for it to read them`,
  }),
  SUBPROCESS_SYNC: spec({
    status: 501, mcp: 'none', guest: 'Error',
    message: (name: string) => `${name} is not supported in runjs: a child process runs on the host while the script goes on; use the callback, promise or stream form`,
  }),
  SUBPROCESS_LOST: spec({ status: 410, mcp: 'none', guest: 'Error', message: () => 'runjs: this child process belongs to an earlier run or has closed' }),
  SUBPROCESS_CWD: spec({
    status: 400, mcp: 'none', guest: 'Error',
    message: (cwd: string) => `subprocess: the relative cwd ${JSON.stringify(cwd)} leaves the execution's working directory`,
  }),

  // ── HTTP/2 client sessions (node:http2; worker/ops/http2/) ─────────────────
  HTTP2_NOT_ENABLED: spec({
    status: 403, mcp: 'none', guest: 'Error',
    message: (origin: string) => `http2 is not enabled: start runjs with an "http2" section in --policies-json (the connection to ${origin} is refused)`,
  }),
  HTTP2_TOO_MANY_SESSIONS: spec({
    status: 429, mcp: 'none', guest: 'Error',
    message: (max: number) => `http2: more than ${max} HTTP/2 sessions of this execution are open at once; close earlier ones first`,
  }),
  HTTP2_TOO_MANY_STREAMS: spec({
    status: 429, mcp: 'none', guest: 'Error',
    message: (max: number) => `http2: more than ${max} HTTP/2 streams of this execution are open at once; finish earlier ones first`,
  }),
  HTTP2_RECEIVE_LIMIT: spec({
    status: 413, mcp: 'none', guest: 'RangeError',
    message: (max: number) => `http2: the execution received more than ${max} bytes from the network (the per-execution limit, shared with fetch response bodies)`,
  }),
  HTTP2_LOST: spec({ status: 410, mcp: 'none', guest: 'Error', message: () => 'runjs: this HTTP/2 session or stream belongs to an earlier run or has closed' }),
  HTTP2_SERVER_UNSUPPORTED: spec({
    status: 501, mcp: 'none', guest: 'Error',
    message: (name: string) => `http2.${name} is not supported in runjs: scripts are HTTP/2 clients only`,
  }),
  NET_UNSUPPORTED: spec({
    status: 501, mcp: 'none', guest: 'Error',
    message: (what: string) => `${what} is not supported in runjs: scripts have no raw sockets (a net or tls socket only carries an HTTP/2 session that http2.connect opens on the host)`,
  }),

  // ── request bodies (REST; the SSE transport's POST /message) ──────────────
  BODY_TOO_LARGE: spec({ status: 413, mcp: 'http', message: (limit: number) => `Request body is larger than the limit of ${limit} bytes (server option --max-request-body)` }),
  BODY_INCOMPLETE: spec({ status: 400, mcp: 'none', message: () => 'Request body ended before Content-Length bytes were received' }),
  BODY_STALLED: spec({ status: 400, mcp: 'none', message: (idleMs: number) => `Request body stalled: no data arrived for ${idleMs / 1000} seconds` }),
  BODY_NOT_UTF8: spec({ status: 400, mcp: 'none', message: () => 'Request body is not valid UTF-8: send the script source (or the JSON) encoded as UTF-8' }),
  EXEC_BODY_EMPTY: spec({
    status: 400, mcp: 'none',
    message: () => 'Request body is empty: send a JSON ExecRequest such as {"code": "1 + 1"}, or the script source with a Content-Type such as text/plain',
  }),
  TAGS_BODY_EMPTY: spec({ status: 400, mcp: 'none', message: () => 'Request body is empty: send a JSON object such as {"tags": {"name": "value"}}' }),
  INVALID_JSON: spec({ status: 400, mcp: 'http', message: (detail: string) => `Request body is not valid JSON: ${detail}` }),
  INVALID_EXEC_REQUEST: spec({ status: 400, mcp: 'none', message: (detail: string) => `Invalid ExecRequest: ${detail}` }),
  INVALID_BODY: spec({ status: 400, mcp: 'none', message: (detail: string) => `Invalid body: ${detail}` }),
  UNSUPPORTED_CONTENT_TYPE: spec({
    status: 415, mcp: 'none',
    message: (type: string) => `Unsupported Content-Type '${type}': send a JSON ExecRequest (application/json) or the script source as the raw body (e.g. text/plain or application/javascript)`,
  }),
  UNSUPPORTED_CHARSET: spec({ status: 415, mcp: 'none', message: (charset: string) => `Unsupported charset '${charset}': the body must be UTF-8` }),
  UNSUPPORTED_CONTENT_ENCODING: spec({ status: 415, mcp: 'none', message: (encoding: string) => `Unsupported Content-Encoding '${encoding}': send the body uncompressed` }),

  // ── query strings (REST) ─────────────────────────────────────────────────
  INVALID_QUERY: spec({ status: 400, mcp: 'none', message: (detail: string) => `Invalid query: ${detail}` }),
  QUERY_PARAMETER_UNKNOWN: spec({
    status: 400, mcp: 'none',
    message: (name: string, allowed: readonly string[]) => `Invalid query: unknown query parameter '${name}' (allowed: ${allowed.join(', ')})`,
  }),
  QUERY_PARAMETER_REPEATED: spec({ status: 400, mcp: 'none', message: (name: string) => `Invalid query: query parameter '${name}' was given more than once` }),
  QUERY_PARAMETER_NOT_AN_INTEGER: spec({
    status: 400, mcp: 'none',
    message: (name: string, raw: string) => `Invalid query: query parameter '${name}' must be a non-negative integer, got '${raw}'`,
  }),
  QUERY_PARAMETER_TOO_SMALL: spec({
    status: 400, mcp: 'none',
    message: (name: string, min: number, raw: string) => `Invalid query: query parameter '${name}' must be at least ${min}, got '${raw}'`,
  }),
  QUERY_PARAMETER_TOO_LARGE: spec({
    status: 400, mcp: 'none',
    message: (name: string, max: number, raw: string) => `Invalid query: query parameter '${name}' must be at most ${max}, got '${raw}'`,
  }),
  QUERY_PARAMETER_RAW_ONLY: spec({
    status: 400, mcp: 'none',
    message: (name: string) => `Invalid query: query parameter '${name}' applies only when the body is raw source; with a JSON body put "${name}" in the JSON object`,
  }),

  // ── routing and the server ───────────────────────────────────────────────
  NO_API_ROUTE: spec({ status: 404, mcp: 'none', message: (method: string, path: string) => `No API route ${method} ${path}` }),
  METHOD_NOT_ALLOWED: spec({
    status: 405, mcp: 'none',
    message: (method: string, path: string, allowed: readonly string[]) => `Method ${method} is not allowed on ${path} (allowed: ${allowed.join(', ')})`,
  }),
  MALFORMED_URL: spec({ status: 404, mcp: 'none', message: () => 'Malformed URL: a path segment is not valid percent-encoded UTF-8' }),
  /** Any path outside /api, the MCP endpoints and the OpenAPI document. */
  NO_ROUTE: spec({ status: 404, mcp: 'http', message: (method: string, path: string) => `Not found: ${method} ${path}` }),
  UNKNOWN_PLATFORM: spec({ status: 404, mcp: 'none', message: (platform: string, valid: readonly string[]) => `Unknown platform '${platform}'. Valid platforms: ${valid.join(', ')}` }),
  CLI_NOT_EMBEDDED: spec({ status: 404, mcp: 'none', message: (platform: string) => `CLI binary for '${platform}' is not embedded in this build` }),
  /** Anything else a route or endpoint throws: the detail goes to the server log, never to the caller. */
  INTERNAL: spec({ status: 500, mcp: 'http', message: () => 'internal error' }),

  // ── host and origin checks, JWT (every HTTP request but the OpenAPI document) ──
  HOST_MISSING: spec({ status: 403, mcp: 'http', message: () => 'Missing Host header' }),
  HOST_NOT_ALLOWED: spec({ status: 403, mcp: 'http', message: (host: string) => `Host '${host}' is not allowed (see --allowed-hosts)` }),
  ORIGIN_NOT_ALLOWED: spec({ status: 403, mcp: 'http', message: (origin: string) => `Origin '${origin}' is not allowed (see --allowed-origins)` }),
  TOKEN_MISSING: spec({ status: 401, mcp: 'http', message: () => 'Missing token: send "Authorization: Bearer <JWT>" or the raw JWT in an "agent-session" header' }),
  TOKEN_EXPIRED: spec({ status: 401, mcp: 'http', message: () => 'Token expired' }),
  TOKEN_NOT_YET_VALID: spec({ status: 401, mcp: 'http', message: () => 'Token is not valid yet (nbf)' }),
  TOKEN_NO_EXP: spec({ status: 401, mcp: 'http', message: () => 'Token has no exp (expiry) claim' }),
  TOKEN_UNKNOWN_KEY: spec({ status: 401, mcp: 'http', message: () => 'Token is signed with a key that is not in the key set' }),
  TOKEN_MALFORMED: spec({ status: 401, mcp: 'http', message: () => 'Invalid token: not a JWT (expected three base64url parts: header.payload.signature)' }),
  TOKEN_INVALID: spec({ status: 401, mcp: 'http', message: (detail: string) => `Invalid token: ${detail}` }),

  // ── MCP ──────────────────────────────────────────────────────────────────
  INVALID_ARGUMENTS: spec({ status: 400, mcp: 'tool-error', message: (tool: string, problems: string) => `Invalid arguments for ${tool}: ${problems}` }),
  UNKNOWN_TOOL: spec({ status: 400, mcp: 'invalid-params', message: (name: string) => `Unknown tool: ${name}` }),
  TOOL_NOT_TASK: spec({ status: 400, mcp: 'invalid-params', message: (name: string) => `Tool ${name} cannot run as a task` }),
  MCP_SESSION_NOT_FOUND: spec({ status: 404, mcp: 'http-json-rpc', jsonRpcCode: -32001, message: () => 'Session not found' }),
  MCP_SESSION_REQUIRED: spec({ status: 400, mcp: 'http-json-rpc', jsonRpcCode: -32000, message: () => 'Bad Request: Mcp-Session-Id header is required' }),
  MCP_TOO_MANY_SESSIONS: spec({
    status: 503, mcp: 'http-json-rpc', jsonRpcCode: -32000,
    message: (max: number) => `Too many open MCP sessions (at most ${max}): end unused ones with DELETE /mcp`,
  }),
  /** A malformed X-MCP-Session-Id on the Streamable HTTP endpoint (a JSON-RPC error body). */
  MCP_SESSION_HEADER_INVALID: spec({ status: 400, mcp: 'http-json-rpc', jsonRpcCode: -32600, message: (detail: string) => `Invalid Request: ${detail}` }),
  /** The same on the SSE endpoint (an `{"error"}` body). */
  SSE_SESSION_HEADER_INVALID: spec({ status: 400, mcp: 'http', message: (detail: string) => detail }),
  SSE_SESSION_ID_MISSING: spec({ status: 400, mcp: 'http', message: () => 'Missing sessionId query parameter: open GET /sse first and post to the endpoint it announces' }),
  SSE_STREAM_NOT_FOUND: spec({ status: 404, mcp: 'http', message: (sessionId: string) => `No open SSE stream for sessionId ${sessionId}: open GET /sse again` }),
} as const;

export type ErrorCode = keyof typeof ERRORS;
export type ErrorArgs<C extends ErrorCode> = Parameters<(typeof ERRORS)[C]['message']>;

/** The text of `code` with `args`, for the places that report an error without throwing it. */
export function errorMessage<C extends ErrorCode>(code: C, ...args: ErrorArgs<C>): string {
  return (ERRORS[code].message as (...a: ErrorArgs<C>) => string)(...args);
}

/** The one error class services, routes, tools and ops throw; its code decides status, MCP mapping and text. */
export class RunjsError<C extends ErrorCode = ErrorCode> extends Error {
  override readonly name = 'RunjsError';
  readonly code: C;
  readonly status: number;
  readonly mcp: McpMapping;
  readonly jsonRpcCode: number | undefined;
  readonly guest: GuestErrorName | undefined;

  constructor(code: C, ...args: ErrorArgs<C>) {
    super(errorMessage(code, ...args));
    const s = ERRORS[code];
    this.code = code;
    this.status = s.status;
    this.mcp = s.mcp;
    this.jsonRpcCode = s.jsonRpcCode;
    this.guest = s.guest;
  }

  /** Narrows to one code without comparing texts: `RunjsError.is(e, 'BODY_TOO_LARGE')`. */
  static is<C extends ErrorCode>(e: unknown, ...codes: readonly [C, ...C[]]): e is RunjsError<C> {
    return e instanceof RunjsError && (codes as readonly ErrorCode[]).includes(e.code);
  }
}

// ── outcome texts ──────────────────────────────────────────────────────────
// An execution's `error` when it fails, times out or is cancelled: never thrown at a caller, so no
// status or MCP mapping; REST and MCP show them as the execution's (or the stateless result's) `error`.

export const EXECUTION_ERRORS = {
  OUT_OF_MEMORY: 'Out of memory: V8 heap limit exceeded. Try increasing heap_memory_max_mb.',
  TIMED_OUT: 'Execution timed out: script exceeded the time limit. Try increasing execution_timeout_secs.',
  CANCELLED: 'Cancelled by user',
  POLLING_TIMEOUT: 'Execution did not complete within polling timeout',
  TYPESCRIPT_PREFIX: 'TypeScript parse error: ',
  SERVER_RESTARTED: 'Server restarted while the execution was running',
  SERVER_SHUT_DOWN: 'Server shut down while the execution was running',
  DEADLOCK: 'Top-level await can never settle: the script awaits a promise while no timer or host operation is pending',
  /** A worker's death (signal, exit, failed start). */
  WORKER_DIED: (detail: string) => `Worker process died during execution (${detail})`,
  /** A worker that broke the supervisor protocol (oversized or malformed messages) was stopped. */
  WORKER_PROTOCOL: (detail: string) => `Worker process was stopped: it broke the supervisor protocol (${detail})`,
  /** Something in runjs itself failed; the detail names what. */
  RUNJS_INTERNAL: (detail: string) => `runjs internal error: ${detail}`,
  // Heap persistence. The store's own failures never name its location (a directory, a bucket):
  // the caller sees these, the server log has the rest.
  HEAP_RESTORE_FAILED: (why: string) => `cannot restore heap: ${why}`,
  HEAP_NOT_STORED: (why: string) => `the run completed but its heap could not be stored: ${why}`,
  HEAP_NOT_FOUND: (key: string) => `heap ${key} was not found in the heap store; it was never stored there, or the store was changed or cleaned`,
  HEAP_CORRUPT: (key: string, detail: string) => `heap ${key} is corrupt and was not restored: ${detail}`,
  HEAP_STORE_UNAVAILABLE: 'blob store unavailable (the server log has the details)',
  HEAP_STORE_IO: 'blob store I/O error (the server log has the details)',
  HEAP_STORE_FAILED: 'heap store error (the server log has the details)',
  // Filesystem mounts (docs/filesystem.md, "Mounting a snapshot in a run").
  FS_MOUNT_FAILED: (why: string) => `cannot mount filesystem snapshot: ${why}`,
  FS_FLUSH_FAILED: (why: string) => `fs snapshot flush failed: ${why}`,
} as const;

export type ExecutionErrorCode = keyof typeof EXECUTION_ERRORS;
