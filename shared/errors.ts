// One registry of the errors runjs reports: stable code → message → HTTP status.
// Texts fixed by the interface spec are pinned by test/unit/shared/errors.test.ts.

export const EXECUTION_ERRORS = {
  OUT_OF_MEMORY: 'Out of memory: V8 heap limit exceeded. Try increasing heap_memory_max_mb.',
  TIMED_OUT: 'Execution timed out: script exceeded the time limit. Try increasing execution_timeout_secs.',
  CANCELLED: 'Cancelled by user',
  POLLING_TIMEOUT: 'Execution did not complete within polling timeout',
  TYPESCRIPT_PREFIX: 'TypeScript parse error: ',
  SERVER_RESTARTED: 'Server restarted while the execution was running',
  DEADLOCK: 'Top-level await can never settle: the script awaits a promise while no timer or host operation is pending',
} as const;

/** The error a worker's death gives its execution. */
export function workerDiedError(detail: string): string {
  return `Worker process died during execution (${detail})`;
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
