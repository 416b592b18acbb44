// The execution service over a real pool and a real SQLite file.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkerPool } from '../../../supervisor/pool/worker-pool.ts';
import { openMetadataDb } from '../../../supervisor/stores/metadata-db.ts';
import { ExecutionService, type ExecutionServiceOptions } from '../../../supervisor/executions/execution-service.ts';
import { EXECUTION_ERRORS, RunjsError } from '../../../shared/errors.ts';

let dir: string;
let pool: WorkerPool;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'runjs-exec-'));
  pool = new WorkerPool({ size: 2, maxQueued: 50, log: () => {} });
  await pool.ready();
});
after(async () => { await pool.close(); rmSync(dir, { recursive: true, force: true }); });

function service(sub: string, extra: Partial<ExecutionServiceOptions> = {}): ExecutionService {
  return new ExecutionService({
    db: openMetadataDb(join(dir, sub)), pool, limits: { defaultTimeoutSecs: 30, defaultHeapMb: 8, maxHeapMb: 4096 },
    maxOutputBytes: 1 << 20, retention: 1000, heapEnabled: false, fsEnabled: false, ...extra,
  });
}

test('submit → running at once → completed with result, output and timestamps', async () => {
  const s = service('a');
  const id = s.submit({ code: 'console.log("hello"); 40 + 2' });
  assert.match(id, /^[0-9a-f-]{36}$/);
  const early = s.get(id);
  assert.equal(early.status, 'running');
  assert.equal(early.completed_at, null);
  const info = await s.wait(id);
  assert.equal(info.status, 'completed');
  assert.equal(info.result, '42');
  assert.equal(info.error, null);
  assert.equal(info.heap, null);
  assert.deepEqual(info.artifacts, []);
  assert.ok(Date.parse(info.completed_at!) >= Date.parse(info.started_at));
  assert.equal(s.output(id, { mode: 'line', offset: 0, limit: 100 }).data, 'hello\n');
});

test('output can be read while the run goes on, and is persisted', async () => {
  const s = service('b');
  const id = s.submit({ code: 'console.log("one"); await new Promise((r) => setTimeout(r, 2000)); console.log("two")' });
  // Poll rather than sleep a fixed time: a loaded machine may take a while to start the run.
  let mid = s.output(id, { mode: 'line', offset: 0, limit: 10 });
  for (const until = Date.now() + 10_000; mid.data === '' && Date.now() < until;) {
    await new Promise((r) => setTimeout(r, 20));
    mid = s.output(id, { mode: 'line', offset: 0, limit: 10 });
  }
  assert.equal(mid.status, 'running');
  assert.equal(mid.data, 'one\n');
  await s.wait(id);
  // A second service over the same database file reads it from SQLite.
  const again = service('b');
  assert.equal(again.output(id, { mode: 'byte', offset: 0, limit: 4096 }).data, 'one\ntwo\n');
  assert.equal(again.get(id).status, 'completed');
});

test('unknown ids are 404 service errors', () => {
  const s = service('c');
  for (const call of [() => s.get('nope'), () => s.cancel('nope'), () => s.output('nope', { mode: 'line', offset: 0, limit: 1 })]) {
    assert.throws(call, (e: unknown) => e instanceof RunjsError && e.code === 'EXECUTION_NOT_FOUND' && e.status === 404 && e.message === "Execution 'nope' not found");
  }
});

test('cancel sets cancelled at once; cancelling again is ok:false with the reason', async () => {
  const s = service('d');
  const id = s.submit({ code: 'while (true) {}' });
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(s.cancel(id), { ok: true });
  const info = s.get(id);
  assert.equal(info.status, 'cancelled');
  assert.equal(info.error, EXECUTION_ERRORS.CANCELLED);
  assert.deepEqual(s.cancel(id), { ok: false, error: `Execution '${id}' is not running (status: cancelled)` });
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(s.get(id).status, 'cancelled', 'cancelled is final');
});

test('limits: timeout range is checked, small heaps are raised to 8, heap/fs need their stores', async () => {
  const s = service('e');
  for (const bad of [0, 301, 1.5]) {
    assert.throws(() => s.submit({ code: '1', executionTimeoutSecs: bad }), (e: unknown) => e instanceof RunjsError && e.code === 'TIMEOUT_OUT_OF_RANGE' && e.status === 400 && e.message === `execution_timeout_secs must be an integer from 1 to 300, got ${bad}`);
  }
  assert.throws(() => s.submit({ code: '1', heapMemoryMaxMb: 5000 }), (e: unknown) => e instanceof RunjsError && e.code === 'HEAP_OUT_OF_RANGE' && e.status === 400);
  assert.equal((await s.wait(s.submit({ code: '1', heapMemoryMaxMb: 1 }))).status, 'completed');
  assert.throws(() => s.submit({ code: '1', heap: 'abc' }), (e: unknown) => e instanceof RunjsError && e.code === 'HEAP_NOT_ENABLED' && e.message.startsWith('heap snapshots are not enabled'));
  assert.throws(() => s.submit({ code: '1', fs: 'main' }), (e: unknown) => e instanceof RunjsError && e.code === 'FS_NOT_ENABLED' && e.message.startsWith('filesystem snapshots are not enabled'));
  const timed = await s.wait(s.submit({ code: 'while (true) {}', executionTimeoutSecs: 1 }));
  assert.equal(timed.status, 'timed_out');
  assert.equal(timed.error, EXECUTION_ERRORS.TIMED_OUT);
});

test('list holds running and recent executions, newest first; retention prunes the oldest', async () => {
  const s = service('f', { retention: 2 });
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) { ids.push(s.submit({ code: `${i}` })); await s.wait(ids[i]!); }
  const running = s.submit({ code: 'await new Promise((r) => setTimeout(r, 300))' });
  const listed = s.list().map((e) => e.execution_id);
  assert.deepEqual(listed, [running, ids[3], ids[2]]);
  assert.throws(() => s.get(ids[0]!), RunjsError);
  await s.wait(running);
});

test('after a restart, executions that were running are failed with the restart reason', () => {
  const db = openMetadataDb(join(dir, 'g'));
  db.prepare("INSERT INTO executions (id, status, started_at) VALUES ('stale', 'running', '2026-01-01T00:00:00.000Z')").run();
  const s = service('g');
  const info = s.get('stale');
  assert.equal(info.status, 'failed');
  assert.equal(info.error, EXECUTION_ERRORS.SERVER_RESTARTED);
  assert.ok(info.completed_at);
});

test('a database that fails while an outcome is recorded is reported, not an unhandled rejection that would end the supervisor', async () => {
  const db = openMetadataDb(join(dir, 'closing'));
  const s = service('closing-unused', { db });
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown): void => { unhandled.push(e); };
  process.on('unhandledRejection', onUnhandled);
  try {
    s.submit({ code: 'await new Promise((ok) => setTimeout(ok, 300)); 1' });
    db.close(); // every later write throws
    await new Promise((ok) => setTimeout(ok, 1500));
    assert.deepEqual(unhandled, []);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});
