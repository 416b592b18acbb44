// Hostile scripts on the QuickJS engine, through real worker processes: each ends with the right
// status and text, the worker stops by itself (no kill, same process), and the next run in that
// worker is clean. Cancels reach a worker whose thread is blocked in guest code through the
// side channel (supervisor/pool/worker-process.ts → worker/runtime/cancel-channel.ts).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { PoolRunner, type RunResult } from '../../helpers/pool-runner.ts';
import { EXECUTION_ERRORS } from '../../../shared/errors.ts';

let r: PoolRunner;
before(async () => { r = new PoolRunner(1, 100, 1000); await r.pool.ready(); });
after(() => r.close());

const OOM = { status: 'failed', error: EXECUTION_ERRORS.OUT_OF_MEMORY };
const TIMED_OUT = { status: 'timed_out', error: EXECUTION_ERRORS.TIMED_OUT };
const q = { engine: 'quickjs' as const };

/** The worker is the same process as before, and a fresh run in it sees none of the hostile one. */
async function assertCleanAfter(pid: number | undefined): Promise<void> {
  const next: RunResult = await r.run('[typeof junk, typeof globalThis.a, Object.keys(globalThis).length > 0]', q);
  assert.deepEqual(next.outcome, { status: 'completed', result: '["undefined","undefined",true]' });
  assert.equal(r.pool.pids()[0], pid, 'the worker stopped by itself and was not replaced');
}

for (const [name, code] of [
  ['objects', 'globalThis.junk = []; while (true) junk.push({ x: Math.random(), y: [1, 2, 3] })'],
  ['distinct strings', 'globalThis.junk = []; let i = 0; while (true) junk.push("s".repeat(1000) + i++)'],
  ['new Array(n).fill', 'globalThis.junk = []; while (true) junk.push(new Array(1000).fill(1))'],
  ['ArrayBuffers', 'globalThis.junk = []; while (true) junk.push(new ArrayBuffer(1 << 20))'],
  ['Map entries', 'globalThis.junk = new Map(); let i = 0; while (true) junk.set(i, { i: i++ })'],
] as const) {
  test(`memory flood of ${name} → out of memory, and the worker's next run is clean`, async () => {
    const pid = r.pool.pids()[0];
    assert.deepEqual((await r.run(code, q)).outcome, OOM);
    await assertCleanAfter(pid);
  });
}

test('catching the out-of-memory error does not save the run', async () => {
  const res = await r.run('const a = []; try { while (true) a.push({ a: [1, 2, 3] }) } catch (e) { a.length = 0 } "survived"', q);
  assert.deepEqual(res.outcome, OOM);
});

test('a larger heap_memory_max_mb allows what 8 MB refuses', async () => {
  const code = 'const a = []; for (let i = 0; i < 300000; i++) a.push({ i }); a.length';
  assert.deepEqual((await r.run(code, q)).outcome, OOM);
  assert.deepEqual((await r.run(code, { ...q, heapMemoryMaxMb: 128 })).outcome, { status: 'completed', result: '300000' });
  assert.deepEqual((await r.run(code, q)).outcome, OOM, 'the default cap applies again');
});

for (const [name, code] of [
  ['infinite loop', 'globalThis.junk = 1; while (true) {}'],
  ['infinite loop inside finally', 'globalThis.junk = 1; try { while (true) {} } finally { while (true) {} }'],
  ['catastrophic regex', 'globalThis.junk = 1; /(a+)+$/.test("a".repeat(40) + "b")'],
  ['loop in an async callback', 'globalThis.junk = 1; setTimeout(() => { while (true) {} }, 0); await new Promise(() => setTimeout(() => {}, 60000))'],
] as const) {
  test(`${name} → timed out at the deadline, and the worker's next run is clean`, async () => {
    const pid = r.pool.pids()[0];
    const res = await r.run(code, { ...q, timeoutMs: 300 });
    assert.deepEqual(res.outcome, TIMED_OUT);
    // No wall-clock bound here (a loaded machine stretches it): without the interrupt the pool
    // would have to kill the worker, which assertCleanAfter catches by its pid.
    await assertCleanAfter(pid);
  });
}

// Every turn is one heavy native call: QuickJS's own interrupt check (every 10,000 calls and
// jumps) would come only after seconds to minutes — the pool would kill the worker first; the
// bridge polls the deadline before such calls. Inputs are kept small so a loaded machine passes too.
for (const [name, code] of [
  ['JSON.stringify of a large value', 'const o = []; for (let i = 0; i < 5e3; i++) o.push({ a: i, b: "x" + i }); while (true) JSON.stringify(o)'],
  ['JSON.parse of a large text', 'const s = JSON.stringify(Array.from({ length: 5e3 }, (_, i) => ({ a: i }))); while (true) JSON.parse(s)'],
  ['Array fill', 'const a = new Array(2e5); while (true) a.fill(1)'],
  ['Float64Array fill', 'const a = new Float64Array(2e5); while (true) a.fill(1)'],
  ['Array join', 'const a = new Array(1e5).fill("ab"); while (true) a.join(",")'],
  ['String indexOf', 'const s = "a".repeat(2e6); while (true) s.indexOf("b")'],
  ['Array includes', 'const a = new Array(2e5).fill(0); while (true) a.includes(1)'],
] as const) {
  test(`a loop of heavy native calls (${name}) → timed out by the worker itself, not killed`, async () => {
    const pid = r.pool.pids()[0];
    const res = await r.run(code, { ...q, timeoutMs: 300, heapMemoryMaxMb: 64 });
    assert.deepEqual(res.outcome, TIMED_OUT);
    await assertCleanAfter(pid);
  });
}

test('the heavy-call wrappers behave as the built-ins', async () => {
  const code = `[JSON.stringify(undefined), JSON.stringify({ a: [1] }, null, 1), JSON.parse("[1]", (k, v) => v), [1, 2, 1].indexOf(1, 1),
    [1, NaN].includes(NaN), [1, 2].join(), [1, 2].join(undefined), [0, 0, 0].fill(7, 1), "abc".indexOf("c"), "abc".includes("a", 1),
    new Uint8Array(3).fill(2, 1).join("-"), [].indexOf.length, [].fill.name, JSON.stringify.length, typeof new Array(5000).fill(0).indexOf(1)]`;
  const v8 = await r.run(code, { engine: 'v8' });
  assert.deepEqual((await r.run(code, q)).outcome, v8.outcome);
  assert.deepEqual(v8.outcome, { status: 'completed', result: '[null,"{\\n \\"a\\": [\\n  1\\n ]\\n}",[1],2,true,"1,2","1,2",[0,7,7],2,false,"0-2-2",1,"fill",3,"number"]' });
  const err = 'let r; try { Array.prototype.indexOf.call(null, 1) } catch (e) { r = e.constructor.name } r';
  assert.deepEqual((await r.run(err, q)).outcome, { status: 'completed', result: '"TypeError"' });
});

test('deep recursion → a guest RangeError, uncaught it fails the run with at most 10 frames', async () => {
  const { outcome } = await r.run('function f(n: number): number { return f(n + 1) + 1 }\nf(0)', q);
  assert.equal(outcome.status, 'failed');
  const error = (outcome as { error: string }).error;
  assert.match(error, /^Uncaught RangeError: stack overflow\n {4}at f \(file:\/\/\/main\.js:\d+:\d+\)\n/);
  assert.equal(error.split('\n').length, 11);
  assert.deepEqual((await r.run('function f(): number { return f() }\nlet ok = false; try { f() } catch (e) { ok = e instanceof RangeError } ok', q)).outcome,
    { status: 'completed', result: 'true' });
});

test('deeply nested JSON and source are catchable guest errors (the native stack is sized for them)', async () => {
  const pid = r.pool.pids()[0];
  for (const depth of [4e4, 1e5]) {
    const code = `let r; try { JSON.parse("[".repeat(${depth}) + "]".repeat(${depth})); r = "parsed" } catch (e) { r = String(e) } r`;
    assert.deepEqual((await r.run(code, q)).outcome, { status: 'completed', result: '"SyntaxError: stack overflow"' }, `depth ${depth}`);
  }
  const nested = 'let r; try { r = eval("(".repeat(3000) + "1" + ")".repeat(3000)) } catch (e) { r = String(e) } r';
  assert.deepEqual((await r.run(nested, q)).outcome, { status: 'completed', result: '1' });
  await assertCleanAfter(pid);
});

test('source nested past the native stack fails the run (documented limit); the worker survives', async () => {
  const pid = r.pool.pids()[0];
  const code = 'let r; try { r = eval("(".repeat(20000) + "1" + ")".repeat(20000)) } catch (e) { r = String(e) } r';
  assert.deepEqual((await r.run(code, q)).outcome, { status: 'failed', error: 'Uncaught RangeError: Maximum call stack size exceeded' });
  await assertCleanAfter(pid);
});

test('recursion through getters, toString and callbacks is also a guest error, not a crash', async () => {
  for (const code of [
    'const o = { get x(): number { return this.x } }; o.x',
    'const o = { toString(): string { return "" + o } }; String(o)',
    'function m(n: number): unknown { return [1].map(() => m(n + 1)) } m(0)',
    'function j(n: number): string { return JSON.stringify({ toJSON() { return j(n + 1) } }) } j(0)',
  ]) {
    const { outcome } = await r.run(code, q);
    assert.equal(outcome.status, 'failed', code);
    assert.match((outcome as { error: string }).error, /^Uncaught RangeError: stack overflow/, code);
  }
  assert.deepEqual((await r.run('"alive"', q)).outcome, { status: 'completed', result: '"alive"' });
});

test('cancel stops a spinning script through the side channel; the same worker serves the next run', async () => {
  const pid = r.pool.pids()[0];
  const { handle, result } = r.start('globalThis.junk = 1; while (true) {}', { ...q, timeoutMs: 30_000 });
  await new Promise((ok) => setTimeout(ok, 150));
  handle.cancel();
  assert.deepEqual((await result).outcome, { status: 'cancelled', error: EXECUTION_ERRORS.CANCELLED });
  // The pool frees the slot once the worker reports back; a trivial run then completes. Without
  // the side channel the cancel would wait behind the loop and the pool would kill the worker:
  // the same pid proves the interrupt path (its latency is engine.cancel_latency_ms, a benchmark).
  const next = await r.run('"next"', q);
  assert.deepEqual(next.outcome, { status: 'completed', result: '"next"' });
  assert.equal(r.pool.pids()[0], pid);
  await assertCleanAfter(pid);
});

test('console output streams while a QuickJS script blocks the worker in a long synchronous turn', async () => {
  let firstAt = Number.NaN;
  const t0 = performance.now();
  const { handle, result } = r.start('console.log("before the loop"); while (true) {}', { ...q, timeoutMs: 30_000 }, () => { firstAt ||= performance.now() - t0; });
  while (Number.isNaN(firstAt) && performance.now() - t0 < 3000) await new Promise((ok) => setTimeout(ok, 5));
  handle.cancel();
  const res = await result;
  assert.equal(res.output, 'before the loop\n');
  assert.ok(firstAt < 1000, `the line arrived after ${firstAt} ms, while the script was still running`);
});
