// Execution resources (interface spec: "Resources and their fields"). Fields the spec marks
// "or null" may be null or absent, so they are not `required`; this server always sends them.
import { HEAP_MB_FLOOR, HEAP_MB_MIN, TIMEOUT_SECS } from '../execution-contract.ts';
import { ref, type JsonSchema } from './json-schema.ts';

const nullableString = (description: string): JsonSchema => ({ type: ['string', 'null'], description });
const timestamp = (description: string): JsonSchema => ({ type: 'string', format: 'date-time', description });
const int64 = (description: string): JsonSchema => ({ type: 'integer', format: 'int64', minimum: 0, description });

export const ExecutionStatus: JsonSchema = {
  type: 'string',
  enum: ['running', 'completed', 'failed', 'cancelled', 'timed_out'],
  description: '`running` from submission (also while queued for a worker) until a terminal status; terminal statuses never change.',
};

export const ExecRequest: JsonSchema = {
  type: 'object',
  description: 'Body of `POST /api/exec` in its JSON form. Unknown fields are rejected.',
  required: ['code'],
  // Reject typos (`timeout`, `heapMb`) instead of silently running with defaults.
  additionalProperties: false,
  properties: {
    code: { type: 'string', description: 'JavaScript or TypeScript source (ES module; top-level await allowed).' },
    heap: nullableString('Heap snapshot key (content hash) to restore first; empty or omitted starts a fresh isolate. Needs heap persistence (`--heap-store`), else 400.'),
    fs: nullableString('Filesystem snapshot to mount at /work: label name or 64-hex content-address id. Needs `--fs-store`, else 400.'),
    session: nullableString('Session identifier for tagging and the session log; empty means none.'),
    tags: {
      type: ['object', 'null'],
      additionalProperties: { type: 'string' },
      description: 'Tags attached to the resulting heap snapshot (string to string). Needs heap persistence when non-empty.',
    },
    // The request contract (shared/execution-contract.ts); the maximum heap is the server's
    // (--heap-memory-ceiling), so the service checks it, not this schema.
    heap_memory_max_mb: {
      type: ['integer', 'null'],
      minimum: HEAP_MB_MIN,
      description: `Engine heap cap for this execution in MB; values below ${HEAP_MB_FLOOR} are raised to ${HEAP_MB_FLOOR}; above the server maximum is 400. Default: \`--heap-memory-max\`.`,
    },
    execution_timeout_secs: {
      type: ['integer', 'null'],
      format: 'int64',
      minimum: TIMEOUT_SECS.min,
      maximum: TIMEOUT_SECS.max,
      description: `Wall-clock timeout for this execution, ${TIMEOUT_SECS.min} to ${TIMEOUT_SECS.max} seconds (outside is 400). Default: \`--execution-timeout\`.`,
    },
  },
};

export const ExecAccepted: JsonSchema = {
  type: 'object',
  required: ['execution_id'],
  properties: { execution_id: { type: 'string', description: 'Identifier (UUID) of the accepted execution.' } },
};

export const ExecutionInfo: JsonSchema = {
  type: 'object',
  required: ['execution_id', 'status', 'started_at', 'artifacts'],
  properties: {
    execution_id: { type: 'string', description: 'Identifier (UUID assigned at submission).' },
    status: ref('ExecutionStatus'),
    result: nullableString('When completed: the JSON of the awaited value of the last top-level expression statement, else of `export default`, else "" (also "" for undefined and functions). null otherwise.'),
    heap: nullableString('Heap snapshot key produced (heap persistence only); null otherwise and when the execution failed.'),
    fs: nullableString('Filesystem snapshot id produced when a mount was attached; null otherwise.'),
    error: nullableString('Error message when the status is failed, timed_out or cancelled; null otherwise.'),
    started_at: timestamp('When the execution was registered (RFC 3339, UTC).'),
    completed_at: { type: ['string', 'null'], format: 'date-time', description: 'When it reached a terminal status; null while running.' },
    artifacts: { type: 'array', items: ref('ArtifactMeta'), description: 'Artifacts the script emitted with `artifact(key, mime, bytes)`.' },
  },
};

export const ExecutionSummary: JsonSchema = {
  type: 'object',
  required: ['execution_id', 'status', 'started_at'],
  properties: {
    execution_id: { type: 'string' },
    status: ref('ExecutionStatus'),
    started_at: timestamp('When the execution was registered.'),
    completed_at: { type: ['string', 'null'], format: 'date-time', description: 'null while running.' },
  },
};

export const ExecutionList: JsonSchema = {
  type: 'object',
  required: ['executions'],
  properties: {
    executions: {
      type: 'array',
      items: ref('ExecutionSummary'),
      description: 'Running executions and the most recent finished ones (`--execution-retention`), newest first.',
    },
  },
};

export const ExecutionOutput: JsonSchema = {
  type: 'object',
  description: 'One page of console output. Every cursor field is present in both modes. Lines and bytes are 0-based; ends are exclusive.',
  required: ['execution_id', 'data', 'start_line', 'end_line', 'next_line_offset', 'total_lines', 'start_byte', 'end_byte', 'next_byte_offset', 'total_bytes', 'has_more', 'status'],
  properties: {
    execution_id: { type: 'string' },
    data: { type: 'string', description: 'Exactly the output bytes [start_byte, end_byte) as text; line pages keep their trailing newlines.' },
    start_line: int64('First line of the page (0-based).'),
    end_line: int64('Line after the page (exclusive). In byte mode: the line holding end_byte.'),
    next_line_offset: int64('Value to pass as `line_offset` for the next page.'),
    total_lines: int64('Lines written so far (a final line without a newline counts once the run has ended).'),
    start_byte: int64('First byte of the page.'),
    end_byte: int64('Byte after the page (exclusive).'),
    next_byte_offset: int64('Value to pass as `byte_offset` for the next page.'),
    total_bytes: int64('Bytes written so far.'),
    has_more: { type: 'boolean', description: 'More output exists beyond this page now (a running execution may still add more).' },
    status: ref('ExecutionStatus', 'Execution status at query time.'),
  },
};

export const CancelResult: JsonSchema = {
  type: 'object',
  required: ['ok'],
  properties: {
    ok: { type: 'boolean' },
    error: nullableString('Why nothing was cancelled, when ok is false.'),
  },
};

export const PolicyDecisionStep: JsonSchema = {
  type: 'object',
  description: 'How one policy source or hook answered.',
  required: ['stage', 'source', 'verdict', 'ms'],
  properties: {
    stage: { type: 'string', enum: ['pre', 'policy', 'stack', 'post'], description: '`pre`/`post` hook, the chain (`policy`), or a stacked chain (`stack`).' },
    source: { type: 'string', description: 'The source\'s configured URL.' },
    verdict: { type: 'string', enum: ['allow', 'deny', 'abstain', 'ask', 'error'], description: '`abstain`: a hook returned undefined (or no `allow`). `ask`: it wanted a human to confirm (a run cannot ask one, so the decision denied). `error` aborted the operation.' },
    reason: { type: 'string', description: 'The reason the source gave, or the error (redacted).' },
    rewrote: { type: 'boolean', description: 'A pre hook rewrote the input, or a post hook the output.' },
    prints: { type: 'array', items: { type: 'string' }, maxItems: 32, description: 'A Rego source\'s `print(…)` output for this decision (redacted).' },
    ms: { type: 'number', minimum: 0, description: 'Time the source took.' },
  },
};

export const PolicyDecision: JsonSchema = {
  type: 'object',
  description: 'One policy decision made during the execution.',
  required: ['seq', 'at', 'category', 'phase', 'configured', 'input', 'steps', 'verdict', 'ms'],
  properties: {
    seq: { type: 'integer', minimum: 1, description: '1-based position among the execution\'s decisions (dropped ones count).' },
    at: timestamp('When the decision started.'),
    category: { type: 'string', description: 'The operation category: fetch, websocket, http2, modules, filesystem, fs_snapshot, mcp_tools, subprocess or run_js_file.' },
    phase: { type: 'string', enum: ['decide', 'post'], description: '`decide` before the operation acted; `post` on its output.' },
    configured: { type: 'boolean', description: 'Whether the category has a policy configuration (if not, the operation\'s default decided).' },
    input: { description: 'Summary of the input (or, for `post`, the output) document: secrets redacted, long strings and arrays cut.' },
    steps: { type: 'array', items: ref('PolicyDecisionStep') },
    verdict: { type: 'string', enum: ['allow', 'deny', 'error'] },
    reason: { type: 'string', description: 'Why it was denied, or the error text.' },
    ms: { type: 'number', minimum: 0, description: 'Time the whole decision took.' },
  },
};

export const ExecutionDecisions: JsonSchema = {
  type: 'object',
  description: 'The execution\'s policy decision log. It is recorded when the run ends, so it is empty while the execution is running.',
  required: ['execution_id', 'status', 'decisions', 'dropped', 'egress'],
  properties: {
    execution_id: { type: 'string' },
    status: ref('ExecutionStatus', 'Execution status at query time.'),
    decisions: { type: 'array', items: ref('PolicyDecision'), description: 'In the order they were made; at most 1000 and 256 KiB of them.' },
    dropped: int64('Decisions made but not kept (beyond 1000 entries or 256 KiB per execution).'),
    egress: {
      type: 'object',
      description: 'The execution\'s network traffic per category (`fetch`, `websocket`), whatever the policies decided; `{}` when it made none.',
      additionalProperties: {
        type: 'object',
        required: ['requests', 'sent_bytes', 'received_bytes'],
        properties: {
          requests: int64('Requests made (fetch: every hop, redirects included; websocket: connections opened).'),
          sent_bytes: int64('Body bytes sent (request bodies, messages).'),
          received_bytes: int64('Body bytes received (response bodies, messages).'),
        },
      },
    },
  },
};
