// One registry of the errors runjs reports: stable code → message → HTTP status.
// Texts fixed by the interface spec are pinned by test/unit/shared/errors.test.ts.

export const EXECUTION_ERRORS = {
  OUT_OF_MEMORY: 'Out of memory: V8 heap limit exceeded. Try increasing heap_memory_max_mb.',
  TIMED_OUT: 'Execution timed out: script exceeded the time limit. Try increasing execution_timeout_secs.',
  CANCELLED: 'Cancelled by user',
  POLLING_TIMEOUT: 'Execution did not complete within polling timeout',
  TYPESCRIPT_PREFIX: 'TypeScript parse error: ',
  SERVER_RESTARTED: 'Server restarted while the execution was running',
  SERVER_SHUT_DOWN: 'Server shut down while the execution was running',
  DEADLOCK: 'Top-level await can never settle: the script awaits a promise while no timer or host operation is pending',
} as const;

/** The error a worker's death gives its execution. */
export function workerDiedError(detail: string): string {
  return `Worker process died during execution (${detail})`;
}

/** The error a worker that broke the supervisor protocol (oversized or malformed messages) gives its execution. */
export function workerProtocolError(detail: string): string {
  return `Worker process was stopped: it broke the supervisor protocol (${detail})`;
}

export interface ErrorSpec {
  readonly status: number;
  readonly message: string;
}

/** Errors surfaced by the service layer; `code` is stable, message templates take arguments. */
export const SERVICE_ERRORS = {
  EXECUTION_NOT_FOUND: (id: string): ErrorSpec => ({ status: 404, message: `Execution '${id}' not found` }),
  EXECUTION_NOT_RUNNING: (id: string, status: string): ErrorSpec => ({ status: 400, message: `Execution '${id}' is not running (status: ${status})` }),
  QUEUE_FULL: (limit: number): ErrorSpec => ({ status: 503, message: `Too many executions waiting: the queue holds at most ${limit} (see --max-queued-executions)` }),
  TIMEOUT_OUT_OF_RANGE: (v: unknown): ErrorSpec => ({ status: 400, message: `execution_timeout_secs must be an integer from 1 to 300, got ${JSON.stringify(v)}` }),
  HEAP_OUT_OF_RANGE: (v: unknown, max: number): ErrorSpec => ({ status: 400, message: `heap_memory_max_mb must be an integer from 8 to ${max} (smaller values are raised to 8), got ${JSON.stringify(v)}` }),
  HEAP_NOT_ENABLED: (): ErrorSpec => ({ status: 400, message: 'heap snapshots are not enabled on this server: start it with --heap-store dir or s3 to use `heap` and `tags`' }),
  FS_NOT_ENABLED: (): ErrorSpec => ({ status: 400, message: 'filesystem snapshots are not enabled on this server: start it with --fs-store dir or s3 to use `fs`' }),
  INVALID_HEAP_KEY: (v: unknown): ErrorSpec => ({ status: 400, message: `invalid heap key ${JSON.stringify(typeof v === 'string' && v.length > 80 ? `${v.slice(0, 80)}…` : v)}: expected a heap key as returned in \`heap\` (64 lowercase hex characters)` }),
  INVALID_TAGS: (detail: string): ErrorSpec => ({ status: 400, message: `invalid tags: ${detail}` }),
  INVALID_SESSION: (detail: string): ErrorSpec => ({ status: 400, message: `invalid session name: ${detail}` }),
  SESSIONS_NOT_ENABLED: (): ErrorSpec => ({ status: 400, message: 'sessions are not configured on this server: start it with --heap-store dir or s3 to keep a session log' }),
  NO_SESSION: (): ErrorSpec => ({ status: 400, message: 'no session: send the X-MCP-Session-Id header at initialize, start the server with --session-id, or name a session' }),
} as const;

/** An error with an HTTP status, thrown by services and mapped by transports. */
export class ServiceError extends Error {
  readonly status: number;
  constructor(spec: ErrorSpec) {
    super(spec.message);
    this.name = 'ServiceError';
    this.status = spec.status;
  }
}
