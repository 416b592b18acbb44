// run_js as an MCP task over Streamable HTTP (stateful mode): creation, status, result, failure,
// cancellation (which cancels the execution), TTL bounds, and tools that cannot be tasks.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, CreateTaskResultSchema, McpError, type Task } from '@modelcontextprotocol/sdk/types.js';
import { EXECUTION_ERRORS } from '../../../shared/errors.ts';
import { DEFAULT_TASK_TTL_MS, MAX_TASK_TTL_MS } from '../../../supervisor/mcp/run-js-tasks.ts';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { httpClient, ok, resultJson } from './mcp-clients.ts';

let server: ServerProcess;
let client: Client;

before(async () => {
  server = await startServer([]);
  client = await httpClient(server.base);
});
after(async () => {
  await client?.close();
  await server?.stop();
});

async function createTask(args: Record<string, unknown>, ttl?: number, name = 'run_js'): Promise<Task> {
  const created = await client.request({ method: 'tools/call', params: { name, arguments: args, task: ttl === undefined ? {} : { ttl } } }, CreateTaskResultSchema);
  return created.task;
}

async function finished(taskId: string): Promise<Task> {
  for (let i = 0; i < 400; i++) {
    const task = await client.experimental.tasks.getTask(taskId);
    if (['completed', 'failed', 'cancelled'].includes(task.status)) return task;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`task ${taskId} did not finish`);
}

const executionIdOf = (task: Task): string => /^execution_id ([0-9a-f-]{36})$/.exec(task.statusMessage ?? '')?.[1] ?? '';

test('a task runs the script; its result is {execution_id, status, output}', async () => {
  const messages = [];
  for await (const m of client.experimental.tasks.callToolStream({ name: 'run_js', arguments: { code: 'console.log("in a task")' } }, CallToolResultSchema, { task: { ttl: 60_000 } })) messages.push(m);
  assert.equal(messages[0]?.type, 'taskCreated');
  const created = (messages[0] as { task: Task }).task;
  assert.deepEqual([created.status, created.ttl, created.pollInterval], ['working', 60_000, 500]);
  const executionId = executionIdOf(created);
  assert.notEqual(executionId, '', `the status message names the execution: ${String(created.statusMessage)}`);
  const last = messages.at(-1) as { type: string; result: { structuredContent: unknown; isError?: boolean } };
  assert.equal(last.type, 'result');
  assert.deepEqual(last.result.structuredContent, { execution_id: executionId, status: 'completed', output: 'in a task\n' });
  assert.notEqual(last.result.isError, true);
  // The execution itself is an ordinary one.
  const info = ok(await client.callTool({ name: 'get_execution', arguments: { execution_id: executionId } }));
  assert.equal(info['status'], 'completed');
});

test('a failing script makes the task failed; tasks/result still returns the error result', async () => {
  const task = await createTask({ code: 'console.log("x"); throw new TypeError("bad")' });
  const done = await finished(task.taskId);
  assert.equal(done.status, 'failed');
  const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
  assert.equal(result.isError, true);
  const body = resultJson(result);
  assert.deepEqual([body['execution_id'], body['status'], body['output']], [executionIdOf(task), 'failed', 'x\n']);
  assert.match(String(body['error']), /^Uncaught TypeError: bad/);
});

test('invalid arguments and refused submissions give a failed task with the error', async () => {
  const bad = await createTask({ code: 5 });
  assert.equal((await finished(bad.taskId)).status, 'failed');
  assert.deepEqual(resultJson(await client.experimental.tasks.getTaskResult(bad.taskId, CallToolResultSchema)), { error: 'Invalid arguments for run_js: code: must be a string' });
  const refused = await createTask({ code: '1', heap: 'abc' });
  assert.equal((await finished(refused.taskId)).status, 'failed');
  assert.match(String(resultJson(await client.experimental.tasks.getTaskResult(refused.taskId, CallToolResultSchema))['error']), /^heap snapshots are not enabled/);
});

test('tasks/cancel cancels the execution behind the task', async () => {
  const task = await createTask({ code: 'await new Promise((r) => setTimeout(r, 20)); while (true) {}', execution_timeout_secs: 20 });
  const executionId = executionIdOf(task);
  await new Promise((r) => setTimeout(r, 100));
  const cancelled = await client.experimental.tasks.cancelTask(task.taskId);
  assert.equal(cancelled.status, 'cancelled');
  const info = ok(await client.callTool({ name: 'get_execution', arguments: { execution_id: executionId } }));
  assert.deepEqual([info['status'], info['error']], ['cancelled', EXECUTION_ERRORS.CANCELLED]);
  await assert.rejects(client.experimental.tasks.cancelTask(task.taskId), /terminal status/);
});

test('task lifetimes are bounded; tasks/list shows the tasks', async () => {
  assert.equal((await createTask({ code: '1' }, 10 * MAX_TASK_TTL_MS)).ttl, MAX_TASK_TTL_MS);
  assert.equal((await createTask({ code: '1' })).ttl, DEFAULT_TASK_TTL_MS, 'no ttl asked: the default');
  const short = await createTask({ code: '1' }, 1234);
  assert.equal(short.ttl, 1234);
  const { tasks } = await client.experimental.tasks.listTasks();
  assert.ok(tasks.length >= 1);
  const all = [...tasks];
  for (let cursor: string | undefined; ; ) {
    const page = await client.experimental.tasks.listTasks(cursor);
    if (cursor !== undefined) all.push(...page.tasks);
    cursor = page.nextCursor;
    if (cursor === undefined) break;
  }
  assert.ok(all.some((t) => t.taskId === short.taskId), 'the new task is listed');
});

test('only run_js can run as a task', async () => {
  await assert.rejects(createTask({ execution_id: 'x' }, 60_000, 'get_execution'),
    (e: unknown) => e instanceof McpError && e.code === -32602 && e.message.endsWith('Tool get_execution cannot run as a task'));
});
