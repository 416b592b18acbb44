// Waiting for an execution on behalf of a caller that wants the outcome, not an id: stateless
// `run_js` and `run_js` as an MCP task. The service's wait() resolves on the terminal status (no
// polling); a deadline bounds the wait, and a tick keeps long waits visible to the client.
import { EXECUTION_ERRORS } from '../../shared/errors.ts';
import type { ExecutionService } from '../executions/execution-service.ts';
import type { ExecutionStatus } from '../executions/execution-types.ts';

/** The spec's stateless bound: 6000 polls of 50 ms. */
export const WAIT_LIMIT_MS = 300_000;
/**
 * How often a waiting call reports progress. The contract is "at least every 10 s" (clients
 * commonly time a tool call out after 60 s without progress); half of that leaves room for a
 * busy event loop.
 */
export const PROGRESS_INTERVAL_MS = 5_000;

export type WaitingApi = Pick<ExecutionService, 'wait' | 'get' | 'output'>;

export interface RunOutcome {
  readonly status: ExecutionStatus;
  /** All console output captured (so far, when the wait gave up). */
  readonly output: string;
  /** Absent when the run completed. */
  readonly error?: string;
}

export interface WaitOptions {
  /** Aborting gives up waiting (the caller decides what happens to the run). */
  readonly signal?: AbortSignal;
  /** Called every PROGRESS_INTERVAL_MS while waiting, with the seconds waited so far. */
  readonly onTick?: (elapsedSecs: number) => void;
  readonly limitMs?: number;
}

/** Every byte of an execution's output, as text. */
export function fullOutput(executions: Pick<ExecutionService, 'output'>, id: string): string {
  return executions.output(id, { mode: 'byte', offset: 0, limit: Number.MAX_SAFE_INTEGER }).data;
}

/**
 * Resolves with the outcome once the run is terminal, or with the polling-timeout error (and the
 * output so far) after `limitMs`. Rejects only when `signal` aborts.
 */
export async function waitForRun(executions: WaitingApi, id: string, opts: WaitOptions = {}): Promise<RunOutcome> {
  const limitMs = opts.limitMs ?? WAIT_LIMIT_MS;
  const stop = new AbortController();
  const onAbort = (): void => stop.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const started = performance.now();
  const tick = opts.onTick === undefined ? undefined : setInterval(() => {
    opts.onTick?.(Math.round((performance.now() - started) / 100) / 10);
  }, PROGRESS_INTERVAL_MS);
  let deadline: NodeJS.Timeout | undefined;
  const expired = new Promise<'expired'>((resolve) => { deadline = setTimeout(() => resolve('expired'), limitMs); });
  try {
    if (opts.signal?.aborted) throw opts.signal.reason;
    const settled = await Promise.race([executions.wait(id, stop.signal), expired]);
    if (settled === 'expired') {
      return { status: executions.get(id).status, output: fullOutput(executions, id), error: EXECUTION_ERRORS.POLLING_TIMEOUT };
    }
    const output = fullOutput(executions, id);
    return settled.status === 'completed'
      ? { status: settled.status, output }
      : { status: settled.status, output, error: settled.error ?? settled.status };
  } finally {
    clearInterval(tick);
    clearTimeout(deadline);
    opts.signal?.removeEventListener('abort', onAbort);
    stop.abort();
  }
}
