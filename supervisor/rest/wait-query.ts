// `wait_ms` of GET /api/executions/{id}: a long-poll. The answer comes as soon as the execution
// is terminal, or after `wait_ms` with whatever state it has then (still `running`); 0 (the
// default) answers at once. One request instead of a polling loop: no detection lag, and no
// polling load competing with the run for CPU.
import type { ExecutionInfo } from '../executions/execution-types.ts';
import { RunjsError } from '../../shared/errors.ts';
import { parseNonNegativeInt, singleValues } from './query-params.ts';
import type { ParameterDoc, RouteContext } from './route-types.ts';

export const MAX_WAIT_MS = 30_000;
const NAMES = ['wait_ms'] as const;

export const WAIT_QUERY_PARAMETERS: readonly ParameterDoc[] = [{
  name: 'wait_ms',
  in: 'query',
  description: `Long-poll: wait up to this many milliseconds (0–${MAX_WAIT_MS}) for the execution to reach a terminal status; `
    + 'the response comes as soon as it does, or when the wait elapses (the execution is then still `running`). 0 answers at once.',
  schema: { type: 'integer', format: 'int64', minimum: 0, maximum: MAX_WAIT_MS, default: 0 },
}];

/** The requested wait in ms; unknown, repeated, malformed or out-of-range parameters are a 400. */
export function parseWaitQuery(query: URLSearchParams): number {
  const raw = singleValues(query, NAMES).get('wait_ms');
  if (raw === undefined) return 0;
  const ms = parseNonNegativeInt('wait_ms', raw);
  if (ms > MAX_WAIT_MS) throw new RunjsError('QUERY_PARAMETER_TOO_LARGE', 'wait_ms', MAX_WAIT_MS, raw);
  return ms;
}

/**
 * The execution once terminal, or its state after `waitMs`, whichever comes first; the wait is
 * also released when the client goes away. An unknown id is a 404 before any waiting.
 */
export async function waitForExecution(ctx: RouteContext, id: string, waitMs: number): Promise<ExecutionInfo> {
  const executions = ctx.deps.executions;
  if (waitMs === 0) return executions.get(id);
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), waitMs);
  // The response closes when the client disconnects (or the server drops its connections).
  const res = ctx.req.res;
  const gone = (): void => stop.abort();
  res?.once('close', gone);
  try {
    return await executions.wait(id, stop.signal);
  } catch (e) {
    if (!stop.signal.aborted) throw e;
    return executions.get(id);
  } finally {
    clearTimeout(timer);
    res?.off('close', gone);
  }
}
