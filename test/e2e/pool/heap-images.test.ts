// Heap images through real worker processes (issue 4 "Tests"): state captured in one worker
// process is restored in a different one and carries on; forks of one image evolve
// independently; images cross the IPC channel and an image store unchanged.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { PoolRunner, type RunResult } from '../../helpers/pool-runner.ts';
import { MemoryImageStore } from '../../../shared/image-store.ts';
import type { HeapImage } from '../../../shared/heap-image.ts';

let a: PoolRunner;
let b: PoolRunner;
before(async () => {
  a = new PoolRunner(1);
  b = new PoolRunner(1);
  await Promise.all([a.pool.ready(), b.pool.ready()]);
});
after(() => Promise.all([a.close(), b.close()]));

function result(res: RunResult): unknown {
  assert.equal(res.outcome.status, 'completed', JSON.stringify(res.outcome) + res.output);
  return JSON.parse((res.outcome as { result: string }).result);
}

const SETUP = `
class Account {
  #balance = 0;
  static count = 0;
  constructor(readonly owner: string) { Account.count++; }
  deposit(n: number) { this.#balance += n; return this; }
  get balance() { return this.#balance; }
  static isAccount(x: unknown) { return #balance in (x as object); }
}
let calls = 0;                                   // module state, reached through a closure
const memo = new Map<string, number>();
globalThis.fib = (n: number): number => { calls++; if (n < 2) return n; const k = String(n); if (!memo.has(k)) memo.set(k, fib(n - 1) + fib(n - 2)); return memo.get(k)!; };
globalThis.stats = () => ({ calls, memo: memo.size });
globalThis.Account = Account;
globalThis.alice = new Account('alice').deposit(10);
globalThis.tags = new Set(['x', 'y']);
globalThis.bytes = new Uint8Array([1, 2, 3, 250]);
globalThis.floats = new Float64Array([0.5, -1.25]);
globalThis.view = new DataView(bytes.buffer, 1, 2);
globalThis.config = { get doubled() { return this.base * 2; }, base: 21 };
globalThis.later = new Promise<string>((ok) => ok('settled earlier'));
const wm = new WeakMap<object, string>([[alice, 'vip']]);
globalThis.label = (o: object) => wm.get(o);
globalThis.gen = (function* () { let i = 0; while (true) yield i++; })();
gen.next();
fib(20)
`;

test('functions, closures, classes with #private, Maps/Sets, typed arrays, getters and module state survive into another process', async () => {
  const first = await a.run(SETUP, { engine: 'quickjs', captureImage: true });
  assert.equal(result(first), 6765);
  assert.ok(first.image, 'a completed run that asked for its image gets one');
  const [pidA] = a.pool.pids();
  const [pidB] = b.pool.pids();
  assert.notEqual(pidA, pidB);

  const second = await b.run(`[
    fib(25), stats(), alice.deposit(5).balance, alice instanceof Account, Account.isAccount(alice),
    new Account('bob').balance, Account.count, Object.getPrototypeOf(alice).constructor.name, alice.owner,
    [...tags], tags.has('y'), Array.from(bytes), Array.from(floats), view.getUint8(1), config.doubled,
    await later, label(alice), gen.next().value, typeof WebAssembly,
  ]`, { engine: 'quickjs', image: first.image });
  assert.deepEqual(result(second), [
    75025, { calls: 50, memo: 24 }, 15, true, true,
    0, 2, 'Account', 'alice',
    ['x', 'y'], true, [1, 2, 3, 250], [0.5, -1.25], 3, 42,
    'settled earlier', 'vip', 1, 'undefined',
  ]);
});

test('two restores of one image evolve independently and draw different random numbers', async () => {
  const base = await a.run('globalThis.history = []; globalThis.n = 0; 0', { engine: 'quickjs', captureImage: true });
  const fork = (who: string, runner: PoolRunner) => runner.run(`history.push('${who}'); n += 1; [history, n, Math.random()]`, { engine: 'quickjs', image: base.image!, captureImage: true });
  const [left, right] = await Promise.all([fork('left', a), fork('right', b)]);
  const [hl, nl, rl] = result(left) as [string[], number, number];
  const [hr, nr, rr] = result(right) as [string[], number, number];
  assert.deepEqual([hl, nl, hr, nr], [['left'], 1, ['right'], 1]);
  assert.notEqual(rl, rr);
  // Each fork goes on from its own state.
  assert.deepEqual(result(await b.run('[history, n]', { engine: 'quickjs', image: left.image! })), [['left'], 1]);
  assert.deepEqual(result(await a.run('[history, n]', { engine: 'quickjs', image: right.image! })), [['right'], 1]);
  // Even the same fork restored twice in one process gets fresh random numbers.
  const again = [await a.run('Math.random()', { engine: 'quickjs', image: base.image! }), await a.run('Math.random()', { engine: 'quickjs', image: base.image! })];
  assert.notEqual(result(again[0]!), result(again[1]!));
});

test('images go through an image store by content key and restore as they went in', async () => {
  const store = new MemoryImageStore();
  const made = await a.run('globalThis.note = "kept"; note', { engine: 'quickjs', captureImage: true });
  const key = await store.put(made.image!);
  const back = (await store.get(key)) as HeapImage;
  assert.deepEqual(result(await b.run('note + "!"', { engine: 'quickjs', image: back })), 'kept!');
});

test('a failed, timed-out or cancelled run returns no image; a fresh run is not affected by an image', async () => {
  const failed = await a.run('globalThis.x = 1; throw new Error("no")', { engine: 'quickjs', captureImage: true });
  assert.equal(failed.outcome.status, 'failed');
  assert.equal(failed.image, undefined);
  const timedOut = await a.run('while (true) {}', { engine: 'quickjs', captureImage: true, timeoutMs: 200 });
  assert.equal(timedOut.outcome.status, 'timed_out');
  assert.equal(timedOut.image, undefined);
  assert.deepEqual(result(await a.run('typeof x', { engine: 'quickjs' })), 'undefined');
});

test('an image made by another engine build fails the run with a clear error', async () => {
  const made = await a.run('1', { engine: 'quickjs', captureImage: true });
  const foreign: HeapImage = { manifest: { ...made.image!.manifest, build: '0'.repeat(64) }, bytes: made.image!.bytes };
  const res = await b.run('1', { engine: 'quickjs', image: foreign });
  assert.equal(res.outcome.status, 'failed');
  assert.match((res.outcome as { error: string }).error, /^Heap image was made by QuickJS build 000000000000, this worker runs build [0-9a-f]{12}; images restore only on the engine build that made them$/);
  assert.deepEqual(result(await b.run('"worker still fine"', { engine: 'quickjs' })), 'worker still fine');
});

test('a malformed image is refused before anything runs', async () => {
  const made = await a.run('1', { engine: 'quickjs', captureImage: true });
  const broken: HeapImage = { manifest: made.image!.manifest, bytes: made.image!.bytes.subarray(65536) };
  const res = await b.run('1', { engine: 'quickjs', image: broken });
  assert.equal(res.outcome.status, 'failed');
  assert.match((res.outcome as { error: string }).error, /^Heap image holds \d+ bytes, its manifest lists \d+ pages$/);
});

test('an image given to a V8 execution is refused: images need the QuickJS engine', async () => {
  const made = await a.run('1', { engine: 'quickjs', captureImage: true });
  assert.deepEqual((await b.run('1', { engine: 'v8', image: made.image! })).outcome,
    { status: 'failed', error: 'Heap images need the QuickJS engine; this execution runs on v8' });
  const v8 = await b.run('2', { engine: 'v8', captureImage: true });
  assert.deepEqual(v8.outcome, { status: 'completed', result: '2' });
  assert.equal(v8.image, undefined, 'V8 runs produce no image');
});
