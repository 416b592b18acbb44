// GET /api/executions/{id}?wait_ms=N over a real server and real workers: the answer comes when
// the execution is terminal or when the wait elapses; bad values are 400s with exact texts; a
// client that goes away releases its wait.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ExecutionsApi } from '../../../supervisor/rest/index.ts';
import { call, eventually, serve, startHarness, TEST_VERSION, type Harness, type Served } from './rest-harness.ts';

let h: Harness;
/** A second router over the same service whose `wait` records the signals it was given. */
let spied: Served;
const waitSignals: AbortSignal[] = [];

before(async () => {
  h = await startHarness();
  const s = h.service;
  const executions: ExecutionsApi = {
    submit: (r) => s.submit(r), get: (id) => s.get(id), list: () => s.list(), cancel: (id) => s.cancel(id), output: (id, p) => s.output(id, p), decisions: (id) => s.decisions(id),
    wait: (id, signal) => { if (signal) waitSignals.push(signal); return s.wait(id, signal); },
  };
  spied = await serve({ executions, version: TEST_VERSION, maxRequestBody: 1024, capabilities: () => ({ filesystem: false, heap: false, sessions: false }) });
});
after(async () => { await spied.close(); await h.shutdown(); });

type Json = Record<string, unknown>;

async function submit(code: string): Promise<string> {
  const r = await call(h.base, 'POST', '/api/exec', { body: JSON.stringify({ code }), headers: { 'content-type': 'application/json' } });
  assert.equal(r.status, 202);
  return (r.body as { execution_id: string }).execution_id;
}

async function get(path: string): Promise<Json> {
  const r = await call(h.base, 'GET', path);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body as Json;
}

/** A run that never ends by itself (a pending timer far beyond any wait here). */
const FOREVER = 'await new Promise((r) => setTimeout(r, 600_000)); 1';

test('wait_ms answers with the terminal state in one request, the result included', async () => {
  const id = await submit('await new Promise((r) => setTimeout(r, 300)); console.log("done"); 6 * 7');
  const info = await get(`/api/executions/${id}?wait_ms=30000`);
  assert.deepEqual([info['execution_id'], info['status'], info['result'], info['error']], [id, 'completed', '42', null]);
  const failing = await submit('await null; throw new RangeError("late")');
  const failed = await get(`/api/executions/${failing}?wait_ms=30000`);
  assert.equal(failed['status'], 'failed');
  assert.match(String(failed['error']), /^Uncaught RangeError: late/);
});

test('an execution already terminal is answered at once; wait_ms=0 is a plain get', async () => {
  const id = await submit('"x".repeat(3)');
  await get(`/api/executions/${id}?wait_ms=30000`);
  const again = await get(`/api/executions/${id}?wait_ms=30000`);
  assert.deepEqual([again['status'], again['result']], ['completed', '"xxx"']);
  const plain = await get(`/api/executions/${id}?wait_ms=0`);
  assert.deepEqual(plain, again);
});

test('when the wait elapses first, the execution is returned still running; a cancel ends the next wait', async () => {
  const id = await submit(FOREVER);
  const info = await get(`/api/executions/${id}?wait_ms=200`);
  assert.deepEqual([info['status'], info['result'], info['completed_at'], info['error']], ['running', null, null, null]);
  const waiting = get(`/api/executions/${id}?wait_ms=30000`);
  await eventually('the long-poll to wait', async () => h.service.get(id), (i) => i.status === 'running');
  const cancel = await call(h.base, 'POST', `/api/executions/${id}/cancel`);
  assert.deepEqual(cancel.body, { ok: true });
  const ended = await waiting;
  assert.deepEqual([ended['status'], ended['error']], ['cancelled', 'Cancelled by user']);
});

test('a client that disconnects releases its wait; the execution runs on', async () => {
  const id = await submit(FOREVER);
  const before = waitSignals.length;
  const abort = new AbortController();
  const request = fetch(`${spied.base}/api/executions/${id}?wait_ms=30000`, { signal: abort.signal });
  await eventually('the server to start waiting', async () => waitSignals.length, (n) => n === before + 1);
  const signal = waitSignals[before]!;
  assert.equal(signal.aborted, false);
  abort.abort();
  await assert.rejects(request, { name: 'AbortError' });
  await eventually('the server to release the wait', async () => signal.aborted, (a) => a);
  assert.equal(h.service.get(id).status, 'running');
  assert.deepEqual(h.service.cancel(id), { ok: true });
});

test('400: wait_ms must be a single integer from 0 to 30000, and no other parameter is accepted', async () => {
  const id = await submit('1');
  await get(`/api/executions/${id}?wait_ms=30000`);
  const cases: [string, string][] = [
    ['wait_ms=30001', "Invalid query: query parameter 'wait_ms' must be at most 30000, got '30001'"],
    ['wait_ms=-1', "Invalid query: query parameter 'wait_ms' must be a non-negative integer, got '-1'"],
    ['wait_ms=1.5', "Invalid query: query parameter 'wait_ms' must be a non-negative integer, got '1.5'"],
    ['wait_ms=', "Invalid query: query parameter 'wait_ms' must be a non-negative integer, got ''"],
    ['wait_ms=1&wait_ms=2', "Invalid query: query parameter 'wait_ms' was given more than once"],
    ['wait=100', "Invalid query: unknown query parameter 'wait' (allowed: wait_ms)"],
  ];
  for (const [query, error] of cases) {
    const r = await call(h.base, 'GET', `/api/executions/${id}?${query}`);
    assert.deepEqual({ status: r.status, body: r.body }, { status: 400, body: { error } }, query);
  }
});

test('404 for an unknown id, before any waiting', async () => {
  const r = await call(h.base, 'GET', '/api/executions/no-such-id?wait_ms=30000');
  assert.deepEqual({ status: r.status, body: r.body }, { status: 404, body: { error: "Execution 'no-such-id' not found" } });
});
