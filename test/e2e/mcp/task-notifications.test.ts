// Task status notifications with real SDK clients: MCP 2026-07-28 `notifications/tasks` on a
// `subscriptions/listen` stream naming `taskIds` (tasks extension, SEP-2663), over Streamable HTTP
// and stdio with the SDK v2 client; and the 2025-11-25 `notifications/tasks/status` an SDK v1
// client receives on its session.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import { CallToolResultSchema, CreateTaskResultSchema, TaskStatusNotificationSchema, type Task } from '@modelcontextprotocol/sdk/types.js';
import { MAIN, NODE, ROOT, startServer, type ServerProcess } from '../server/server-process.ts';
import { httpClient } from './mcp-clients.ts';

const TASKS = 'io.modelcontextprotocol/tasks';
const V = '2026-07-28';
const SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';
let server: ServerProcess;

before(async () => {
  server = await startServer([]);
});
after(async () => {
  await server?.stop();
});

type Note = { method: string; params: Record<string, unknown> };

/** An SDK v2 client declaring the tasks extension, collecting the notifications no handler claims. */
function modernClient(notes: Note[]): ModernClient {
  const client = new ModernClient({ name: 'runjs-e2e-2026', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: V } }, capabilities: { extensions: { [TASKS]: {} } } });
  client.fallbackNotificationHandler = async (n) => { notes.push(n as Note); };
  return client;
}

let rawIds = 0;

/**
 * run_js as a task, sent on the client's own transport: SDK v2.4's client cannot decode a
 * `resultType: "task"` answer to tools/call (it has no tasks extension), so this one exchange
 * bypasses its decoder; the subscription itself is the client's `listen()`.
 */
async function createTask(client: ModernClient, code: string): Promise<string> {
  const transport = client.transport!;
  const id = `raw-${++rawIds}`;
  const clientOwn = transport.onmessage!;
  const answer = new Promise<Record<string, unknown>>((resolve) => {
    transport.onmessage = (message, extra) => {
      if ('id' in message && message.id === id && !('method' in message)) resolve(message as unknown as Record<string, unknown>);
      else clientOwn(message, extra);
    };
  });
  await transport.send({
    jsonrpc: '2.0', id, method: 'tools/call', params: {
      name: 'run_js', arguments: { code },
      _meta: { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS]: {} } } },
    },
  });
  const result = (await answer)['result'] as Record<string, unknown>;
  transport.onmessage = clientOwn;
  assert.equal(result['resultType'], 'task');
  return result['taskId'] as string;
}

/** run_js as a task, subscribed to at once; resolves with the notifications once the stream ends. */
async function followTask(client: ModernClient, notes: Note[], code: string): Promise<{ taskId: string; cause: unknown; notes: Note[] }> {
  const taskId = await createTask(client, code);
  const sub = await client.listen({ taskIds: [taskId, 'no-such-task'] } as never);
  const cause = await sub.closed;
  return { taskId, cause, notes: notes.filter((n) => n.method === 'notifications/tasks') };
}

function assertCompleted(taskId: string, got: { cause: unknown; notes: Note[] }, output: string): void {
  // The stream ends by itself once the task is terminal: the listen result (a graceful close).
  assert.equal(got.cause, 'graceful');
  assert.ok(got.notes.length >= 1);
  // Each is stamped with the subscription: the SDK client's listen id.
  for (const n of got.notes) {
    assert.equal(n.params['taskId'], taskId);
    assert.match(String((n.params['_meta'] as Record<string, unknown>)[SUBSCRIPTION]), /^listen:\d+$/);
  }
  const last = got.notes.at(-1)!.params;
  assert.equal(last['status'], 'completed');
  const result = last['result'] as { structuredContent: Record<string, unknown> };
  const executionId = result.structuredContent['execution_id'] as string;
  assert.deepEqual(result.structuredContent, { execution_id: executionId, status: 'completed', output });
  assert.equal(last['statusMessage'], `execution_id ${executionId}`);
  // Every notification before the last is a non-terminal state of the same task.
  for (const n of got.notes.slice(0, -1)) assert.ok(['working', 'input_required'].includes(n.params['status'] as string));
}

test('2026 over Streamable HTTP: subscriptions/listen with taskIds streams notifications/tasks until the task is done', async () => {
  const notes: Note[] = [];
  const client = modernClient(notes);
  try {
    await client.connect(new ModernHttpTransport(new URL(`${server.base}/mcp`)));
    const got = await followTask(client, notes, 'await new Promise((r) => setTimeout(r, 500)); console.log("notified")');
    assertCompleted(got.taskId, got, 'notified\n');
  } finally {
    await client.close();
  }
});

test('2026: one listen for task ids and resource list changes carries both, and stays open for the resources', async () => {
  const notes: Note[] = [];
  const client = modernClient(notes);
  try {
    await client.connect(new ModernHttpTransport(new URL(`${server.base}/mcp`)));
    const taskId = await createTask(client, 'await new Promise((r) => setTimeout(r, 300)); await artifact("from-task.txt", "text/plain", "x")');
    const sub = await client.listen({ taskIds: [taskId], resourcesListChanged: true } as never);
    let cause: unknown;
    void sub.closed.then((c) => { cause = c; });
    const end = Date.now() + 30_000;
    const has = (method: string, status?: string) => notes.some((n) => n.method === method && (status === undefined || n.params['status'] === status));
    while (!(has('notifications/tasks', 'completed') && has('notifications/resources/list_changed')) && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
    assert.ok(has('notifications/tasks', 'completed'), 'the task completed on the stream');
    assert.ok(has('notifications/resources/list_changed'), 'the artifact changed the resource list on the same stream');
    // The task is done but resourcesListChanged keeps the subscription: only the client ends it.
    await sub.close();
    assert.equal(await sub.closed, 'local');
    assert.equal(cause, 'local');
  } finally {
    await client.close();
  }
});

/** A raw subscriptions/listen: the status and the SSE messages (or the JSON error). */
async function rawListen(filter: Record<string, unknown>, tasks: boolean): Promise<{ status: number; messages: Record<string, unknown>[] }> {
  const res = await fetch(`${server.base}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': V, 'Mcp-Method': 'subscriptions/listen' },
    body: JSON.stringify({
      jsonrpc: '2.0', id: 'listen-1', method: 'subscriptions/listen', params: {
        notifications: filter,
        _meta: { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': tasks ? { extensions: { [TASKS]: {} } } : {} },
      },
    }),
  });
  const text = await res.text();
  const messages = res.headers.get('content-type')?.startsWith('text/event-stream') === true
    ? text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>)
    : [JSON.parse(text) as Record<string, unknown>];
  return { status: res.status, messages };
}

test('the raw listen: the ack names only known task ids; a finished task is sent once and the stream ends; -32021 without the extension', async () => {
  const notes: Note[] = [];
  const client = modernClient(notes);
  let taskId: string;
  try {
    await client.connect(new ModernHttpTransport(new URL(`${server.base}/mcp`)));
    taskId = (await followTask(client, notes, '1')).taskId;
  } finally {
    await client.close();
  }
  const done = await rawListen({ taskIds: [taskId, 'nope', taskId] }, true);
  assert.equal(done.status, 200);
  assert.deepEqual(done.messages.map((m) => m['method'] ?? 'result'), ['notifications/subscriptions/acknowledged', 'notifications/tasks', 'result']);
  assert.deepEqual(done.messages[0]!['params'], { notifications: { taskIds: [taskId] }, _meta: { [SUBSCRIPTION]: 'listen-1' } });
  assert.equal((done.messages[1]!['params'] as Record<string, unknown>)['status'], 'completed');
  assert.deepEqual(done.messages[2], {
    jsonrpc: '2.0', id: 'listen-1', result: { resultType: 'complete', _meta: { [SUBSCRIPTION]: 'listen-1', 'io.modelcontextprotocol/serverInfo': (done.messages[2]!['result'] as { _meta: Record<string, unknown> })._meta['io.modelcontextprotocol/serverInfo'] } },
  });
  // Unknown ids only: acknowledged with none, and ended at once.
  const none = await rawListen({ taskIds: ['nope'] }, true);
  assert.deepEqual(none.messages.map((m) => m['method'] ?? 'result'), ['notifications/subscriptions/acknowledged', 'result']);
  assert.deepEqual((none.messages[0]!['params'] as Record<string, unknown>)['notifications'], { taskIds: [] });
  const refused = await rawListen({ taskIds: [taskId] }, false);
  assert.equal(refused.status, 400);
  assert.deepEqual((refused.messages[0] as { error: unknown }).error, {
    code: -32021, message: (refused.messages[0] as { error: { message: string } }).error.message, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
  });
  // A listen without taskIds is the SDK's own, as before (nothing honored: acknowledged and ended).
  const plain = await rawListen({ toolsListChanged: true }, false);
  assert.deepEqual(plain.messages.map((m) => m['method'] ?? 'result'), ['notifications/subscriptions/acknowledged', 'result']);
});

test('2026 over stdio: the same notifications on stdout', async () => {
  const notes: Note[] = [];
  const client = modernClient(notes);
  try {
    await client.connect(new ModernStdioTransport({
      command: NODE, args: [MAIN, '--max-concurrent-executions', '1', '--session-db-path', `${server.dbDir}/stdio`],
      env: { PATH: process.env['PATH'] ?? '' }, cwd: ROOT, stderr: 'ignore',
    }));
    const got = await followTask(client, notes, 'await new Promise((r) => setTimeout(r, 500)); console.log("over stdio")');
    assertCompleted(got.taskId, got, 'over stdio\n');
  } finally {
    await client.close();
  }
});

test('2025-11-25: a session gets notifications/tasks/status for its task (working with the execution, then terminal)', async () => {
  const client = await httpClient(server.base);
  const statuses: Task[] = [];
  client.setNotificationHandler(TaskStatusNotificationSchema, (n) => { statuses.push(n.params as Task); });
  try {
    const created = await client.request({ method: 'tools/call', params: { name: 'run_js', arguments: { code: 'console.log("v1")' }, task: {} } }, CreateTaskResultSchema);
    const taskId = created.task.taskId;
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    assert.deepEqual((result.structuredContent as Record<string, unknown>)['output'], 'v1\n');
    const until = Date.now() + 20_000;
    while (!statuses.some((s) => s.status === 'completed') && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    const mine = statuses.filter((s) => s.taskId === taskId);
    assert.deepEqual(mine.map((s) => s.status), ['working', 'completed']);
    assert.match(mine[0]!.statusMessage ?? '', /^execution_id [0-9a-f-]{36}$/);
  } finally {
    await client.close();
  }
});
