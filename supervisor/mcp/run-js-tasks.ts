// `run_js` as an MCP task (the SDK's experimental tasks API, MCP 2025-11-25): tools/call with a
// `task` parameter returns a task at once; the run goes on in the background and its outcome
// becomes the task result (tasks/get, tasks/result, tasks/list, tasks/cancel are served by the
// SDK's Protocol over the store below). Offered on stdio and Streamable HTTP; the legacy SSE
// transport does not advertise the capability, and the SDK then refuses task requests itself.
//
// Task status follows the MCP rule for tool calls: a result with isError (the script failed,
// timed out or was cancelled) makes the task `failed`; its result stays readable via tasks/result.
import type { CallToolResult, CreateTaskResult, Request, RequestId, Result, Task } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js';
import type { CreateTaskOptions } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import type { RequestTaskStore } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { McpExecutionsApi } from './execution-tools.ts';
import { outcomeResult } from './run-js-tool.ts';
import { errorResult } from './tool-kit.ts';
import { waitForRun } from './wait-for-run.ts';
import { attachArtifacts } from './run-artifacts.ts';
import type { McpArtifactsApi } from './artifact-tools.ts';

/** How long a finished task's result is kept when the client does not ask (and at most): outputs can be large. */
export const DEFAULT_TASK_TTL_MS = 15 * 60_000;
export const MAX_TASK_TTL_MS = 60 * 60_000;
/** Suggested tasks/get interval: runs are often short. */
const POLL_INTERVAL_MS = 500;

/**
 * The SDK's in-memory store with two runjs rules: a bounded lifetime for every task (an
 * unbounded `ttl: null` would keep outputs forever), and `tasks/cancel` cancels the execution
 * behind the task, not just the task record.
 */
export class RunJsTaskStore extends InMemoryTaskStore {
  readonly #executions: McpExecutionsApi;
  readonly #executionOf = new Map<string, string>();

  constructor(executions: McpExecutionsApi) {
    super();
    this.#executions = executions;
  }

  override createTask(params: CreateTaskOptions, requestId: RequestId, request: Request, sessionId?: string): Promise<Task> {
    const ttl = Math.min(Math.max(1, params.ttl ?? DEFAULT_TASK_TTL_MS), MAX_TASK_TTL_MS);
    return super.createTask({ ...params, ttl, pollInterval: params.pollInterval ?? POLL_INTERVAL_MS }, requestId, request, sessionId);
  }

  bindExecution(taskId: string, executionId: string): void {
    this.#executionOf.set(taskId, executionId);
  }

  override async updateTaskStatus(taskId: string, status: Task['status'], statusMessage?: string, sessionId?: string): Promise<void> {
    await super.updateTaskStatus(taskId, status, statusMessage, sessionId);
    const executionId = this.#executionOf.get(taskId);
    if (status === 'cancelled' && executionId !== undefined) this.#executions.cancel(executionId);
  }

  override async storeTaskResult(taskId: string, status: 'completed' | 'failed', result: Result, sessionId?: string): Promise<void> {
    this.#executionOf.delete(taskId);
    await super.storeTaskResult(taskId, status, result, sessionId);
  }

  /** Drops every task and its timers (the MCP connection closed). */
  close(): void {
    this.cleanup();
    this.#executionOf.clear();
  }
}

export interface StartRunTaskInput {
  readonly store: RunJsTaskStore;
  readonly requestStore: RequestTaskStore;
  readonly requestedTtl: number | undefined;
  readonly executions: McpExecutionsApi;
  /** Submits the run; returns the execution id, or an error result when it was refused. */
  readonly submit: () => Promise<string | CallToolResult>;
  /** Stateful results name the execution; stateless ones are `{output, error?}` as without a task. */
  readonly includeExecutionId: boolean;
  /** Stateless results list and inline the run's artifacts, as without a task. */
  readonly artifacts?: McpArtifactsApi | undefined;
  readonly log: (line: string) => void;
}

/** Creates the task, starts the run, and settles the task when the run ends. */
export async function startRunTask(input: StartRunTaskInput): Promise<CreateTaskResult> {
  const { requestStore } = input;
  const task = await requestStore.createTask({ ttl: input.requestedTtl });
  const settle = (status: 'completed' | 'failed', result: CallToolResult): Promise<void> =>
    requestStore.storeTaskResult(task.taskId, status, result).catch((e: unknown) => {
      // Already terminal (the client cancelled the task first) or the connection is gone: nothing
      // to record and nobody to tell. Anything else is worth a log line.
      if (!/terminal|Not connected/.test(String(e))) input.log(`storing the result of task ${task.taskId} failed: ${String(e)}`);
    });
  const submitted = await input.submit();
  if (typeof submitted !== 'string') {
    await settle('failed', submitted);
    return { task: (await requestStore.getTask(task.taskId)) ?? task };
  }
  input.store.bindExecution(task.taskId, submitted);
  // The execution id in the status message: a client can follow the run's output meanwhile.
  await requestStore.updateTaskStatus(task.taskId, 'working', `execution_id ${submitted}`).catch(() => { /* finished or cancelled already */ });
  void waitForRun(input.executions, submitted)
    .then(async (outcome) => {
      const result = outcomeResult(outcome, input.includeExecutionId ? submitted : undefined);
      if (input.includeExecutionId || input.artifacts === undefined) return result;
      return attachArtifacts(result, input.executions.get(submitted).artifacts, input.artifacts);
    })
    .catch((e: unknown) => errorResult(`waiting for execution ${submitted} failed: ${String(e)}`))
    .then((result) => settle(result.isError === true ? 'failed' : 'completed', result));
  return { task: (await requestStore.getTask(task.taskId)) ?? task };
}
