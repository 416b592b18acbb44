// `subscriptions/listen` with `taskIds` on Streamable HTTP (MCP 2026-07-28, tasks extension): a
// web handler in front of the SDK's (createMcpHandler). The SDK still receives the request and
// checks it (envelope, version, Mcp-Method header, the filter's other keys) — any error it
// answers goes back unchanged. When it accepts, its SSE stream is relayed with two changes: its
// acknowledgement names the task ids runjs follows, and `notifications/tasks` frames are merged
// in (task-subscriptions.ts). The stream ends with the listen result once every followed task is
// terminal and the SDK's part has ended too (it ends at once when no other key was honored), so a
// client is not left holding a stream that can carry nothing more.
import type { McpHandlerRequestOptions, McpHttpHandler } from '@modelcontextprotocol/server';
import type { RunJsTaskStore2026 } from '../mcp/run-js-tasks-2026.ts';
import { listenEnd, missingTasksCapability, taskListenRequest, watchTasks, withTaskIds, type Notification } from '../mcp/task-subscriptions.ts';

export interface TaskListenOptions {
  readonly tasks: RunJsTaskStore2026;
  readonly serverInfo: unknown;
  readonly keepAliveMs: number;
  readonly log: (line: string) => void;
}

export interface TaskListenHandler {
  fetch(request: Request, options?: McpHandlerRequestOptions): Promise<Response>;
  /** Ends every open task subscription gracefully (the endpoint closes). */
  closeAll(): void;
}

const SSE_HEADERS = { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' };

/** The JSON-RPC message of one SSE frame (`event: message\ndata: …`), or undefined for a comment. */
function frameMessage(frame: string): Record<string, unknown> | undefined {
  const data = frame.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n');
  if (data === '') return undefined;
  try {
    const parsed: unknown = JSON.parse(data);
    return typeof parsed === 'object' && parsed !== null ? parsed as Record<string, unknown> : undefined;
  } catch {
    return undefined;
  }
}

export function withTaskListen(inner: McpHttpHandler, opts: TaskListenOptions): TaskListenHandler {
  const open = new Set<() => void>();
  return {
    closeAll() {
      for (const end of [...open]) end();
    },
    async fetch(request, options) {
      const listen = taskListenRequest(options?.parsedBody);
      if (listen === undefined) return inner.fetch(request, options);
      const answer = await inner.fetch(request, options);
      if (answer.body === null || answer.headers.get('content-type')?.startsWith('text/event-stream') !== true) return answer;
      const sdk = answer.body.pipeThrough(new TextDecoderStream()).getReader();
      if (!listen.declaresTasks) {
        void sdk.cancel();
        return Response.json(missingTasksCapability(listen.id), { status: 400 });
      }

      const encoder = new TextEncoder();
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      let closed = false;
      let sdkEnded = false;
      let tasksSettled = false;
      let keepAlive: NodeJS.Timeout | undefined;
      const write = (message: unknown): void => {
        if (!closed) controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`));
      };
      const teardown = (graceful: boolean): void => {
        if (closed) return;
        if (graceful) write(listenEnd(listen.id, opts.serverInfo));
        closed = true;
        open.delete(end);
        clearInterval(keepAlive);
        watch.close();
        void sdk.cancel().catch(() => { /* already ended */ });
        try {
          controller.close();
        } catch { /* the client went away first */ }
      };
      const end = (): void => teardown(true);
      const maybeEnd = (): void => {
        if (sdkEnded && tasksSettled) end();
      };
      const watch = watchTasks(opts.tasks, listen.taskIds, listen.id, (n: Notification) => write({ jsonrpc: '2.0', ...n }), () => {
        tasksSettled = true;
        maybeEnd();
      });

      // Relays the SDK's frames: its acknowledgement with the task ids added, its change
      // notifications as they are; its listen result is held until the tasks are done too.
      const relay = async (): Promise<void> => {
        let buffered = '';
        let acknowledged = false;
        for (;;) {
          const { value, done } = await sdk.read();
          if (done) break;
          buffered += value;
          let cut: number;
          while ((cut = buffered.indexOf('\n\n')) >= 0) {
            const frame = buffered.slice(0, cut);
            buffered = buffered.slice(cut + 2);
            const message = frameMessage(frame);
            if (message === undefined) continue; // its keep-alive; ours runs instead
            if (!acknowledged && message['method'] === 'notifications/subscriptions/acknowledged') {
              acknowledged = true;
              const params = message['params'] as Record<string, unknown>;
              write({ ...message, params: { ...params, notifications: withTaskIds(params['notifications'], watch.honored) } });
              watch.start();
            } else if ('id' in message && message['id'] === listen.id) {
              sdkEnded = true;
              maybeEnd();
            } else {
              write(message);
            }
          }
        }
        // The SDK's stream ended without its result: an abrupt end, so ours ends the same way.
        if (!sdkEnded) teardown(false);
      };

      const body = new ReadableStream<Uint8Array>({
        start(c) {
          controller = c;
          open.add(end);
          keepAlive = setInterval(() => {
            if (!closed) controller.enqueue(encoder.encode(': keepalive\n\n'));
          }, opts.keepAliveMs);
          keepAlive.unref();
          void relay().catch((e: unknown) => {
            opts.log(`subscriptions/listen relay failed: ${String(e)}`);
            teardown(false);
          });
        },
        cancel() {
          teardown(false);
        },
      });
      request.signal.addEventListener('abort', () => teardown(false), { once: true });
      return new Response(body, { status: 200, headers: SSE_HEADERS });
    },
  };
}
