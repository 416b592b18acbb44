// docs/errors.md, rendered from the error registry (shared/errors.ts) so the reference cannot drift
// from what the server answers. The examples below give each message template its arguments:
// placeholders where a value is only interpolated, real values where the template computes with
// one. Their types are the templates' own, so a new code or a changed template fails `tsc` here
// until it has an example.
import { ERRORS, EXECUTION_ERRORS, type ErrorArgs, type ErrorCode, type ErrorSpec, type ExecutionErrorCode } from '../shared/errors.ts';
import { MAX_ARTIFACT_BYTES, MAX_KEY_LENGTH, MAX_MIME_LENGTH } from '../shared/artifact-rules.ts';
import { HEAP_MB_FLOOR, TIMEOUT_SECS } from '../shared/execution-contract.ts';

/** An argument as the docs show it: a `<placeholder>` where the template only interpolates the value. */
type Shown<T> = T extends string ? string : T extends number ? number | `<${string}>` : T;
type Example<A extends readonly unknown[]> = { readonly [K in keyof A]: Shown<A[K]> };

export const ERROR_EXAMPLES: { readonly [C in ErrorCode]: Example<ErrorArgs<C>> } = {
  EXECUTION_NOT_FOUND: ['<id>'],
  EXECUTION_NOT_RUNNING: ['<id>', '<status>'],
  QUEUE_FULL: ['<limit>'],
  TIMEOUT_OUT_OF_RANGE: [301, TIMEOUT_SECS.min, TIMEOUT_SECS.max],
  HEAP_OUT_OF_RANGE: [4096, HEAP_MB_FLOOR, '<max>'],
  HEAP_NOT_ENABLED: [],
  FS_NOT_ENABLED: [],
  RUN_JS_FILE_DISABLED: [],
  RUN_JS_CODE_AND_FILE: [],
  RUN_JS_FILE_UNREADABLE: ['/srv/scripts/missing.js', 'No such file or directory (os error 2)'],
  RUN_JS_FILE_DENIED: ['/srv/scripts/job.js', '<reason>'],
  RUN_JS_FILE_POLICY_FAILED: ['run_js_file policy failed: <source>: <detail>'],
  INVALID_HEAP_KEY: ['abc'],
  INVALID_TAGS: ['<detail>'],
  INVALID_SESSION: ['<detail>'],
  SESSIONS_NOT_ENABLED: [],
  NO_SESSION: [],
  FS_LABELS_NOT_ENABLED: [],
  FS_SNAPSHOTS_NOT_ENABLED: [],
  FS_INVALID_ID: ['<id>'],
  FS_INVALID_EXPECTED: ['<id>'],
  FS_INVALID_LABEL: ['<label>', 128],
  FS_INVALID_PATH: ['../etc/passwd', "'..' is not a name"],
  FS_MESSAGE_TOO_LONG: ['<bytes>', 4096],
  FS_UNKNOWN_LABEL: ['<label>'],
  SESSION_PATH_NOT_FOUND: ['/work/<path>'],
  SESSION_PATH_NOT_A_DIRECTORY: ['/work/<path>'],
  SESSION_PATH_NOT_A_FILE: ['/work/<path>'],
  SESSION_PATH_NOT_A_SYMLINK: ['/work/<path>'],
  SESSION_DIR_NOT_EMPTY: ['/work/<path>'],
  SESSION_FS_OP_INVALID: ["unknown operation 'chmod': expected mkdir, rename, exists, readlink or canonical"],
  FS_NOT_IN_REFLOG: ['<id>', '<label>'],
  FS_PUSH_NEEDS_LABEL: [],
  FS_INVALID_PREFER: ['<prefer>'],
  FS_MERGE_FAILED: ['<detail>'],
  FS_SNAPSHOT_NOT_FOUND: ['<id>'],
  FS_SNAPSHOT_CORRUPT: ['<key>', '<detail>'],
  FS_STORE_UNAVAILABLE: [],
  FS_GC_REFUSED: ['a collection is already running on this server'],
  FS_GC_INVALID: ['grace_secs must be an integer from 0 to 31536000, got -1'],
  FS_SNAPSHOT_DENIED: ['push', 'main', '<ca_id>', undefined],
  FS_SNAPSHOT_POLICY_FAILED: ['fs_snapshot policy failed: <source>: <detail>'],
  SESSION_FS_DENIED: ['writeFile', '/work/notes.md', 'not allowed'],
  SESSION_FS_POLICY_FAILED: ['filesystem policy failed: <source>: <detail>'],
  ARTIFACT_NOT_FOUND: ['<key>'],
  ARTIFACT_STORE_UNAVAILABLE: [],
  ARTIFACT_KEY_EMPTY: [],
  ARTIFACT_KEY_TOO_LONG: [MAX_KEY_LENGTH],
  ARTIFACT_KEY_INVALID: ['<key>'],
  MIME_EMPTY: [],
  MIME_TOO_LONG: [MAX_MIME_LENGTH],
  MIME_INVALID: ['<mime>'],
  MIME_WILDCARD: ['<mime>'],
  ARTIFACT_PAYLOAD_TOO_LARGE: [MAX_ARTIFACT_BYTES, '<size>'],
  ARTIFACT_PAYLOAD_NOT_BYTES: [],
  ARTIFACT_TOO_LARGE: [MAX_ARTIFACT_BYTES],
  UPLOAD_TOO_LARGE: [MAX_ARTIFACT_BYTES],
  UPLOAD_TOKEN_NOT_FOUND: [],
  UPLOAD_TTL_OUT_OF_RANGE: [0, 86_400],
  MCP_SERVER_NOT_FOUND: ['<server>', '["<a>", "<b>"]'],
  MCP_SERVER_UNAVAILABLE: ['<server>', '<why>'],
  MCP_SERVER_NEEDS_AUTH: ['<server>', '<authorization URL>'],
  MCP_CALL_FAILED: ['<server>', '<tool>', '<detail>'],
  MCP_ARGUMENTS_TOO_LARGE: ['<server>', '<tool>', '<size>', 4194304],
  MCP_RESULT_TOO_LARGE: ['<server>', '<tool>', '<size>', 8388608],
  SUBPROCESS_TOO_MANY: [8],
  SUBPROCESS_OUTPUT_LIMIT: [16777216],
  SUBPROCESS_STDIN_LIMIT: [16777216],
  SUBPROCESS_SYNC: ['child_process.execSync'],
  SUBPROCESS_LOST: [],
  SUBPROCESS_CWD: ['<cwd>'],
  HTTP2_NOT_ENABLED: ['<origin>'],
  HTTP2_TOO_MANY_SESSIONS: [16],
  HTTP2_TOO_MANY_STREAMS: [64],
  HTTP2_RECEIVE_LIMIT: [67108864],
  HTTP2_LOST: [],
  HTTP2_SERVER_UNSUPPORTED: ['createServer'],
  NET_UNSUPPORTED: ['net.createServer'],
  BODY_TOO_LARGE: ['<limit>'],
  BODY_INCOMPLETE: [],
  BODY_STALLED: [30_000],
  BODY_NOT_UTF8: [],
  EXEC_BODY_EMPTY: [],
  TAGS_BODY_EMPTY: [],
  INVALID_JSON: ['<detail>'],
  INVALID_EXEC_REQUEST: ['<detail>'],
  INVALID_BODY: ['<detail>'],
  UNSUPPORTED_CONTENT_TYPE: ['<type>'],
  UNSUPPORTED_CHARSET: ['<charset>'],
  UNSUPPORTED_CONTENT_ENCODING: ['<encoding>'],
  INVALID_QUERY: ['<detail>'],
  QUERY_PARAMETER_UNKNOWN: ['<name>', ['<allowed>']],
  QUERY_PARAMETER_REPEATED: ['<name>'],
  QUERY_PARAMETER_NOT_AN_INTEGER: ['<name>', '<raw>'],
  QUERY_PARAMETER_TOO_SMALL: ['<name>', '<min>', '<raw>'],
  QUERY_PARAMETER_TOO_LARGE: ['<name>', '<max>', '<raw>'],
  QUERY_PARAMETER_RAW_ONLY: ['<name>'],
  NO_API_ROUTE: ['<METHOD>', '<path>'],
  METHOD_NOT_ALLOWED: ['<METHOD>', '<path>', ['<allowed>']],
  MALFORMED_URL: [],
  NO_ROUTE: ['<METHOD>', '<path>'],
  UNKNOWN_PLATFORM: ['<platform>', ['<platforms>']],
  CLI_NOT_EMBEDDED: ['<platform>'],
  INTERNAL: [],
  HOST_MISSING: [],
  HOST_NOT_ALLOWED: ['<host>'],
  ORIGIN_NOT_ALLOWED: ['<origin>'],
  TOKEN_MISSING: [],
  TOKEN_EXPIRED: [],
  TOKEN_NOT_YET_VALID: [],
  TOKEN_NO_EXP: [],
  TOKEN_UNKNOWN_KEY: [],
  TOKEN_MALFORMED: [],
  TOKEN_INVALID: ['<detail>'],
  INVALID_ARGUMENTS: ['<tool>', '<field>: <problem>; ...'],
  UNKNOWN_TOOL: ['<name>'],
  TOOL_NOT_TASK: ['<name>'],
  MCP_SESSION_NOT_FOUND: [],
  MCP_SESSION_REQUIRED: [],
  MCP_TOO_MANY_SESSIONS: ['<max>'],
  MCP_SESSION_HEADER_INVALID: ['<detail>'],
  SSE_SESSION_HEADER_INVALID: ['<detail>'],
  SSE_SESSION_ID_MISSING: [],
  SSE_STREAM_NOT_FOUND: ['<sessionId>'],
};

type TemplateCode = { [C in ExecutionErrorCode]: (typeof EXECUTION_ERRORS)[C] extends string ? never : C }[ExecutionErrorCode];

export const EXECUTION_ERROR_EXAMPLES: { readonly [C in TemplateCode]: Parameters<(typeof EXECUTION_ERRORS)[C]> } = {
  WORKER_DIED: ['<detail>'],
  WORKER_PROTOCOL: ['<detail>'],
  RUNJS_INTERNAL: ['<detail>'],
  HEAP_RESTORE_FAILED: ['<why>'],
  FS_MOUNT_FAILED: ['<why>'],
  FS_FLUSH_FAILED: ['<why>'],
  HEAP_NOT_STORED: ['<why>'],
  HEAP_NOT_FOUND: ['<key>'],
  HEAP_CORRUPT: ['<key>', '<detail>'],
};

/** The text of `code` with its example arguments. */
export function exampleMessage(code: ErrorCode): string {
  const spec = ERRORS[code] as ErrorSpec<readonly unknown[]>;
  return spec.message(...(ERROR_EXAMPLES[code] as readonly unknown[]));
}

export function exampleExecutionError(code: ExecutionErrorCode): string {
  const text: string | ((...args: readonly string[]) => string) = EXECUTION_ERRORS[code];
  return typeof text === 'string' ? text : text(...(EXECUTION_ERROR_EXAMPLES[code as TemplateCode] as readonly string[]));
}

/** A code span that survives backticks in the text; pipes escaped for a table cell. */
function code(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  const pad = text.includes('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`.replaceAll('|', '\\|');
}

function mcpCell(spec: ErrorSpec<readonly unknown[]>): string {
  switch (spec.mcp) {
    case 'tool-error': return 'error result';
    case 'invalid-params': return 'JSON-RPC -32602';
    case 'http': return `HTTP ${spec.status}`;
    case 'http-json-rpc': return `HTTP ${spec.status}, JSON-RPC ${spec.jsonRpcCode}`;
    case 'none': return '—';
  }
}

const INTRO = `<!-- Generated by \`node scripts/gen-error-docs.ts\` from shared/errors.ts; do not edit. -->
# Errors

Every error runjs answers a caller with has a stable code in one registry (\`shared/errors.ts\`),
which fixes its HTTP status, how it reaches an MCP client, and its text. Texts are exact;
\`<placeholders>\` stand for the values filled in.

- **REST** (and **HTTP** column): the status, with the body \`{"error": "<text>"}\` (ApiError). The
  one exception is a refused cancel, \`400 {"ok": false, "error": "<text>"}\` (CancelResult). Codes
  only MCP raises (\`INVALID_ARGUMENTS\`, \`UNKNOWN_TOOL\`, \`TOOL_NOT_TASK\`) have a status for their class only.
- **MCP** column:
  - *error result*: a \`tools/call\` result with \`isError: true\` and one text block \`{"error": "<text>"}\`
    (cancel_execution answers in its own shape, \`{"ok": false, "error": "<text>"}\`);
  - *JSON-RPC -32602*: a protocol error (an unknown tool, a task request for a tool without task support);
  - *HTTP …*: answered by the MCP HTTP endpoint itself, before MCP, with that status and
    \`{"error": "<text>"}\`, or a JSON-RPC error body where a JSON-RPC code is given;
  - *—*: never reaches an MCP client (REST routes, host operations).
- **Script**: errors a host operation can raise inside a script (\`artifact()\`, \`artifact.get()\`,
  \`mcp.callTool()\`) reach it as an exception of this class; artifact texts read
  \`artifact: <text>\` (a leading \`artifact \` becomes \`artifact: \`), the \`MCP_*\` texts as shown.
- Anything not in the table is an internal error: REST and the MCP HTTP endpoints answer
  \`500 {"error": "internal error"}\` and log the detail; an MCP tool call gets JSON-RPC -32603.
- Startup errors (bad flags, conflicting settings) stop the process with a message instead; they
  are listed in [configuration](configuration.md#startup-errors).
`;

export function renderErrorDocs(): string {
  const lines = [INTRO, '## Request errors', '', '| Code | HTTP | MCP | Script | Text |', '|---|---|---|---|---|'];
  for (const c of Object.keys(ERRORS) as ErrorCode[]) {
    const spec = ERRORS[c] as ErrorSpec<readonly unknown[]>;
    lines.push(`| \`${c}\` | ${spec.status} | ${mcpCell(spec)} | ${spec.guest ?? ''} | ${code(exampleMessage(c))} |`);
  }
  lines.push(
    '',
    '## Execution errors',
    '',
    'The `error` of an execution that failed, timed out or was cancelled (REST `ExecutionInfo.error`,',
    'MCP `get_execution`, the stateless `run_js` result). The first five are fixed by the interface spec.',
    '',
    '| Code | Text |',
    '|---|---|',
  );
  for (const c of Object.keys(EXECUTION_ERRORS) as ExecutionErrorCode[]) lines.push(`| \`${c}\` | ${code(exampleExecutionError(c))} |`);
  return `${lines.join('\n')}\n`;
}
