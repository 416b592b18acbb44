// Task status notifications of the MCP 2026-07-28 tasks extension (SEP-2663): a client opts in
// with `subscriptions/listen` naming `notifications.taskIds`; the server acknowledges the ids it
// agreed to follow and then sends `notifications/tasks`, each carrying the whole DetailedTask
// (exactly what tasks/get would answer then, without `resultType`).
//
// SDK v2.4 serves subscriptions/listen itself but knows only its four change types: its filter
// schema drops `taskIds` and its event bus cannot carry a task. So the transports keep the SDK in
// charge of the request (its envelope, header and version checks, its acknowledgement of the
// other filter keys) and add the tasks part around it, with this module doing the tasks part the
// same way on Streamable HTTP (transports/task-listen-http.ts) and stdio (transports/stdio.ts).
import { MissingRequiredClientCapabilityError, SERVER_INFO_META_KEY, SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';
import { CLIENT_CAPABILITIES_META_KEY } from '@modelcontextprotocol/server';
import { TASKS_EXTENSION, type DetailedTaskView, type RunJsTaskStore2026 } from './run-js-tasks-2026.ts';

/** The extension's status notification (SEP-2663 renamed 2025-11-25's `notifications/tasks/status`). */
export const TASK_NOTIFICATION = 'notifications/tasks';
/** At most this many task ids per subscription (each is a listener on the store). */
export const MAX_TASK_IDS = 1000;

export type JsonRpcId = string | number;

export interface TaskListenRequest {
  readonly id: JsonRpcId;
  /** The ids asked for, deduplicated, in order. */
  readonly taskIds: readonly string[];
  /** Whether the request declared the tasks extension in its per-request capabilities. */
  readonly declaresTasks: boolean;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A `subscriptions/listen` request that asks for task notifications, or undefined for any other
 * message (those go to the SDK untouched). A `taskIds` that is not an array of strings is left to
 * the SDK too, which drops it as an unknown key.
 */
export function taskListenRequest(message: unknown): TaskListenRequest | undefined {
  if (!isRecord(message) || message['method'] !== 'subscriptions/listen') return undefined;
  const id = message['id'];
  if (typeof id !== 'string' && typeof id !== 'number') return undefined;
  const params = message['params'];
  const filter = isRecord(params) ? params['notifications'] : undefined;
  const ids = isRecord(filter) ? filter['taskIds'] : undefined;
  if (!Array.isArray(ids) || !ids.every((t) => typeof t === 'string')) return undefined;
  const meta = isRecord(params) ? params['_meta'] : undefined;
  const caps = isRecord(meta) ? meta[CLIENT_CAPABILITIES_META_KEY] : undefined;
  const extensions = isRecord(caps) ? caps['extensions'] : undefined;
  return { id, taskIds: [...new Set(ids as string[])].slice(0, MAX_TASK_IDS), declaresTasks: isRecord(extensions) && TASKS_EXTENSION in extensions };
}

/** The -32021 a listen for task ids gets without the extension declared (the extension's MUST). */
export function missingTasksCapability(id: JsonRpcId): { jsonrpc: '2.0'; id: JsonRpcId; error: { code: number; message: string; data: unknown } } {
  const e = new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } as never);
  return { jsonrpc: '2.0', id, error: { code: e.code, message: e.message, data: e.data } };
}

export interface Notification {
  readonly method: string;
  readonly params: Record<string, unknown>;
}

/** One task's state as its notification, stamped with the subscription it belongs to. */
export function taskNotification(task: DetailedTaskView, subscriptionId: JsonRpcId): Notification {
  return { method: TASK_NOTIFICATION, params: { ...task, _meta: { [SUBSCRIPTION_ID_META_KEY]: subscriptionId } } };
}

/** The acknowledgement's filter with the honored task ids added to what the SDK honored. */
export function withTaskIds(honored: unknown, taskIds: readonly string[]): Record<string, unknown> {
  return { ...(isRecord(honored) ? honored : {}), taskIds: [...taskIds] };
}

/** The empty listen result: the spec's graceful end of a subscription. */
export function listenEnd(subscriptionId: JsonRpcId, serverInfo: unknown): { jsonrpc: '2.0'; id: JsonRpcId; result: Record<string, unknown> } {
  return { jsonrpc: '2.0', id: subscriptionId, result: { resultType: 'complete', _meta: { [SUBSCRIPTION_ID_META_KEY]: subscriptionId, [SERVER_INFO_META_KEY]: serverInfo } } };
}

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

export interface TaskWatch {
  /** The ids followed: those the store knows (unknown and expired ids are not acknowledged). */
  readonly honored: readonly string[];
  /** Sends each honored task's current state, then every change; `onSettled` once all are terminal. */
  start(): void;
  close(): void;
}

/**
 * Follows `taskIds` in `store` for one subscription. The current state goes out at once, so a
 * client that subscribes after a change (the run was quick) still sees it; a task that is already
 * terminal is sent once. When every followed task is terminal nothing more can come, and
 * `onSettled` lets the transport end the subscription (if nothing else keeps it open).
 */
export function watchTasks(store: RunJsTaskStore2026, taskIds: readonly string[], subscriptionId: JsonRpcId,
  send: (n: Notification) => void, onSettled: () => void): TaskWatch {
  const honored = taskIds.filter((t) => store.get(t) !== undefined);
  const open = new Set(honored);
  let unsubscribe: (() => void) | undefined;
  let closed = false;
  const deliver = (task: DetailedTaskView): void => {
    if (closed || !open.has(task.taskId)) return;
    send(taskNotification(task, subscriptionId));
    if (TERMINAL.has(task.status)) open.delete(task.taskId);
    if (open.size === 0) {
      close();
      onSettled();
    }
  };
  const close = (): void => {
    closed = true;
    unsubscribe?.();
  };
  return {
    honored,
    start() {
      unsubscribe = store.onStatus(deliver);
      if (honored.length === 0) {
        close();
        onSettled();
        return;
      }
      for (const id of honored) {
        const task = store.get(id);
        if (task !== undefined) deliver(task);
      }
    },
    close,
  };
}
