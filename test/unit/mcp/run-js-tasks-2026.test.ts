// The 2026 task store's rules that the end-to-end tests cannot reach without an approval hook:
// input_required tasks answered in parts through tasks/update, the answers reaching their owner
// once, cancel on a waiting task; and how an elicitation answer reads as an approval.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RunJsTaskStore2026 } from '../../../supervisor/mcp/run-js-tasks-2026.ts';
import { answerOf } from '../../../supervisor/mcp/approval.ts';
import type { McpExecutionsApi } from '../../../supervisor/mcp/execution-tools.ts';

/** The store touches the execution service only to cancel a bound run; these tasks bind none. */
const noExecutions = { cancel: () => { throw new Error('no execution is bound'); } } as unknown as McpExecutionsApi;

test('an input_required task waits for every pending answer; partial updates are acknowledged', () => {
  const store = new RunJsTaskStore2026(noExecutions, () => {});
  const got: Record<string, unknown>[] = [];
  const seen: string[] = [];
  store.onStatus((t) => seen.push(t.status));
  const task = store.create({ a: { method: 'elicitation/create' }, b: { method: 'elicitation/create' } }, (answers) => got.push(answers));
  assert.deepEqual([task.status, task.ttlMs, task.pollIntervalMs], ['input_required', 900_000, 500]);
  assert.equal(store.update(task.taskId, { a: { action: 'accept' }, stray: 1 }), true);
  assert.deepEqual([store.get(task.taskId)?.status, store.get(task.taskId)?.inputRequests], ['input_required', { b: { method: 'elicitation/create' } }]);
  assert.deepEqual(got, []);
  assert.equal(store.update(task.taskId, { b: { action: 'decline' } }), true);
  assert.deepEqual([store.get(task.taskId)?.status, store.get(task.taskId)?.inputRequests], ['working', undefined]);
  // Every answer, from both updates (not the stray key); the owner hears once.
  assert.deepEqual(got, [{ a: { action: 'accept' }, b: { action: 'decline' } }]);
  assert.equal(store.update(task.taskId, { b: { action: 'accept' } }), true);
  assert.equal(got.length, 1);
  store.settle(task.taskId, { result: { content: [{ type: 'text', text: 'done' }] } });
  assert.deepEqual(store.get(task.taskId)?.result, { content: [{ type: 'text', text: 'done' }] });
  assert.deepEqual(seen, ['working', 'completed']);
  assert.equal(store.update('nope', {}), false);
  store.close();
});

test('cancelling a task that waits for input drops its requests; a later outcome is ignored', () => {
  const store = new RunJsTaskStore2026(noExecutions, () => {});
  const task = store.create({ a: {} }, () => assert.fail('a cancelled task takes no answers'));
  assert.equal(store.cancel(task.taskId), true);
  assert.equal(store.update(task.taskId, { a: { action: 'accept' } }), true);
  store.settle(task.taskId, { error: { code: -32603, message: 'late' } });
  const got = store.get(task.taskId);
  assert.deepEqual([got?.status, got?.statusMessage, got?.inputRequests, got?.error], ['cancelled', 'Cancelled by the client', undefined, undefined]);
  assert.equal(store.cancel('nope'), false);
  store.close();
});

test('an approval is only an accepted approve: true', () => {
  assert.equal(answerOf({ action: 'accept', content: { approve: true } }), 'approved');
  assert.equal(answerOf({ action: 'accept', content: { approve: false } }), 'refused');
  assert.equal(answerOf({ action: 'accept', content: { approve: 'yes' } }), 'refused');
  assert.equal(answerOf({ action: 'accept' }), 'refused');
  assert.equal(answerOf({ action: 'decline' }), 'refused');
  assert.equal(answerOf({ action: 'cancel' }), 'refused');
  assert.equal(answerOf(undefined), 'missing');
  assert.equal(answerOf('accept'), 'missing');
});
