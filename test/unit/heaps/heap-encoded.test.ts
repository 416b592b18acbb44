// Heaps encoded outside the store (by the worker that ran the step, shared/heap-encode.ts) and
// stored with HeapStore.putEncoded: the same keys as the store's own encoding, rebuilt exactly by
// another store, and a worker's blobs are checked — sizes, the record, the payload it names and a
// parent the run was offered — before anything is written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeapStore, type EncodeOffer } from '../../../supervisor/heaps/index.ts';
import { createBlobStore } from '../../../supervisor/stores/blob/index.ts';
import { checkHeapBlobs, encodeHeap, MAX_RECORD_BYTES, type CheckedHeap, type DeltaParent } from '../../../shared/heap-encode.ts';
import { HEAP_IMAGE_FORMAT, IMAGE_PAGE_BYTES, type HeapImage } from '../../../shared/heap-image.ts';
import { heapImageKey } from '../../../shared/image-store.ts';
import { DeltaScratch } from '../../../shared/heap-delta.ts';
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

test('a step encoded with a reused scratch buffer and its parent\'s page hashes is byte-identical to one encoded from nothing, step after step; without them it derives the parent\'s', async () => {
  const scratch = new DeltaScratch(MAX_IMAGE);
  // Each step changes a different page (and the third grows a page), so a page left dirty by an
  // earlier step, or a stale page hash, would show up in a later payload or key.
  let parent = image(1, 4, 5);
  let hashes = (await encodeHeap(parent, undefined)).pageHashes;
  for (const [i, next] of [image(2, 4, 5, { 10: 1 }), image(3, 4, 5, { [2 * IMAGE_PAGE_BYTES + 7]: 2 }), image(4, 5, 5, { 3: 3 })].entries()) {
    const offer: DeltaParent = { key: String(i).repeat(64), image: parent, depth: 1 };
    const reused = await encodeHeap(next, { ...offer, pageHashes: hashes }, scratch);
    const fresh = await encodeHeap(next, offer);
    assert.equal(reused.key, fresh.key);
    assert.deepEqual(reused.payload, fresh.payload);
    assert.deepEqual(reused.pageHashes, fresh.pageHashes);
    // Encoded without the parent's page hashes, the step derives them (for the parent's next child).
    assert.deepEqual(fresh.parentPageHashes, hashes);
    assert.equal(reused.parentPageHashes, undefined);
    parent = next;
    hashes = reused.pageHashes;
  }
});

test('a heap stored with a version 1 record (whole-image hash) still restores, verified; new records are version 2', () => withStore(async (s, dir) => {
  const img = image(1, 3, 7, { 5: 9 });
  const v2 = await encodeHeap(img, undefined);
  assert.equal(v2.parsed.version, 2);
  const blobs = createBlobStore({ backend: 'dir', dir });
  const v1 = Buffer.from(JSON.stringify({ ...v2.parsed, version: 1, image: heapImageKey(img) }));
  const key = await blobs.put(v1);
  await blobs.put(v2.payload);
  assert.equal(heapImageKey((await s.get(key)).image), heapImageKey(img));
  // A version 1 record whose hash does not match its image is corrupt, as before.
  const wrong = await blobs.put(Buffer.from(JSON.stringify({ ...v2.parsed, version: 1 })));
  await assert.rejects(s.get(wrong), /is corrupt and was not restored: the rebuilt image hashes to/);
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
