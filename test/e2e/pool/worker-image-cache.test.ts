// Workers keep recent heap images (shared/image-lru.ts): a job restoring a heap the worker
// produced or was sent recently does not ship the image over IPC again; a job whose image the
// worker does not hold gets it inline; a worker asked for an image it lacks says so (imageMiss)
// instead of running anything.
import { TEST_WORKER_SETTINGS } from '../../helpers/worker-settings.ts';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { PoolRunner, type RunResult } from '../../helpers/pool-runner.ts';
import { WorkerProcess } from '../../../supervisor/pool/worker-process.ts';
import type { HeapImage } from '../../../shared/heap-image.ts';
import type { Job } from '../../../supervisor/pool/worker-pool.ts';
import type { WorkerMessage } from '../../../shared/protocol.ts';

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
