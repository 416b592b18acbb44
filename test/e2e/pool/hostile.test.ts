// Hostile scripts (issue 2 "Bad input"): each ends with the right status and text, and the pool
// keeps serving other executions meanwhile.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { PoolRunner } from '../../helpers/pool-runner.ts';
import { EXECUTION_ERRORS } from '../../../shared/errors.ts';

let r: PoolRunner;
before(async () => { r = new PoolRunner(2); await r.pool.ready(); });
after(() => r.close());

const OOM = { status: 'failed', error: EXECUTION_ERRORS.OUT_OF_MEMORY };
const TIMED_OUT = { status: 'timed_out', error: EXECUTION_ERRORS.TIMED_OUT };

test('memory flood of objects → out of memory', async () => {
  assert.deepEqual((await r.run('const a = []; while (true) a.push({ x: Math.random(), y: [1, 2, 3] })')).outcome, OOM);
});

test('memory flood of distinct strings → out of memory', async () => {
  assert.deepEqual((await r.run('const a = []; let i = 0; while (true) a.push("s".repeat(1000) + i++)')).outcome, OOM);
});

test('memory flood with new Array(n).fill → out of memory (the worker is replaced if needed)', async () => {
  assert.deepEqual((await r.run('const a = []; while (true) a.push(new Array(1000).fill(1))')).outcome, OOM);
  assert.deepEqual((await r.run('1')).outcome, { status: 'completed', result: '1' });
});

test('memory flood of ArrayBuffers, typed arrays and Buffers → out of memory', async () => {
  assert.deepEqual((await r.run('const a = []; while (true) a.push(new ArrayBuffer(1 << 20))')).outcome, OOM);
  assert.deepEqual((await r.run('const a = []; while (true) a.push(new Uint8Array(1 << 20))', { heapMemoryMaxMb: 64 })).outcome, OOM);
  assert.deepEqual((await r.run('const a = []; while (true) a.push(Buffer.alloc(1 << 20))', { heapMemoryMaxMb: 128 })).outcome, OOM);
});

test('an ArrayBuffer allocation failure the script catches is an ordinary RangeError', async () => {
  const code = 'const a = []; try { while (true) a.push(new ArrayBuffer(1 << 20)) } catch (e) { a.length = 0; console.log(e instanceof RangeError) }; 1';
  const res = await r.run(code);
  assert.deepEqual(res.outcome, { status: 'completed', result: '1' });
  assert.equal(res.output, 'true\n');
});

test('a memory exhaustion that makes isolated-vm abort the worker is reported as out of memory', async () => {
  // Printing a 100,000-deep object at 8 MB: V8's last-resort GC fails and isolated-vm aborts the
  // process (SIGABRT, `is_heap_oom = 1` on stderr); the pool recognises it and replaces the worker.
  // A pool of its own: on a worker whose recent runs used the platform parts, the realm starts
  // with them loaded (docs/network.md), and the same script then overflows the stack first
  // (a RangeError the console reports) instead of exhausting the heap.
  const own = new PoolRunner(1);
  try {
    await own.pool.ready();
    const code = 'let o = {}; const root = o; for (let i = 0; i < 100000; i++) { o.c = {}; o = o.c } console.log(root); 1';
    assert.deepEqual((await own.run(code, { timeoutMs: 20_000 })).outcome, OOM);
    assert.deepEqual((await own.run('1')).outcome, { status: 'completed', result: '1' });
  } finally {
    await own.close();
  }
});

test('a larger heap_memory_max_mb allows what 8 MB refuses', async () => {
  // ≈ 20 MB of objects: well past 8 MB whatever the realm's own baseline (booted from the
  // startup snapshot or, before the worker has built it, from source), well within 128 MB.
  const code = 'const a = []; for (let i = 0; i < 600000; i++) a.push({ i }); a.length';
  assert.deepEqual((await r.run(code)).outcome, OOM);
  assert.deepEqual((await r.run(code, { heapMemoryMaxMb: 128 })).outcome, { status: 'completed', result: '600000' });
});

test('infinite loop → timed out', async () => {
  const res = await r.run('while (true) {}', { timeoutMs: 300 });
  assert.deepEqual(res.outcome, TIMED_OUT);
});

test('infinite loop inside finally → timed out', async () => {
  assert.deepEqual((await r.run('try { while (true) {} } finally { while (true) {} }', { timeoutMs: 300 })).outcome, TIMED_OUT);
});

test('catastrophic regex → timed out', async () => {
  assert.deepEqual((await r.run('/(a+)+$/.test("a".repeat(40) + "b")', { timeoutMs: 300 })).outcome, TIMED_OUT);
});

test('deep recursion → guest RangeError', async () => {
  const { outcome } = await r.run('function f(n: number): number { return f(n + 1) + 1 }\nf(0)');
  assert.equal(outcome.status, 'failed');
  assert.ok('error' in outcome && outcome.error.startsWith('Uncaught RangeError: Maximum call stack size exceeded'));
});

test('recursion can be caught by the script', async () => {
  assert.deepEqual((await r.run('function f(): number { return f() }\nlet ok = false; try { f() } catch (e) { ok = e instanceof RangeError } ok')).outcome, { status: 'completed', result: 'true' });
});

test('thousands of timers', async () => {
  const res = await r.run('let n = 0; for (let i = 0; i < 5000; i++) setTimeout(() => n++, i % 7); await new Promise((ok) => setTimeout(ok, 30)); n');
  assert.deepEqual(res.outcome, { status: 'completed', result: '5000' });
});

test('a timer storm that never ends is timed out', async () => {
  const res = await r.run('function again() { setTimeout(again, 0); setTimeout(again, 0) } again()', { timeoutMs: 500 });
  assert.deepEqual(res.outcome, TIMED_OUT);
});

test('a hostile script does not stall another execution', async () => {
  const hog = r.run('while (true) {}', { timeoutMs: 2000 });
  const t0 = performance.now();
  const quick = await r.run('"fine"');
  assert.deepEqual(quick.outcome, { status: 'completed', result: '"fine"' });
  assert.ok(performance.now() - t0 < 1500, 'the other worker served it while the hog ran');
  assert.deepEqual((await hog).outcome, TIMED_OUT);
});

test('console flood is capped, not buffered without bound', async () => {
  const res = await r.run('while (true) console.log("x".repeat(1000))', { timeoutMs: 500, maxOutputBytes: 64 * 1024 });
  assert.deepEqual(res.outcome, TIMED_OUT);
  assert.ok(res.output.length <= 64 * 1024 + 200, `output ${res.output.length}`);
  assert.ok(res.output.endsWith('(--max-output-bytes)\n'));
});
