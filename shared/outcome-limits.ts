// Caps on what a run sends back: a script can make its result or its error text as large as its
// heap allows (a 134M-character string crossed IPC and grew the supervisor by ~400 MB). Both are
// checked in the worker, before the outcome leaves it, and again by the supervisor's pool, which
// trusts no worker to have done so.
import type { Outcome } from './protocol.ts';

/** The largest `result` (UTF-8 bytes of its JSON); a larger one fails the run. */
export const MAX_RESULT_BYTES = 1024 * 1024;
/** The longest `error` text kept (characters); the rest is cut with a notice. */
export const MAX_ERROR_CHARS = 64 * 1024;

export function resultTooLargeError(bytes: number): string {
  return `Result too large: the script's result is ${bytes} bytes of JSON, more than the limit of ${MAX_RESULT_BYTES} bytes (1 MiB). Return a smaller value; print large data with console.log or store it with artifact().`;
}

function utf8Bytes(s: string): number {
  // Every UTF-16 unit is at most 3 UTF-8 bytes: most results are decided without counting.
  return s.length * 3 <= MAX_RESULT_BYTES ? s.length : Buffer.byteLength(s, 'utf8');
}

/** The longest truncation notice capOutcome appends (the count has at most 16 digits). */
const MAX_NOTICE_CHARS = 80;

/** The outcome as it may leave the worker. */
export function capOutcome(outcome: Outcome): Outcome {
  if (outcome.status === 'completed') {
    if (outcome.result.length * 3 <= MAX_RESULT_BYTES) return outcome;
    const bytes = utf8Bytes(outcome.result);
    return bytes <= MAX_RESULT_BYTES ? outcome : { status: 'failed', error: resultTooLargeError(bytes) };
  }
  if (outcome.error.length <= MAX_ERROR_CHARS) return outcome;
  const dropped = outcome.error.length - MAX_ERROR_CHARS;
  return { status: outcome.status, error: `${outcome.error.slice(0, MAX_ERROR_CHARS)}… [runjs] error text truncated: ${dropped} more characters` };
}

/**
 * The outcome as the supervisor accepts it from a worker: the same caps, where an error the
 * worker already cut (its text plus the notice) passes unchanged.
 */
export function capWorkerOutcome(outcome: Outcome): Outcome {
  if (outcome.status !== 'completed' && outcome.error.length <= MAX_ERROR_CHARS + MAX_NOTICE_CHARS) return outcome;
  return capOutcome(outcome);
}
