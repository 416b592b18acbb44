// A run's queue of key derivations (worker/ops/crypto/kdf-limits.ts): at most maxRunning run,
// their memory stays within the heap cap, the rest start in order as others finish, a cancelled
// waiter leaves the queue, and when the run ends what still waits is never started.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KdfQueue } from '../../../worker/ops/crypto/kdf-limits.ts';

interface Job {
  readonly started: boolean;
  finish(): void;
}

function jobs(queue: KdfQueue, limits: { maxRunning: number; heapBytes: number }, sizes: readonly number[], signals: AbortSignal[] = []): { jobs: Job[]; results: Promise<unknown>[] } {
  const list: Job[] = [];
  const results: Promise<unknown>[] = [];
  sizes.forEach((bytes, i) => {
    let finish = (): void => {};
    const job = { started: false, finish: () => finish() };
    list.push(job);
    const signal = signals[i] ?? new AbortController().signal;
    const result = queue.run(limits, bytes, signal, () => {
      job.started = true;
      return new Promise<number>((resolve) => { finish = () => resolve(i); });
    });
    result.catch(() => {});
    results.push(result);
  });
  return { jobs: list, results };
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

test('at most maxRunning run; the others start in order as running ones finish', async () => {
  const q = new KdfQueue();
  const { jobs: js, results } = jobs(q, { maxRunning: 4, heapBytes: 1 << 30 }, Array(10).fill(0));
  assert.deepEqual(q.counts, { running: 4, waiting: 6 });
  assert.deepEqual(js.map((j) => j.started), [true, true, true, true, false, false, false, false, false, false]);
  js[2]!.finish();
  await tick();
  assert.deepEqual(q.counts, { running: 4, waiting: 5 });
  assert.equal(js[4]!.started, true);
  for (const j of js) j.finish();
  await tick();
  for (const j of js) j.finish();
  await tick();
  for (const j of js) j.finish();
  await tick();
  assert.deepEqual(await Promise.all(results), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.deepEqual(q.counts, { running: 0, waiting: 0 });
});

test('their memory stays within the heap cap: a job waits until what runs leaves room for it', async () => {
  const q = new KdfQueue();
  const { jobs: js } = jobs(q, { maxRunning: 4, heapBytes: 100 }, [60, 50, 40]);
  assert.deepEqual(js.map((j) => j.started), [true, false, false], 'the second would make 110; the third waits behind it');
  js[0]!.finish();
  await tick();
  assert.deepEqual(js.map((j) => j.started), [true, true, true]);
});

test('a cancelled waiter leaves the queue; when the run ends, waiters are never started', async () => {
  const q = new KdfQueue();
  const cancel = new AbortController();
  const { jobs: js, results } = jobs(q, { maxRunning: 1, heapBytes: 1 << 30 }, [0, 0, 0, 0], [new AbortController().signal, cancel.signal]);
  cancel.abort();
  await assert.rejects(results[1]!, /runjs: cancelled/);
  assert.deepEqual(q.counts, { running: 1, waiting: 2 });
  q.release();
  assert.deepEqual(q.counts, { running: 1, waiting: 0 });
  js[0]!.finish();
  assert.equal(await results[0], 0, 'what was running finishes');
  await tick();
  assert.deepEqual(js.map((j) => j.started), [true, false, false, false]);
  await assert.rejects(q.run({ maxRunning: 1, heapBytes: 1 }, 0, new AbortController().signal, () => Promise.resolve(1)), /runjs: the run has ended/);
});
