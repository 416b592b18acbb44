// `subscriptions/listen` with `taskIds` on stdio (MCP 2026-07-28, tasks extension), around the
// SDK's serveStdio: the request still goes to the SDK, which checks its envelope and
// acknowledges the filter's other keys; its acknowledgement is then rewritten on the way out to
// name the task ids runjs follows, and `notifications/tasks` follow on stdout
// (task-subscriptions.ts). Once every followed task is terminal and the SDK honored nothing else,
// the subscription ends with the listen result, and the SDK is told to drop its (empty) half.
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { RunJsTaskStore2026 } from '../mcp/run-js-tasks-2026.ts';
import {
  listenEnd, missingTasksCapability, taskListenRequest, watchTasks, withTaskIds, type JsonRpcId, type TaskListenRequest, type TaskWatch,
} from '../mcp/task-subscriptions.ts';
import { SUBSCRIPTION_ID_META_KEY } from '@modelcontextprotocol/server';

export interface StdioTaskListenOptions {
  readonly tasks: RunJsTaskStore2026;
  readonly serverInfo: unknown;
  /** Writes a message to stdout. */
  readonly send: (message: JSONRPCMessage) => Promise<void>;
  /** Hands a message to the SDK as if the client had sent it. */
  readonly toSdk: (message: JSONRPCMessage) => void;
  readonly log: (line: string) => void;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class StdioTaskListen {
  readonly #opts: StdioTaskListenOptions;
  /** Listens the SDK has not acknowledged yet. */
  readonly #pending = new Map<JsonRpcId, TaskListenRequest>();
  readonly #watches = new Map<JsonRpcId, TaskWatch>();

  constructor(opts: StdioTaskListenOptions) {
    this.#opts = opts;
  }

  #send(message: unknown): void {
    this.#opts.send(message as JSONRPCMessage).catch((e: unknown) => this.#opts.log(`stdio task notification: ${String(e)}`));
  }

  /** An inbound message; true when answered here (it must not reach the SDK). */
  inbound(message: JSONRPCMessage): boolean {
    const listen = taskListenRequest(message);
    if (listen !== undefined) {
      if (!listen.declaresTasks) {
        this.#send(missingTasksCapability(listen.id));
        return true;
      }
      this.#pending.set(listen.id, listen);
      return false;
    }
    if ('method' in message && message.method === 'notifications/cancelled') {
      const id: unknown = message.params?.['requestId'];
      if ((typeof id === 'string' || typeof id === 'number') && this.#watches.has(id)) this.#drop(id);
    }
    return false;
  }

  /** An outbound message: what to send instead (the SDK's acknowledgement, with the task ids). */
  outbound(message: JSONRPCMessage): JSONRPCMessage {
    if ('id' in message && !('method' in message) && message.id !== undefined && this.#pending.has(message.id)) {
      this.#pending.delete(message.id); // the SDK refused the listen
      return message;
    }
    if (!('method' in message) || message.method !== 'notifications/subscriptions/acknowledged') return message;
    const params = message.params ?? {};
    const meta = params['_meta'];
    const id: unknown = isRecord(meta) ? meta[SUBSCRIPTION_ID_META_KEY] : undefined;
    const listen = typeof id === 'string' || typeof id === 'number' ? this.#pending.get(id) : undefined;
    if (listen === undefined) return message;
    this.#pending.delete(listen.id);
    const sdkHonored = isRecord(params['notifications']) ? params['notifications'] : {};
    const watch = watchTasks(this.#opts.tasks, listen.taskIds, listen.id, (n) => this.#send({ jsonrpc: '2.0', ...n }), () => {
      this.#watches.delete(listen.id);
      // The SDK honored other keys: the subscription stays for them.
      if (Object.keys(sdkHonored).length > 0) return;
      this.#send(listenEnd(listen.id, this.#opts.serverInfo));
      this.#opts.toSdk({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: listen.id } } as JSONRPCMessage);
    });
    this.#watches.set(listen.id, watch);
    // Notifications go out after the acknowledgement (the caller sends it first).
    queueMicrotask(() => watch.start());
    return { ...message, params: { ...params, notifications: withTaskIds(sdkHonored, watch.honored) } } as JSONRPCMessage;
  }

  #drop(id: JsonRpcId): void {
    this.#watches.get(id)?.close();
    this.#watches.delete(id);
  }

  close(): void {
    for (const id of [...this.#watches.keys()]) this.#drop(id);
    this.#pending.clear();
  }
}
