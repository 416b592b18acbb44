// `run_js` as a task of the MCP 2026-07-28 tasks extension (`io.modelcontextprotocol/tasks`,
// SEP-2663). The server decides: when a request declares the extension, run_js answers with a
// flat CreateTaskResult at once; `tasks/get` reports the status and, once terminal, inlines the
// tool result; `tasks/cancel` cancels the execution behind the task; `tasks/update` delivers the
// answers a task waits for (`input_required`: the approval hook asked a human, approval.ts).
//
// There are no sessions in 2026-07-28, so the store belongs to the endpoint (one per HTTP port,
// one per stdio process), not to a connection; task ids are random UUIDs, as unguessable as the
// 2025 store's. Status semantics differ from 2025-11-25 on purpose (the extension's rule): a run
// that failed, timed out or was cancelled by the script's limits is a *completed* task whose
// result has `isError: true`; `failed` is reserved for protocol errors (the wait itself broke).
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpExecutionsApi } from './execution-tools.ts';
import { DEFAULT_TASK_TTL_MS } from './run-js-tasks.ts';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** Suggested tasks/get interval: runs are often short. */
const POLL_INTERVAL_MS = 500;
/**
 * Tasks kept at most (each holds a run's whole result for its TTL). A full store creates no task:
 * run_js then answers as without the extension, which the extension allows (the server decides).
 */
export const MAX_TASKS = 10_000;

export type TaskStatus2026 = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
const TERMINAL: ReadonlySet<TaskStatus2026> = new Set(['completed', 'failed', 'cancelled']);

/** A JSON-RPC error object, inlined on a failed task. */
export interface TaskError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

interface TaskRecord {
  readonly taskId: string;
  status: TaskStatus2026;
  statusMessage: string | undefined;
  readonly createdAt: string;
  lastUpdatedAt: string;
  readonly ttlMs: number;
  result: CallToolResult | undefined;
  error: TaskError | undefined;
  executionId: string | undefined;
  /** Pending input requests by key (input_required). */
  inputRequests: Record<string, unknown> | undefined;
  /** Receives the answers of a task waiting for input. */
  onInput: ((responses: Record<string, unknown>) => void) | undefined;
  /** Answers gathered so far (a client may answer the pending requests one at a time). */
  answers: Record<string, unknown>;
  timer: NodeJS.Timeout | undefined;
}

/** The Task fields every tasks/* answer carries (flat, SEP-2663 wire names). */
export interface TaskView {
  readonly taskId: string;
  readonly status: TaskStatus2026;
  readonly statusMessage?: string;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
}

/** tasks/get: the task and, by status, its result, error or pending input requests. */
export interface DetailedTaskView extends TaskView {
  readonly result?: CallToolResult;
  readonly error?: TaskError;
  readonly inputRequests?: Record<string, unknown>;
}

export class RunJsTaskStore2026 {
  readonly #executions: McpExecutionsApi;
  readonly #tasks = new Map<string, TaskRecord>();
  readonly #log: (line: string) => void;
  readonly #listeners = new Set<(task: DetailedTaskView) => void>();

  constructor(executions: McpExecutionsApi, log: (line: string) => void) {
    this.#executions = executions;
    this.#log = log;
  }

  get size(): number {
    return this.#tasks.size;
  }

  get full(): boolean {
    return this.#tasks.size >= MAX_TASKS;
  }

  /** Status changes, for `notifications/tasks/status` (returns the unsubscribe). */
  onStatus(listener: (task: DetailedTaskView) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A new task, `working` (or `input_required` with `inputRequests`); durable when this returns. */
  create(inputRequests?: Record<string, unknown>, onInput?: (responses: Record<string, unknown>) => void): TaskView {
    const now = new Date().toISOString();
    const rec: TaskRecord = {
      taskId: randomUUID(), status: inputRequests === undefined ? 'working' : 'input_required', statusMessage: undefined,
      createdAt: now, lastUpdatedAt: now, ttlMs: DEFAULT_TASK_TTL_MS,
      result: undefined, error: undefined, executionId: undefined, inputRequests, onInput, answers: {}, timer: undefined,
    };
    this.#tasks.set(rec.taskId, rec);
    this.#arm(rec);
    return view(rec);
  }

  /** Binds the run behind a task: cancel reaches it, and the status message names it (clients can follow its output). */
  bindExecution(taskId: string, executionId: string): void {
    const rec = this.#tasks.get(taskId);
    if (rec === undefined || TERMINAL.has(rec.status)) return;
    rec.executionId = executionId;
    this.#set(rec, 'working', `execution_id ${executionId}`);
  }

  /** The terminal outcome: a tool result (completed, isError or not) or a protocol error (failed). */
  settle(taskId: string, outcome: { readonly result: CallToolResult } | { readonly error: TaskError }): void {
    const rec = this.#tasks.get(taskId);
    // Cancelled first (or expired): the outcome has nobody to go to.
    if (rec === undefined || TERMINAL.has(rec.status)) return;
    if ('result' in outcome) rec.result = outcome.result;
    else rec.error = outcome.error;
    this.#set(rec, 'result' in outcome ? 'completed' : 'failed', rec.statusMessage);
  }

  get(taskId: string): DetailedTaskView | undefined {
    const rec = this.#tasks.get(taskId);
    return rec === undefined ? undefined : detailed(rec);
  }

  /** Cancels the task and its execution; a terminal task stays as it is (the ack is the same). */
  cancel(taskId: string): boolean {
    const rec = this.#tasks.get(taskId);
    if (rec === undefined) return false;
    if (TERMINAL.has(rec.status)) return true;
    if (rec.executionId !== undefined) this.#executions.cancel(rec.executionId);
    rec.onInput = undefined;
    rec.inputRequests = undefined;
    this.#set(rec, 'cancelled', 'Cancelled by the client');
    return true;
  }

  /**
   * Answers some or all of a task's pending input requests. Answered keys leave `inputRequests`;
   * once none is pending the task goes back to `working` and its owner gets every answer, from
   * every update. Keys that are not pending are ignored.
   */
  update(taskId: string, responses: Record<string, unknown>): boolean {
    const rec = this.#tasks.get(taskId);
    if (rec === undefined) return false;
    if (rec.status !== 'input_required' || rec.inputRequests === undefined) return true;
    const pending = { ...rec.inputRequests };
    let answered = false;
    for (const [key, value] of Object.entries(responses)) {
      if (key in pending) {
        rec.answers[key] = value;
        delete pending[key];
        answered = true;
      }
    }
    if (!answered) return true;
    rec.inputRequests = Object.keys(pending).length > 0 ? pending : undefined;
    if (rec.inputRequests !== undefined) {
      this.#touch(rec);
      return true;
    }
    const onInput = rec.onInput;
    const answers = rec.answers;
    rec.onInput = undefined;
    rec.answers = {};
    this.#set(rec, 'working', undefined);
    onInput?.(answers);
    return true;
  }

  /** Drops every task and its timers (the endpoint closed). */
  close(): void {
    for (const rec of this.#tasks.values()) clearTimeout(rec.timer);
    this.#tasks.clear();
    this.#listeners.clear();
  }

  #set(rec: TaskRecord, status: TaskStatus2026, statusMessage: string | undefined): void {
    rec.status = status;
    rec.statusMessage = statusMessage;
    this.#touch(rec);
    const snapshot = detailed(rec);
    for (const listener of this.#listeners) {
      try {
        listener(snapshot);
      } catch (e) {
        this.#log(`a task status listener failed: ${String(e)}`);
      }
    }
  }

  #touch(rec: TaskRecord): void {
    rec.lastUpdatedAt = new Date().toISOString();
    this.#arm(rec);
  }

  /** A task lives ttlMs past its last change: never less than ttlMs from creation, as the extension requires. */
  #arm(rec: TaskRecord): void {
    clearTimeout(rec.timer);
    rec.timer = setTimeout(() => {
      // An expired task that still runs (the client never looked): stop its run too, and tell
      // subscribers it ended (their subscription then ends as for any terminal task).
      if (!TERMINAL.has(rec.status)) {
        if (rec.executionId !== undefined) this.#executions.cancel(rec.executionId);
        rec.onInput = undefined;
        rec.inputRequests = undefined;
        this.#set(rec, 'cancelled', 'Expired: no change within ttlMs');
        clearTimeout(rec.timer);
      }
      this.#tasks.delete(rec.taskId);
    }, rec.ttlMs);
    rec.timer.unref();
  }
}

function view(rec: TaskRecord): TaskView {
  return {
    taskId: rec.taskId, status: rec.status,
    ...(rec.statusMessage === undefined ? {} : { statusMessage: rec.statusMessage }),
    createdAt: rec.createdAt, lastUpdatedAt: rec.lastUpdatedAt, ttlMs: rec.ttlMs, pollIntervalMs: POLL_INTERVAL_MS,
  };
}

function detailed(rec: TaskRecord): DetailedTaskView {
  return {
    ...view(rec),
    ...(rec.status === 'completed' && rec.result !== undefined ? { result: rec.result } : {}),
    ...(rec.status === 'failed' && rec.error !== undefined ? { error: rec.error } : {}),
    ...(rec.status === 'input_required' && rec.inputRequests !== undefined ? { inputRequests: rec.inputRequests } : {}),
  };
}
