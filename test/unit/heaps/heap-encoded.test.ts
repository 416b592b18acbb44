// Heaps encoded outside the store (by the worker that ran the step, shared/heap-encode.ts) and
// stored with HeapStore.putEncoded: the same keys as the store's own encoding, rebuilt exactly by
// another store, and a worker's blobs are checked — sizes, the record, the payload it names and a
// parent the run was offered — before anything is written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import { HeapStore, type EncodeOffer } from '../../../supervisor/heaps/index.ts';
import { createBlobStore } from '../../../supervisor/stores/blob/index.ts';
import { checkHeapBlobs, encodeHeap, MAX_RECORD_BYTES, type CheckedHeap, type DeltaParent } from '../../../shared/heap-encode.ts';
import { HEAP_IMAGE_FORMAT, IMAGE_PAGE_BYTES, type HeapImage } from '../../../shared/heap-image.ts';
import { heapImageKey } from '../../../shared/image-store.ts';
import { DELTA_BLOCK_BYTES, DeltaBuffer } from '../../../shared/heap-delta.ts';
import { heapImageHash, heapImageHashAsync } from '../../../shared/heap-image-hash.ts';

const MAX_IMAGE = 64 * IMAGE_PAGE_BYTES;

/** A synthetic image: `pages` stored pages, page i filled with `fill + i` except a few bytes set by `marks`. */
function image(generation: number, pages: number, fill: number, marks: Record<number, number> = {}): HeapImage {
  const bytes = new Uint8Array(pages * IMAGE_PAGE_BYTES);
  for (let i = 0; i < pages; i++) bytes.fill((fill + i) & 0xff, i * IMAGE_PAGE_BYTES, (i + 1) * IMAGE_PAGE_BYTES);
  for (const [at, v] of Object.entries(marks)) bytes[Number(at)] = v;
  return {
    manifest: {
      format: HEAP_IMAGE_FORMAT, engine: 'quickjs', build: 'b'.repeat(64), prelude: 'p1', pages: pages + 2, ranges: [[0, pages]],
      handles: { rt: 64, ctx: 128, internal: 256, bridge: 512, scratch: 1024 }, generation,
    },
    bytes,
  };
}

function withStore(fn: (s: HeapStore, dir: string) => Promise<void>, maxDeltaDepth?: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-heapenc-'));
  const s = new HeapStore({ blobs: createBlobStore({ backend: 'dir', dir }), ...(maxDeltaDepth !== undefined ? { maxDeltaDepth } : {}) });
  return fn(s, dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}

async function checked(img: HeapImage, parent?: DeltaParent): Promise<CheckedHeap> {
  const e = await encodeHeap(img, parent);
  const c = checkHeapBlobs(e, MAX_IMAGE);
  assert.ok(typeof c !== 'string', String(c));
  return c;
}

const BASE = image(0, 3, 1);

test('a fresh run\'s heap, encoded against a base sent along, stores and rebuilds exactly; the base is stored once', () => withStore(async (s, dir) => {
  const base = await checked(BASE);
  const one = image(1, 4, 1, { 10: 7 });
  const h1 = await checked(one, { key: base.key, image: BASE, depth: 0 });
  const fresh: EncodeOffer = { parent: null };
  await assert.rejects(s.putEncoded(h1, fresh), /against [0-9a-f]{64} at depth 1, which its run did not offer/, 'an unknown base must be sent along');
  const put = await s.putEncoded(h1, fresh, base);
  assert.equal(put.key, h1.key);
  assert.equal(put.encoding, 'delta');
  assert.ok(put.bytesWritten < 4 * IMAGE_PAGE_BYTES);
  assert.deepEqual(s.storedBases, [base.key]);
  // A second fresh run needs no base any more.
  const h2 = await checked(image(1, 3, 1, { 99: 1 }), { key: base.key, image: BASE, depth: 0 });
  await s.putEncoded(h2, fresh);
  // Another process's view: nothing cached.
  const other = new HeapStore({ blobs: createBlobStore({ backend: 'dir', dir }) });
  const got = await other.get(h1.key);
  assert.equal(heapImageKey(got.image), heapImageKey(one));
  assert.equal(got.record.parent, base.key);
  assert.equal((await other.record(h1.key)).depth, 1);
}));

test('the worker\'s encoding and the store\'s own give the same key for the same image and parent', () => withStore(async (s) => {
  const first = image(1, 4, 3);
  const p1 = await s.put(first);
  const next = image(2, 5, 3, { 5: 5 });
  const viaStore = await s.put(next, p1.key);
  const viaWorker = await encodeHeap(next, { key: p1.key, image: first, depth: 0 });
  assert.equal(viaWorker.key, viaStore.key);
}));

test('a step encoded with a reused delta buffer and its parent\'s page hashes is byte-identical to one encoded from nothing, step after step; without them it derives the parent\'s', async () => {
  // The steps change 1, 2, 18 and then 2 blocks (the third grows a page), so a stale page hash, or
  // bytes an earlier, longer delta left in the buffer, would show up in a later payload or key.
  const buffer = new DeltaBuffer(MAX_IMAGE);
  let parent = image(1, 4, 5);
  let hashes = (await encodeHeap(parent, undefined)).pageHashes;
  const steps = [
    image(2, 4, 5, { 10: 1 }), image(3, 4, 5, { [2 * IMAGE_PAGE_BYTES + 7]: 2 }), image(4, 5, 5, { 3: 3 }),
    image(5, 5, 5, { 3: 3, [IMAGE_PAGE_BYTES + 1]: 9, [2 * IMAGE_PAGE_BYTES + 1]: 9 }),
  ];
  for (const [i, next] of steps.entries()) {
    const offer: DeltaParent = { key: String(i).repeat(64), image: parent, depth: 1 };
    const reused = await encodeHeap(next, { ...offer, pageHashes: hashes }, buffer);
    const fresh = await encodeHeap(next, offer);
    assert.equal(reused.key, fresh.key);
    assert.deepEqual(reused.payload, fresh.payload);
    assert.equal(zstdDecompressSync(fresh.payload).readUInt32LE(0), [1, 2, 18, 2][i]);
    assert.deepEqual(reused.pageHashes, fresh.pageHashes);
    // Encoded without the parent's page hashes, the step derives them (for the parent's next child).
    assert.deepEqual(fresh.parentPageHashes, hashes);
    assert.equal(reused.parentPageHashes, undefined);
    parent = next;
    hashes = reused.pageHashes;
  }
});

/** The version 1/2 payload of `child` against `parent` (both laid out [[0, n]]): every child page, XORed with the parent's of the same number. */
function denseDelta(child: HeapImage, parent: HeapImage): Uint8Array {
  const out = Uint8Array.from(child.bytes);
  for (let i = 0; i < Math.min(out.byteLength, parent.bytes.byteLength); i++) out[i]! ^= parent.bytes[i]!;
  return zstdCompressSync(out);
}

/** A fresh store over `dir` (nothing cached: another process's view). */
function reader(dir: string): HeapStore {
  return new HeapStore({ blobs: createBlobStore({ backend: 'dir', dir }) });
}

test('a heap stored with a version 1 or 2 record and a dense delta still restores, verified; new records are version 3 with sparse deltas', () => withStore(async (s, dir) => {
  const blobs = createBlobStore({ backend: 'dir', dir });
  const root = image(1, 3, 7, { 5: 9 });
  const full = await encodeHeap(root, undefined);
  assert.equal(full.parsed.version, 3);
  // A version 1 full record (whole-image hash) and a version 2 dense delta on top of it, as older servers wrote them.
  const rootKey = await blobs.put(Buffer.from(JSON.stringify({ ...full.parsed, version: 1, image: heapImageKey(root) })));
  await blobs.put(full.payload);
  assert.equal(heapImageKey((await s.get(rootKey)).image), heapImageKey(root));
  const child = image(2, 4, 7, { 5: 9, [IMAGE_PAGE_BYTES + 3]: 4 });
  const sparse = await checked(child, { key: rootKey, image: root, depth: 0 });
  assert.equal(sparse.parsed.version, 3);
  const v2Key = await blobs.put(Buffer.from(JSON.stringify({ ...sparse.parsed, version: 2, payload: await blobs.put(denseDelta(child, root)) })));
  assert.equal(heapImageKey((await reader(dir).get(v2Key)).image), heapImageKey(child));
  // The same image as a version 3 sparse delta: the changed 4 KiB block and the new page's 16, not the whole image.
  await s.putEncoded(sparse, { parent: { key: rootKey, depth: 0 } });
  assert.equal(heapImageKey((await reader(dir).get(sparse.key)).image), heapImageKey(child));
  const raw = zstdDecompressSync(sparse.payload);
  assert.equal(raw.byteLength, 72 + 17 * DELTA_BLOCK_BYTES);
  assert.deepEqual(Array.from({ length: 18 }, (_, k) => raw.readUInt32LE(4 * k)), [17, 16, ...Array.from({ length: 16 }, (_, b) => 48 + b)]);
  // A version 1 record whose hash does not match its image is corrupt, as before.
  const wrong = await blobs.put(Buffer.from(JSON.stringify({ ...full.parsed, version: 1 })));
  await assert.rejects(s.get(wrong), /is corrupt and was not restored: the rebuilt image hashes to/);
  // A record version this server does not know is refused.
  const future = await blobs.put(Buffer.from(JSON.stringify({ ...full.parsed, version: 4 })));
  await assert.rejects(reader(dir).get(future), new RegExp(`heap ${future} is corrupt and was not restored: heap record version 4 is not supported`));
}));

test('sparse deltas rebuild exactly when pages appear, vanish and change between ranges; an unchanged image is an empty delta', () => withStore(async (s, dir) => {
  const four = image(1, 4, 11);
  const parent: HeapImage = { manifest: { ...four.manifest, pages: 10, ranges: [[0, 2], [5, 2]] }, bytes: four.bytes };
  const childBytes = new Uint8Array(5 * IMAGE_PAGE_BYTES);
  childBytes.set(parent.bytes.subarray(0, IMAGE_PAGE_BYTES), 0); // page 0 as it was
  childBytes.fill(99, IMAGE_PAGE_BYTES, 2 * IMAGE_PAGE_BYTES); // page 2: new
  childBytes.set(parent.bytes.subarray(2 * IMAGE_PAGE_BYTES, 4 * IMAGE_PAGE_BYTES), 2 * IMAGE_PAGE_BYTES); // pages 5 and 6 as they were...
  childBytes[3 * IMAGE_PAGE_BYTES + 100] = 1; // ... page 6 changed in one byte
  childBytes.fill(42, 4 * IMAGE_PAGE_BYTES); // page 9: new; page 1 is gone
  const child: HeapImage = { manifest: { ...parent.manifest, generation: 2, ranges: [[0, 1], [2, 1], [5, 2], [9, 1]] }, bytes: childBytes };
  const p = await s.put(parent);
  const c = await s.put(child, p.key);
  assert.equal(c.encoding, 'delta');
  assert.deepEqual((await reader(dir).get(c.key)).image.bytes, childBytes);
  // Blocks of stored pages 1 (page 2, new) and 4 (page 9, new), and the one changed block of stored page 3 (page 6).
  const raw = zstdDecompressSync((await encodeHeap(child, { key: p.key, image: parent, depth: 0 })).payload);
  const blocks = (first: number): number[] => Array.from({ length: 16 }, (_, b) => first + b);
  assert.deepEqual(Array.from({ length: 34 }, (_, k) => raw.readUInt32LE(4 * k)), [33, ...blocks(16), 48, ...blocks(64)]);
  // Nothing changed but the manifest: a delta of no pages.
  const again = await encodeHeap({ ...parent, manifest: { ...parent.manifest, generation: 3 } }, { key: p.key, image: parent, depth: 0 });
  assert.deepEqual([...zstdDecompressSync(again.payload)], [0, 0, 0, 0, 0, 0, 0, 0]);
  await s.putEncoded(await checked({ ...parent, manifest: { ...parent.manifest, generation: 3 } }, { key: p.key, image: parent, depth: 0 }), { parent: { key: p.key, depth: 0 } });
  const back = (await reader(dir).get(again.key)).image;
  assert.deepEqual([back.manifest.generation, Buffer.compare(back.bytes, parent.bytes)], [3, 0]);
}));

test('a sparse delta that does not fit its manifest fails the restore as corrupt, naming the key', () => withStore(async (s, dir) => {
  const blobs = createBlobStore({ backend: 'dir', dir });
  const parent = image(1, 3, 21);
  const p = await s.put(parent);
  const good = await encodeHeap(image(2, 3, 21, { 7: 7 }), { key: p.key, image: parent, depth: 0 });
  const raw = zstdDecompressSync(good.payload);
  assert.deepEqual([raw.readUInt32LE(0), raw.readUInt32LE(4)], [1, 0]);
  const cases: [string, Uint8Array, string][] = [
    ['a block index beyond the manifest', Buffer.concat([Buffer.from([1, 0, 0, 0, 48, 0, 0, 0]), raw.subarray(8)]), 'its delta lists blocks out of order or beyond its manifest'],
    ['a count the bytes do not hold', Buffer.concat([Buffer.from([2, 0, 0, 0]), raw.subarray(4)]), 'its delta does not match its manifest'],
    ['a truncated page', raw.subarray(0, raw.byteLength - 1), 'its delta does not match its manifest'],
  ];
  for (const [what, bad, detail] of cases) {
    const key = await blobs.put(Buffer.from(JSON.stringify({ ...good.parsed, payload: await blobs.put(zstdCompressSync(bad)) })));
    await assert.rejects(reader(dir).get(key), { message: `heap ${key} is corrupt and was not restored: ${detail}` }, what);
  }
}));

test('a step continues from its offered parent, the chain anchor at the depth limit, or a stored base; anything else is refused', () => withStore(async (s) => {
  const base = await checked(BASE);
  let img = image(1, 3, 1, { 1: 1 });
  let head = await checked(img, { key: base.key, image: BASE, depth: 0 });
  await s.putEncoded(head, { parent: null }, base);
  const anchor = head.key;
  for (let depth = 1; depth < 2; depth++) {
    const next = image(depth + 1, 3, 1, { 2: depth });
    const h = await checked(next, { key: head.key, image: img, depth });
    await s.putEncoded(h, { parent: { key: head.key, depth } });
    head = h;
    img = next;
  }
  assert.equal((await s.record(head.key)).depth, 2);
  assert.equal(await s.chainAnchorKey(head.key), anchor);
  assert.equal(await s.chainAnchorKey(anchor), undefined, 'a depth-1 heap is its own chain start');
  // At the depth limit (2 here), the parent is no longer a valid delta base...
  const past = image(9, 3, 1, { 3: 3 });
  const tooDeep = await checked(past, { key: head.key, image: img, depth: 2 });
  await assert.rejects(s.putEncoded(tooDeep, { parent: { key: head.key, depth: 2 }, anchor }), /did not offer/);
  // ...the anchor and a stored base are.
  const onAnchor = await checked(past, { key: anchor, image: image(1, 3, 1, { 1: 1 }), depth: 1 });
  assert.equal((await s.putEncoded(onAnchor, { parent: { key: head.key, depth: 2 }, anchor })).encoding, 'delta');
  const onBase = await checked(past, { key: base.key, image: BASE, depth: 0 });
  await s.putEncoded(onBase, { parent: { key: head.key, depth: 2 }, anchor });
  // A parent the run never saw (another tenant's heap, say), or a depth that does not follow, is refused.
  const elsewhere = await checked(past, { key: 'e'.repeat(64), image: BASE, depth: 0 });
  await assert.rejects(s.putEncoded(elsewhere, { parent: { key: head.key, depth: 1 } }), /did not offer/);
  const wrongDepth = await checked(past, { key: head.key, image: img, depth: 5 });
  await assert.rejects(s.putEncoded(wrongDepth, { parent: { key: head.key, depth: 1 } }), /did not offer/);
}, 2));

test('a payload that is not the one its record names is refused before anything is written', () => withStore(async (s) => {
  const h = await checked(image(1, 2, 9));
  const swapped: CheckedHeap = { ...h, payload: new Uint8Array([1, 2, 3]) };
  await assert.rejects(s.putEncoded(swapped, { parent: null }), /the heap record names payload/);
  await assert.rejects(s.get(h.key), /not found/);
}));

test('checkHeapBlobs: size caps and the record\'s shape', async () => {
  const e = await encodeHeap(image(1, 4, 2), undefined);
  assert.match(String(checkHeapBlobs(e, 2 * IMAGE_PAGE_BYTES)), /heap image holds 262144 bytes, more than the execution's heap cap allows/);
  assert.match(String(checkHeapBlobs({ record: e.record, payload: new Uint8Array(4 * IMAGE_PAGE_BYTES) }, 2 * IMAGE_PAGE_BYTES)), /heap payload is \d+ bytes/);
  assert.match(String(checkHeapBlobs({ record: new Uint8Array(MAX_RECORD_BYTES + 1), payload: e.payload }, MAX_IMAGE)), /heap record is \d+ bytes/);
  assert.match(String(checkHeapBlobs({ record: Buffer.from('{"type":"x"}'), payload: e.payload }, MAX_IMAGE)), /not a heap record/);
  const badManifest = Buffer.from(Buffer.from(e.record).toString().replace('"pages":6', '"pages":0'));
  assert.match(String(checkHeapBlobs({ record: badManifest, payload: e.payload }, MAX_IMAGE)), /page count is malformed/);
  const ok = checkHeapBlobs(e, MAX_IMAGE);
  assert.ok(typeof ok !== 'string' && ok.imageBytes === 4 * IMAGE_PAGE_BYTES && ok.key === e.key);
});

test('the version 2 image hash is the same computed inline and on the thread pool (across its batches of pages)', async () => {
  const img = image(1, 257, 3, { [256 * IMAGE_PAGE_BYTES + 1]: 7 });
  assert.equal(await heapImageHashAsync(img), heapImageHash(img).key);
  assert.notEqual(heapImageHash(img).key, heapImageHash(image(1, 257, 3)).key);
});
