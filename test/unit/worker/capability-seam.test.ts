// The capability seam: op tables are built per worker from its settings, per-run state lives in
// RunResources and is released when the run ends, and delegated ops go out in the run's name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createOps, CAPABILITIES } from '../../../worker/ops/capabilities.ts';
import { RunResources, resourceKey } from '../../../worker/runtime/run-resources.ts';
import { SupervisorClient } from '../../../worker/runtime/supervisor-client.ts';
import { OpError } from '../../../worker/ops/op-types.ts';
import type { WorkerMessage } from '../../../shared/protocol.ts';
import { isSupervisorMessage } from '../../../shared/protocol.ts';
import { TEST_WORKER_SETTINGS } from '../../helpers/worker-settings.ts';

test('every capability contributes its ops; settings shape them (the artifact in-flight bound)', () => {
  const ops = createOps(TEST_WORKER_SETTINGS);
  assert.ok(Object.isFrozen(ops));
  for (const name of ['console.write', 'timers.sleep', 'run.settle', 'platform.part', 'artifacts.put', 'artifacts.get', 'intl.call']) assert.ok(ops[name], name);
  assert.ok(CAPABILITIES.length >= 14);
  // Two tables built from the same settings share no state (each factory has its own closure).
  assert.notEqual(createOps(TEST_WORKER_SETTINGS)['intl.call'], ops['intl.call']);
});

test('run resources are created on first use, released once at the end, and never kept after', () => {
  const released: string[] = [];
  const key = resourceKey('k', () => ({ n: 0 }), (v) => released.push(`n=${v.n}`));
  const r = new RunResources();
  assert.equal(r.has(key), false);
  r.get(key).n++;
  r.get(key).n++;
  assert.equal(r.get(key).n, 2);
  r.release();
  r.release();
  assert.deepEqual(released, ['n=2']);
  r.get(key).n = 5;
  assert.equal(r.get(key).n, 0, 'after release a fresh value is handed out and not kept');
});

test('a failing release is logged and does not keep the others from running', () => {
  const logs: string[] = [];
  const order: string[] = [];
  const bad = resourceKey('bad', () => 1, () => { order.push('bad'); throw new Error('boom'); });
  const good = resourceKey('good', () => 2, () => { order.push('good'); });
  const r = new RunResources();
  r.get(bad);
  r.get(good);
  r.release((l) => logs.push(l));
  assert.deepEqual(order, ['bad', 'good']);
  assert.deepEqual(logs, ['runjs: releasing bad failed: boom']);
});

test('the supervisor client names the run, settles by reqId with structured errors, and stops waiting when the run ends', async () => {
  const sent: WorkerMessage[] = [];
  const client = new SupervisorClient((m) => sent.push(m));
  const run = client.forRun('run-1');
  const ok = run.request('artifacts.get', { key: 'a' });
  const bad = run.request('artifacts.put', { key: 'b' });
  assert.deepEqual(sent, [
    { type: 'op-request', runId: 'run-1', reqId: 1, op: 'artifacts.get', args: { key: 'a' } },
    { type: 'op-request', runId: 'run-1', reqId: 2, op: 'artifacts.put', args: { key: 'b' } },
  ]);
  client.deliver({ type: 'op-response', reqId: 2, ok: false, error: { name: 'RangeError', message: 'too big', code: 'ERR_Y' } });
  client.deliver({ type: 'op-response', reqId: 1, ok: true, value: 42 });
  assert.equal(await ok, 42);
  await assert.rejects(bad, (e: unknown) => e instanceof OpError && e.guestName === 'RangeError' && e.message === 'too big' && e.code === 'ERR_Y');
  const ac = new AbortController();
  const ended = run.request('artifacts.get', {}, ac.signal);
  ac.abort();
  await assert.rejects(ended, { message: 'runjs: the run has ended' });
  client.deliver({ type: 'op-response', reqId: 3, ok: true, value: 'late' }); // dropped, no throw
});

test('init messages are narrowed: settings of the wrong shape are not accepted', () => {
  assert.equal(isSupervisorMessage({ type: 'init', settings: TEST_WORKER_SETTINGS }), true);
  assert.equal(isSupervisorMessage({ type: 'init', settings: { ...TEST_WORKER_SETTINGS, warmEngines: ['spidermonkey'] } }), false);
  assert.equal(isSupervisorMessage({ type: 'init', settings: { ...TEST_WORKER_SETTINGS, limits: {} } }), false);
  assert.equal(isSupervisorMessage({ type: 'op-response', reqId: 1, ok: false, error: 'a bare string' }), false);
});
