// Workers keep recent heap images (shared/image-lru.ts): a job restoring a heap the worker
// produced or was sent recently does not ship the image over IPC again; a job whose image the
// worker does not hold gets it inline; a worker asked for an image it lacks says so (imageMiss)
// instead of running anything. With encodeHeap the worker sends its heap's blobs, not the image, and
// keeps the image under the heap key; an image it lacks is loaded (Job.loadImage) once per worker.
import { TEST_WORKER_SETTINGS } from '../../helpers/worker-settings.ts';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { PoolRunner, type RunResult } from '../../helpers/pool-runner.ts';
import { WorkerProcess } from '../../../supervisor/pool/worker-process.ts';
import type { HeapImage } from '../../../shared/heap-image.ts';
import type { Job } from '../../../supervisor/pool/worker-pool.ts';
import type { WorkerMessage } from '../../../shared/protocol.ts';
import type { CheckedHeap } from '../../../shared/heap-encode.ts';

let r: PoolRunner;
before(async () => {
  r = new PoolRunner(1);
  await r.pool.ready();
});
after(() => r.close());

function value(res: RunResult): unknown {
  assert.equal(res.outcome.status, 'completed', JSON.stringify(res.outcome) + res.output);
  return JSON.parse((res.outcome as { result: string }).result);
}

/** Runs `code` on QuickJS from `image` (named `imageKey`), capturing the result's image and run id. */
async function run(code: string, image?: HeapImage, imageKey?: string): Promise<{ res: RunResult; runId: string; image: HeapImage }> {
  let captured: HeapImage | undefined;
  let output = '';
  const job: Job = {
    code, engine: 'quickjs', heapMemoryMaxMb: 16, timeoutMs: 10_000, maxOutputBytes: 1 << 20,
    onOutput: (d) => { output += d; },
    captureImage: true, onImage: (i) => { captured = i; },
    ...(image ? { image } : {}), ...(imageKey !== undefined ? { imageKey } : {}),
  };
  const handle = r.pool.submit(job);
  const outcome = await handle.outcome;
  const res: RunResult = { outcome, output, ms: 0 };
  value(res);
  return { res, runId: handle.runId, image: captured! };
}

test('a heap the worker captured is resumed from its own copy (the image is not needed again)', async () => {
  const a = await run('globalThis.n = 1; n');
  const decoy = await run('globalThis.n = 99; n');
  // The service aliases the stored key to the capturing run; a later job names the key.
  r.pool.aliasImage(a.runId, 'key-a');
  // A hit restores the worker's copy of key-a. The decoy (a different state passed under the same
  // key, which the service never does) shows the bytes sent were not the bytes restored.
  const b = await run('n += 1; n', decoy.image, 'key-a');
  assert.equal(value(b.res), 2);
  // The captured image of a cache hit is complete and restores anywhere (here: sent inline).
  const c = await run('n += 10; n', b.image, 'key-b-unknown');
  assert.equal(value(c.res), 12);
});

test('a heap the worker does not hold is sent inline, then held under its key', async () => {
  const a = await run('globalThis.m = 5; m');
  const other = new PoolRunner(1);
  try {
    await other.pool.ready();
    // `other` has never seen this image: it must arrive inline.
    const job = (code: string, image: HeapImage): Promise<unknown> => new Promise((resolve) => {
      const h = other.pool.submit({ code, engine: 'quickjs', heapMemoryMaxMb: 16, timeoutMs: 10_000, maxOutputBytes: 1 << 20, onOutput: () => {}, image, imageKey: 'key-m' });
      void h.outcome.then((o) => resolve(o.status === 'completed' ? JSON.parse(o.result) : o));
    });
    assert.equal(await job('m * 2', a.image), 10);
    // Now it holds key-m: a decoy under the same key is ignored.
    const decoy = await run('globalThis.m = 1000; m');
    assert.equal(await job('m * 3', decoy.image), 15);
  } finally {
    await other.close();
  }
});

test('a worker asked to restore an image it does not hold answers imageMiss and runs nothing', async () => {
  const messages: WorkerMessage[] = [];
  let ready!: () => void;
  const isReady = new Promise<void>((res) => { ready = res; });
  let got!: (m: WorkerMessage) => void;
  const result = new Promise<WorkerMessage>((res) => { got = res; });
  const proc = new WorkerProcess({
    message: (m) => { messages.push(m); if (m.type === 'ready') ready(); if (m.type === 'result') got(m); },
    violation: () => {},
    maxMessageBytes: () => 64 * 1024 * 1024,
    exit: () => {},
  }, () => {}, TEST_WORKER_SETTINGS);
  try {
    await isReady;
    proc.send({ type: 'run', runId: 'r1', code: 'globalThis.sideEffect = 1; 1', engine: 'quickjs', heapMemoryMaxMb: 16, timeoutMs: 5000, maxOutputBytes: 1024, imageToken: 'never-sent', captureImage: true });
    const msg = await result;
    assert.equal(msg.type, 'result');
    if (msg.type !== 'result') return;
    assert.equal(msg.imageMiss, true);
    assert.equal(msg.outcome.status, 'failed');
    assert.equal(msg.image, undefined);
    assert.equal(messages.filter((m) => m.type === 'output').length, 0);
  } finally {
    proc.kill();
  }
});

/** Runs `code` on QuickJS with the worker encoding its heap (what the execution service asks for); returns the checked blobs. */
async function encoded(pool: PoolRunner['pool'], code: string, extra: Partial<Job> = {}): Promise<{ result: unknown; heap: CheckedHeap | undefined; base: CheckedHeap | undefined }> {
  let heap: CheckedHeap | undefined;
  let base: CheckedHeap | undefined;
  const handle = pool.submit({
    code, engine: 'quickjs', heapMemoryMaxMb: 16, timeoutMs: 10_000, maxOutputBytes: 1 << 20, onOutput: () => {},
    encodeHeap: { parent: null, maxDepth: 8, storedBases: [] }, onHeap: (h, b) => { heap = h; base = b; }, ...extra,
  });
  const outcome = await handle.outcome;
  return { result: outcome.status === 'completed' ? JSON.parse(outcome.result) : outcome, heap, base };
}

test('a worker encodes its heap: small blobs against the image it restored, and it keeps the image under the heap key', async () => {
  const fresh = await encoded(r.pool, 'globalThis.big = "x".repeat(300000); globalThis.n = 1; n');
  assert.equal(fresh.result, 1);
  const h1 = fresh.heap!;
  assert.equal(h1.parsed.depth, 1, 'a fresh run is a delta against the base image');
  assert.ok(fresh.base && fresh.base.parsed.encoding === 'full' && fresh.base.key === h1.parsed.parent, 'the base heap rides along when the store lacks it');
  const loads: string[] = [];
  const next = await encoded(r.pool, 'n += 1; n', {
    imageKey: h1.key, loadImage: async () => { loads.push(h1.key); throw new Error('not needed'); },
    encodeHeap: { parent: { key: h1.key, depth: 1 }, maxDepth: 8, storedBases: [h1.parsed.parent!] },
  });
  assert.equal(next.result, 2);
  assert.deepEqual(loads, [], 'the worker restored its own copy');
  assert.equal(next.base, undefined);
  assert.equal(next.heap!.parsed.parent, h1.key);
  assert.equal(next.heap!.parsed.depth, 2);
  assert.ok(next.heap!.payload.byteLength < 32 * 1024, `a small step is a small payload: ${next.heap!.payload.byteLength} B`);
});

test('a worker that does not hold the input image gets it loaded once, then restores its copy; a load that fails fails only its run', async () => {
  const made = await run('globalThis.k = 7; k');
  const other = new PoolRunner(1);
  try {
    await other.pool.ready();
    let loads = 0;
    const job = { imageKey: 'key-k', loadImage: async () => { loads++; return made.image; } };
    assert.equal((await encoded(other.pool, 'k * 2', job)).result, 14);
    assert.equal((await encoded(other.pool, 'k * 3', job)).result, 21);
    assert.equal(loads, 1, 'fan-out from one key restores once per worker');
    const failed = await encoded(other.pool, '1', { imageKey: 'key-gone', loadImage: async () => { throw new Error('cannot restore heap: gone'); } });
    assert.deepEqual(failed.result, { status: 'failed', error: 'cannot restore heap: gone' });
    assert.equal((await encoded(other.pool, 'k * 4', job)).result, 28);
  } finally {
    await other.close();
  }
});

test('a run cancelled while its image loads frees the worker without killing it', async () => {
  const pid = r.pool.pids()[0];
  let release!: () => void;
  const gate = new Promise<void>((res) => { release = res; });
  const made = await run('globalThis.q = 3; q');
  const handle = r.pool.submit({
    code: 'q', engine: 'quickjs', heapMemoryMaxMb: 16, timeoutMs: 10_000, maxOutputBytes: 1024, onOutput: () => {},
    imageKey: 'key-slow', loadImage: async () => { await gate; return made.image; },
  });
  await new Promise((res) => setTimeout(res, 20));
  handle.cancel();
  assert.equal((await handle.outcome).status, 'cancelled');
  release();
  assert.equal((await encoded(r.pool, '5')).result, 5, 'the worker takes the next run');
  assert.equal(r.pool.pids()[0], pid, 'and was not replaced');
});
