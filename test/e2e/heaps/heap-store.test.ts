// The heap store over a real dir blob store with real QuickJS images: full and delta encodings
// round-trip bit-exactly, chains stay bounded, small steps are small, and every kind of damage to
// what is stored is an error naming the key.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PoolRunner } from '../../helpers/pool-runner.ts';
import { createBlobStore } from '../../../supervisor/stores/blob/index.ts';
import { HeapCorruptError, HeapNotFoundError, HeapStore, MAX_DELTA_DEPTH } from '../../../supervisor/heaps/index.ts';
import { heapImageKey } from '../../../shared/image-store.ts';
import type { HeapImage } from '../../../shared/heap-image.ts';

let runner: PoolRunner;
let dir: string;
before(async () => {
  runner = new PoolRunner(1);
  await runner.pool.ready();
  dir = mkdtempSync(join(tmpdir(), 'runjs-heapstore-'));
});
after(async () => {
  await runner.close();
  rmSync(dir, { recursive: true, force: true });
});

function store(sub: string): HeapStore {
  return new HeapStore({ blobs: createBlobStore({ backend: 'dir', dir: join(dir, sub) }) });
}

async function step(code: string, image?: HeapImage): Promise<HeapImage> {
  const res = await runner.run(code, { engine: 'quickjs', captureImage: true, ...(image ? { image } : {}) });
  assert.equal(res.outcome.status, 'completed', JSON.stringify(res.outcome));
  return res.image!;
}

test('full then delta images round-trip exactly through a fresh store instance; small steps are small deltas', async () => {
  const s = store('a');
  const base = await step('globalThis.big = Array.from({length: 20000}, (_, i) => ({i, s: "x" + i})); globalThis.counter = 0; 1');
  const first = await s.put(base);
  assert.equal(first.encoding, 'full');
  let image = base;
  let key = first.key;
  const sizes: number[] = [];
  for (let i = 0; i < 3; i++) {
    image = await step('counter++', image);
    const put = await s.put(image, key);
    assert.equal(put.encoding, 'delta');
    sizes.push(put.bytesWritten);
    key = put.key;
  }
  assert.ok(Math.max(...sizes) < 16 * 1024, `small steps write < 16 KiB: ${sizes.join(', ')} (full image ${first.bytesWritten})`);
  // Another process's view: nothing cached.
  const other = store('a');
  const got = await other.get(key);
  assert.equal(heapImageKey(got.image), heapImageKey(image));
  assert.equal(got.record.depth, 3);
  const again = await s.put(image, got.record.parent);
  assert.equal(again.key, key, 'the same image against the same parent is the same key');
});

test('delta chains are cut at MAX_DELTA_DEPTH with a full image', async () => {
  const s = store('b');
  let image = await step('globalThis.n = 0; 0');
  let key = (await s.put(image)).key;
  const encodings: string[] = [];
  for (let i = 0; i < MAX_DELTA_DEPTH + 2; i++) {
    image = await step('n++', image);
    const put = await s.put(image, key);
    encodings.push(put.encoding);
    key = put.key;
  }
  assert.deepEqual(encodings, [...Array(MAX_DELTA_DEPTH).fill('delta'), 'full', 'delta']);
  const got = await store('b').get(key);
  assert.equal(got.record.depth, 1);
});

test('unknown keys, non-heap blobs and corrupt payloads are errors naming the key', async () => {
  const s = store('c');
  const unknown = 'a'.repeat(64);
  await assert.rejects(s.get(unknown), (e: unknown) => e instanceof HeapNotFoundError && e.message.includes(unknown));
  const image = await step('globalThis.z = 1; 1');
  const { key } = await s.put(image);
  const blobs = createBlobStore({ backend: 'dir', dir: join(dir, 'c') });
  const notHeap = await blobs.put(Buffer.from('hello'));
  await assert.rejects(store('c').get(notHeap), (e: unknown) => e instanceof HeapCorruptError && e.message.includes(notHeap));
  // Flip a byte in every stored file except the record: the payload then fails its blob hash.
  const record = JSON.parse(Buffer.from((await blobs.get(key))!).toString()) as { payload: string };
  const payloadPath = findBlob(join(dir, 'c'), record.payload);
  const bytes = readFileSync(payloadPath);
  bytes[bytes.length >> 1]! ^= 0xff;
  writeFileSync(payloadPath, bytes);
  await assert.rejects(store('c').get(key), (e: unknown) => e instanceof HeapCorruptError && e.message.includes(key));
});

function findBlob(root: string, key: string): string {
  const walk = (d: string): string | undefined => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) { const f = walk(p); if (f) return f; }
      else if (p.endsWith(key.slice(2))) return p;
    }
    return undefined;
  };
  const found = walk(root);
  assert.ok(found, `blob ${key} on disk`);
  return found;
}
