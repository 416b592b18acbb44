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
import { cachedBaseImage } from '../../../supervisor/heaps/base-image-source.ts';

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

async function step(code: string, image?: HeapImage, heapMemoryMaxMb = 8): Promise<HeapImage> {
  const res = await runner.run(code, { engine: 'quickjs', captureImage: true, heapMemoryMaxMb, timeoutMs: 60_000, ...(image ? { image } : {}) });
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

test('at MAX_DELTA_DEPTH a chain continues as a delta against its first step, so no restore replays more', async () => {
  const s = store('b');
  let image = await step('globalThis.n = 0; 0');
  let key = (await s.put(image)).key;
  const puts: { encoding: string; depth: number; parent: string | null }[] = [];
  const keys: string[] = [];
  for (let i = 0; i < MAX_DELTA_DEPTH + 2; i++) {
    image = await step('n++', image);
    const put = await s.put(image, key);
    const { record } = await s.get(put.key);
    puts.push({ encoding: put.encoding, depth: record.depth, parent: record.parent });
    keys.push(put.key);
    key = put.key;
  }
  assert.deepEqual(puts.map((p) => p.encoding), Array(MAX_DELTA_DEPTH + 2).fill('delta'));
  assert.deepEqual(puts.map((p) => p.depth), [...Array.from({ length: MAX_DELTA_DEPTH }, (_, i) => i + 1), 2, 3]);
  assert.equal(puts[MAX_DELTA_DEPTH]!.parent, keys[0], 'the chain continues from its depth-1 step');
  // Another server (nothing cached) rebuilds it exactly, through at most MAX_DELTA_DEPTH deltas.
  const got = await store('b').get(key);
  assert.equal(got.record.depth, 3);
  assert.equal(heapImageKey(got.image), heapImageKey(image));
});

test('at the depth limit with the chain\'s first step no longer in memory, a full image is written', async () => {
  const first = await step('globalThis.m = 0; 0');
  // A cache too small to hold any image: nothing stays decoded, so there is no anchor in memory.
  const s = new HeapStore({ blobs: createBlobStore({ backend: 'dir', dir: join(dir, 'b2') }), cacheBytes: 1, maxDeltaDepth: 2 });
  let image = first;
  let key = (await s.put(image)).key;
  const encodings: string[] = [];
  for (let i = 0; i < 4; i++) {
    image = await step('m++', image);
    const put = await s.put(image, key);
    encodings.push(put.encoding);
    key = put.key;
  }
  assert.deepEqual(encodings, ['delta', 'delta', 'full', 'delta']);
  assert.equal(heapImageKey((await store('b2').get(key)).image), heapImageKey(image));
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

test('with the engine base image: fresh runs and cut chains are small deltas against the base, stored once', async () => {
  const s = new HeapStore({ blobs: createBlobStore({ backend: 'dir', dir: join(dir, 'd') }), baseImage: cachedBaseImage, maxDeltaDepth: 2 });
  const one = await step('globalThis.a = [1, 2, 3]; 1');
  const plain = await store('d-full').put(one);
  assert.equal(plain.encoding, 'full');
  const p1 = await s.put(one);
  assert.equal(p1.encoding, 'delta');
  assert.ok(p1.bytesWritten < 16 * 1024 && p1.bytesWritten * 4 < plain.bytesWritten, `fresh run ${p1.bytesWritten} B vs full ${plain.bytesWritten} B`);
  const other = store('d'); // another server: no base image configured, nothing cached
  const got1 = await other.get(p1.key);
  assert.equal(heapImageKey(got1.image), heapImageKey(one));
  assert.equal(got1.record.depth, 1);
  const base = await other.get(got1.record.parent!);
  assert.equal(base.record.encoding, 'full');
  assert.equal(base.image.manifest.generation, 0, 'the parent is the engine base image');
  const p2 = await s.put(await step('globalThis.b = 2; 2'));
  assert.equal((await other.get(p2.key)).record.parent, got1.record.parent, 'one base for every fresh run');
  // At the depth limit the chain continues from its depth-1 step (p1), not from the base.
  let image = one;
  let key = p1.key;
  for (let i = 0; i < 2; i++) {
    image = await step('a.push(a.length); 0', image);
    key = (await s.put(image, key)).key;
  }
  const restarted = await store('d').get(key);
  assert.deepEqual([restarted.record.encoding, restarted.record.depth, restarted.record.parent], ['delta', 2, p1.key]);
  assert.equal(heapImageKey(restarted.image), heapImageKey(image));
});

test('large images (above 8 MiB) take the non-blocking path and round-trip exactly', async () => {
  const s = store('e');
  // Every 4 KiB touched, so every page is non-zero and stored (a map() over 12 M bytes would take
  // the interpreter seconds).
  let image = await step('globalThis.blob = new Uint8Array(12 * 1024 * 1024); for (let i = 0; i < blob.length; i += 4096) blob[i] = 1 + (i >> 12) % 251; 0', undefined, 64);
  assert.ok(image.bytes.byteLength > 8 * 1024 * 1024, String(image.bytes.byteLength));
  let key = (await s.put(image)).key;
  image = await step('blob[5] = 7; blob[9_000_000] = 9; 0', image, 64);
  const put = await s.put(image, key);
  assert.equal(put.encoding, 'delta');
  assert.ok(put.bytesWritten < 64 * 1024, String(put.bytesWritten));
  key = put.key;
  const got = await store('e').get(key);
  assert.equal(heapImageKey(got.image), heapImageKey(image));
});

test('a missing or corrupt ancestor fails the restore with an error naming the key asked for', async () => {
  const root = join(dir, 'f');
  const s = store('f');
  const a = await step('globalThis.v = [1]; 0');
  const ka = (await s.put(a)).key;
  const b = await step('v.push(2); 0', a);
  const kb = (await s.put(b, ka)).key;
  const c = await step('v.push(3); 0', b);
  const kc = (await s.put(c, kb)).key;
  const blobs = createBlobStore({ backend: 'dir', dir: root });
  const recordOf = async (k: string) => JSON.parse(Buffer.from((await blobs.get(k))!).toString()) as { payload: string; parent: string | null };
  // Corrupt the grandparent's payload: asking for the grandchild names the grandchild.
  const payloadA = findBlob(root, (await recordOf(ka)).payload);
  const bytes = readFileSync(payloadA);
  bytes[bytes.length >> 1]! ^= 0xff;
  rmSync(payloadA, { force: true });
  writeFileSync(payloadA, bytes);
  await assert.rejects(store('f').get(kc), (e: unknown) => {
    assert.ok(e instanceof HeapCorruptError);
    assert.equal(e.key, kc);
    assert.match(e.message, new RegExp(`^heap ${kc} is corrupt and was not restored: its ancestor heap ${ka} is corrupt: blob `));
    return true;
  });
  // Remove the parent's record: the child names its missing parent.
  rmSync(findBlob(root, kb), { force: true });
  await assert.rejects(store('f').get(kc), (e: unknown) => e instanceof HeapCorruptError
    && e.message === `heap ${kc} is corrupt and was not restored: its parent heap ${kb} is missing`);
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
