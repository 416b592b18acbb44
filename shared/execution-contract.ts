// The request contract of one execution, in one place: the ranges of `execution_timeout_secs` and
// `heap_memory_max_mb`, the heap floor, and how the operator's --heap-memory-ceiling bounds a call.
// The REST JSON Schema (shared/schemas/execution-schemas.ts), the MCP `run_js` zod schema
// (supervisor/mcp/run-js-tool.ts), the flag table and the texts agents read all take their numbers
// from here; the execution service applies `resolveExecutionLimits` to every submission.
import { RunjsError } from './errors.ts';

/** `execution_timeout_secs`: whole seconds, outside is a 400 (never clamped). */
export const TIMEOUT_SECS = { min: 1, max: 300 } as const;

/** `heap_memory_max_mb` below this is a 400 (the schemas check it). */
export const HEAP_MB_MIN = 1;
/** Smaller heap caps are accepted and raised to this: no engine runs a script in less. */
export const HEAP_MB_FLOOR = 8;
/**
 * The largest heap_memory_max_mb with a heap store (every run on QuickJS): a wasm32 memory
 * addresses at most 2 GiB through the engine's glue (MAX_PAGES in worker/engines/quickjs/wasm-vm.ts).
 */
export const QUICKJS_MAX_HEAP_MB = 2048;

/** What a server runs a call with when it names no limits, and the largest heap a call may ask for. */
export interface ExecutionLimits {
  /** `--execution-timeout`. */
  readonly defaultTimeoutSecs: number;
  /** `--heap-memory-max`. */
  readonly defaultHeapMb: number;
  /** The largest per-call `heap_memory_max_mb`: see `maxHeapMb`. */
  readonly maxHeapMb: number;
}

/** The largest per-call heap: the operator's --heap-memory-ceiling, and never more than QuickJS can address when runs go there. */
export function maxHeapMb(ceilingMb: number, heapStore: boolean): number {
  return heapStore ? Math.min(ceilingMb, QUICKJS_MAX_HEAP_MB) : ceilingMb;
}

/** The limits of one run, as the pool applies them. */
export interface RunLimits {
  readonly timeoutSecs: number;
  readonly heapMb: number;
}

/**
 * The limits a request runs with: its own, else the server's defaults. Throws RunjsError
 * TIMEOUT_OUT_OF_RANGE or HEAP_OUT_OF_RANGE (400). The lower bound of `heap_memory_max_mb` is the
 * schemas' to check (REST and MCP refuse values below HEAP_MB_MIN before a request gets here);
 * what only the server knows, its ceiling, is checked here.
 */
export function resolveExecutionLimits(
  req: { readonly executionTimeoutSecs?: number | null | undefined; readonly heapMemoryMaxMb?: number | null | undefined },
  limits: ExecutionLimits,
): RunLimits {
  const timeoutSecs = req.executionTimeoutSecs ?? limits.defaultTimeoutSecs;
  if (!Number.isInteger(timeoutSecs) || timeoutSecs < TIMEOUT_SECS.min || timeoutSecs > TIMEOUT_SECS.max) {
    throw new RunjsError('TIMEOUT_OUT_OF_RANGE', req.executionTimeoutSecs, TIMEOUT_SECS.min, TIMEOUT_SECS.max);
  }
  const heapMb = req.heapMemoryMaxMb ?? limits.defaultHeapMb;
  if (!Number.isInteger(heapMb) || heapMb > limits.maxHeapMb) {
    throw new RunjsError('HEAP_OUT_OF_RANGE', req.heapMemoryMaxMb, HEAP_MB_FLOOR, limits.maxHeapMb);
  }
  return { timeoutSecs, heapMb: Math.max(HEAP_MB_FLOOR, heapMb) };
}
