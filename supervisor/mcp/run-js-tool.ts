// `run_js` in both modes. Stateful: submit and return the id at once. Stateless: submit, wait
// (at most 300 s) and return the output, reporting progress while waiting when the client asked
// for it. Both can also run as an MCP task (run-js-tasks.ts), which waits in the background.
import { z } from 'zod';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ExecRequest } from '../executions/execution-types.ts';
import { HEAP_MB_FLOOR, HEAP_MB_MIN, TIMEOUT_SECS, type ExecutionLimits } from '../../shared/execution-contract.ts';
import { defaultRunJsDescription, type McpMode } from './mcp-texts.ts';
import { defineTool, jsonResult, type ToolCallContext, type ToolDef } from './tool-kit.ts';
import { waitForRun, type RunOutcome } from './wait-for-run.ts';
import type { McpExecutionsApi } from './execution-tools.ts';
import type { McpArtifactsApi } from './artifact-tools.ts';
import { INLINE_BUDGET_BYTES } from './artifact-blocks.ts';
import { attachArtifacts } from './run-artifacts.ts';
import { RunjsError } from '../../shared/errors.ts';
import type { RunJsFileReader } from '../executions/run-js-file.ts';

export interface RunJsDeps {
  readonly executions: McpExecutionsApi;
  readonly mode: McpMode;
  readonly limits: ExecutionLimits;
  /** `--run-js-description`: replaces the whole description. */
  readonly description?: string | undefined;
  /** The MCP session name (X-MCP-Session-Id at initialize, else --session-id); stateful mode only. */
  readonly sessionName: () => string | undefined;
  /** The server has a heap store (stateful mode): the description explains heaps. */
  readonly heap?: boolean | undefined;
  /** Stateless results list (and inline) the artifacts the run emitted; absent: they do not. */
  readonly artifacts?: McpArtifactsApi | undefined;
  /** run_js `file` (stateful mode): reads code from a server file when the operator allows it. */
  readonly files?: RunJsFileReader | undefined;
}

const code = z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') }).describe('JavaScript or TypeScript source. The value of the last top-level expression becomes `result`.');

// The request contract (shared/execution-contract.ts) as zod: the same bounds as the REST schema
// and the service, with messages a model can act on.
function heapMb(limits: ExecutionLimits) {
  return z.int('must be an integer')
    .min(HEAP_MB_MIN, `must be at least ${HEAP_MB_MIN} (values below ${HEAP_MB_FLOOR} are raised to ${HEAP_MB_FLOOR})`)
    .max(limits.maxHeapMb, `must be at most ${limits.maxHeapMb}`)
    .nullable().optional()
    .describe(`Engine heap cap for this run in MB (default ${limits.defaultHeapMb}; values below ${HEAP_MB_FLOOR} are raised to ${HEAP_MB_FLOOR}).`);
}

const TIMEOUT_RANGE = `must be from ${TIMEOUT_SECS.min} to ${TIMEOUT_SECS.max} seconds`;

function timeoutSecs(limits: ExecutionLimits) {
  return z.int('must be an integer')
    .min(TIMEOUT_SECS.min, TIMEOUT_RANGE)
    .max(TIMEOUT_SECS.max, TIMEOUT_RANGE)
    .nullable().optional()
    .describe(`Wall-clock timeout in seconds, ${TIMEOUT_SECS.min}-${TIMEOUT_SECS.max} (default ${limits.defaultTimeoutSecs}).`);
}

const file = z.string('must be a string').min(1, 'must not be empty').max(4096, 'must be at most 4096 characters')
  .describe('Path of a file on the server whose contents are the code, instead of `code`. Only when the operator enabled it (--allow-run-js-file or a run_js_file policy).');

export function statefulRunJsInput(limits: ExecutionLimits) {
  return z.strictObject({
    // Not required here: `file` can stand in for it (submitStateful checks that exactly one is given).
    code: code.optional(),
    file: file.optional(),
    heap: z.string().nullable().optional().describe('Heap key to continue from: the `heap` of a completed execution (needs a heap store). Omitted or empty: a fresh start.'),
    heap_memory_max_mb: heapMb(limits),
    execution_timeout_secs: timeoutSecs(limits),
    tags: z.record(z.string(), z.string()).nullable().optional().describe('Tags (string values) for the heap this run produces; find it later with query_heaps_by_tags (needs a heap store).'),
    fs: z.string().nullable().optional().describe('Filesystem snapshot to mount at /work: label or 64-hex id (needs a filesystem store).'),
  });
}

export function statelessRunJsInput(limits: ExecutionLimits) {
  return z.strictObject({
    code,
    heap_memory_max_mb: heapMb(limits),
    execution_timeout_secs: timeoutSecs(limits),
  });
}

const status = z.enum(['running', 'completed', 'failed', 'cancelled', 'timed_out']);

/** Stateful: `{execution_id}`; as a task the final state is added. */
export const STATEFUL_RUN_JS_OUTPUT = z.object({
  execution_id: z.string(),
  status: status.optional().describe('Only in a task result: the terminal status.'),
  output: z.string().optional().describe('Only in a task result: all console output.'),
  error: z.string().optional().describe('Only in a task result that did not complete: why.'),
});

export const STATELESS_RUN_JS_OUTPUT = z.object({
  output: z.string().describe('All console output of the run.'),
  error: z.string().optional().describe('Present when the run failed, timed out, was cancelled, or did not finish within 300 s.'),
  artifacts: z.array(z.object({
    key: z.string(), mime_type: z.string(), size_bytes: z.int(),
    created_at: z.string(), execution_id: z.string().nullable(),
    inline: z.boolean().describe('The payload follows as an extra content block.'),
    url: z.string().describe('REST download URL.'),
    note: z.string().optional(),
  })).optional().describe(`Present when the run emitted artifacts. Payloads are appended as content blocks up to ${INLINE_BUDGET_BYTES} bytes in total.`),
});

type StatefulArgs = z.output<ReturnType<typeof statefulRunJsInput>>;
type StatelessArgs = z.output<ReturnType<typeof statelessRunJsInput>>;

export function toExecRequest(args: StatefulArgs | StatelessArgs, session: string | undefined): ExecRequest {
  // Stateless arguments never carry heap/tags/fs (their schema is strict), so these are null there.
  const stateful: Partial<StatefulArgs> = args;
  return {
    code: args.code ?? '',
    heapMemoryMaxMb: args.heap_memory_max_mb ?? null,
    executionTimeoutSecs: args.execution_timeout_secs ?? null,
    heap: stateful.heap ?? null,
    tags: stateful.tags ?? null,
    fs: stateful.fs ?? null,
    ...(session === undefined ? {} : { session }),
  };
}

/** The result of a run that was waited for: `{output}` or `{output, error}` (an error result). */
export function outcomeResult(outcome: RunOutcome, executionId?: string): CallToolResult {
  const body = executionId === undefined
    ? { output: outcome.output, ...(outcome.error === undefined ? {} : { error: outcome.error }) }
    : { execution_id: executionId, status: outcome.status, output: outcome.output, ...(outcome.error === undefined ? {} : { error: outcome.error }) };
  return jsonResult(body, outcome.error !== undefined);
}

async function runAndWait(deps: RunJsDeps, args: StatelessArgs, ctx: ToolCallContext): Promise<CallToolResult> {
  // A refused submission throws: mcp-server.ts maps it (tool-kit.ts toolFailure).
  const id = deps.executions.submit(toExecRequest(args, undefined));
  const { progressToken, signal } = ctx;
  const progress = (secs: number, message: string): void => {
    if (progressToken === undefined) return;
    ctx.progress({ progressToken, progress: secs, message })
      .catch(() => { /* the client went away; the wait ends with the request */ });
  };
  // One notification at once (the client learns the id and that progress will come), then one
  // every PROGRESS_INTERVAL_MS: clients that reset their timeout on progress keep waiting.
  progress(0, `Execution ${id} started`);
  const onTick = progressToken === undefined ? undefined : (secs: number): void => progress(secs, `Execution ${id} running for ${Math.round(secs)} s`);
  try {
    const result = outcomeResult(await waitForRun(deps.executions, id, { signal, onTick }));
    return deps.artifacts === undefined ? result : await attachArtifacts(result, deps.executions.get(id).artifacts, deps.artifacts);
  } catch (e) {
    // The client cancelled the call or disconnected: nobody can receive this run's result in
    // stateless mode, so stop it rather than let it hold a worker.
    if (signal.aborted) deps.executions.cancel(id);
    throw e;
  }
}

/**
 * A stateful submission: `code`, or the code of `file` (read under the server's switch or its
 * run_js_file policy, whose decisions join the execution's log). Exactly one of the two.
 */
async function submitStateful(deps: RunJsDeps, args: StatefulArgs): Promise<string> {
  const req = toExecRequest(args, deps.sessionName());
  if (args.file === undefined) {
    if (args.code === undefined) throw new RunjsError('INVALID_ARGUMENTS', 'run_js', 'code: is required');
    return deps.executions.submit(req);
  }
  if ((args.code ?? '').trim() !== '') throw new RunjsError('RUN_JS_CODE_AND_FILE');
  if (deps.files === undefined) throw new RunjsError('RUN_JS_FILE_DISABLED');
  const source = await deps.files.read(args.file);
  return deps.executions.submit({ ...req, code: source.code, ...(source.decisions ? { sourceDecisions: source.decisions } : {}) });
}

export function runJsTool(deps: RunJsDeps): ToolDef {
  const description = deps.description ?? defaultRunJsDescription(deps.mode, deps.limits, deps.heap === true, deps.artifacts?.tools === true);
  const annotations = { title: 'Run JavaScript', readOnlyHint: false, destructiveHint: false, openWorldHint: false };
  if (deps.mode === 'stateless') {
    return defineTool({
      name: 'run_js', title: 'Run JavaScript', description, annotations,
      input: statelessRunJsInput(deps.limits),
      task: { submit: (args) => deps.executions.submit(toExecRequest(args, undefined)), includeExecutionId: false },
      output: STATELESS_RUN_JS_OUTPUT,
      handle: (args, ctx) => runAndWait(deps, args, ctx),
    });
  }
  return defineTool({
    name: 'run_js', title: 'Run JavaScript', description, annotations,
    input: statefulRunJsInput(deps.limits),
    task: { submit: (args) => submitStateful(deps, args), includeExecutionId: true },
    output: STATEFUL_RUN_JS_OUTPUT,
    handle: async (args, ctx) => {
      const executionId = await submitStateful(deps, args);
      if (ctx.log !== undefined) logWhenDone(deps, executionId, ctx.log);
      return jsonResult({ execution_id: executionId });
    },
  });
}

/**
 * Tells the client that started a stateful run how it ended (`info` when completed, `notice` when
 * cancelled — someone asked for it —, `error` when it failed or timed out), so a client need not
 * poll to learn it; get_execution stays the way to read it.
 */
function logWhenDone(deps: RunJsDeps, executionId: string, log: NonNullable<ToolCallContext['log']>): void {
  deps.executions.wait(executionId).then((info) => {
    log(info.status === 'completed' ? 'info' : info.status === 'cancelled' ? 'notice' : 'error', 'runjs.executions', {
      execution_id: executionId,
      status: info.status,
      ...(info.error == null ? {} : { error: info.error }),
    });
  }, () => { /* the record is gone (pruned): nothing to tell */ });
}
