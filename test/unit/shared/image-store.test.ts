// The heap image format and the in-memory image store: images survive encode/decode exactly,
// keys are content hashes, and malformed images are refused with a clear error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HeapImageError, IMAGE_PAGE_BYTES, pageRanges, parseHeapImage, type HeapImage } from '../../../shared/heap-image.ts';
import { MemoryImageStore, decodeHeapImage, encodeHeapImage, heapImageKey } from '../../../shared/image-store.ts';

function image(fill = 7, generation = 0): HeapImage {
  const bytes = new Uint8Array(3 * IMAGE_PAGE_BYTES).fill(fill);
  return {
    manifest: {
      format: 1, engine: 'quickjs', build: 'ab'.repeat(32), prelude: '0123456789abcdef', pages: 90,
      ranges: [[0, 2], [81, 1]], handles: { rt: 5333248, ctx: 5347968, internal: 5400000, bridge: 5400016, scratch: 5400032 }, generation,
    },
    bytes,
  };
}

test('pageRanges groups consecutive pages into [first, count] runs', () => {
  assert.deepEqual(pageRanges([0, 1, 2, 5, 81, 82, 90]), [[0, 3], [5, 1], [81, 2], [90, 1]]);
  assert.deepEqual(pageRanges([]), []);
});

test('an image round-trips through its blob encoding byte for byte', () => {
  const img = image();
  const back = decodeHeapImage(encodeHeapImage(img));
  assert.deepEqual(back.manifest, img.manifest);
  assert.deepEqual(Buffer.from(back.bytes), Buffer.from(img.bytes));
});

test('the key is the sha256 of the encoded image: equal states share a key, different ones do not', () => {
  assert.match(heapImageKey(image()), /^[0-9a-f]{64}$/);
  assert.equal(heapImageKey(image()), heapImageKey(image()));
  assert.notEqual(heapImageKey(image(7)), heapImageKey(image(8)));
  assert.notEqual(heapImageKey(image(7, 0)), heapImageKey(image(7, 1)));
});

test('the memory store puts, gets, checks and deletes by key, and keeps its own copy', async () => {
  const store = new MemoryImageStore();
  const img = image();
  const key = await store.put(img);
  assert.equal(key, heapImageKey(img));
  assert.equal(await store.put(image()), key, 'storing an equal image again is a no-op');
  assert.equal(store.size, 1);
  img.bytes.fill(0); // the caller reuses its buffer
  const got = await store.get(key);
  assert.ok(got);
  assert.equal(got.bytes[0], 7);
  assert.equal(await store.has(key), true);
  assert.equal(await store.delete(key), true);
  assert.equal(await store.delete(key), false);
  assert.equal(await store.get(key), undefined);
  assert.equal(await store.has(key), false);
});

test('malformed images are refused with the first problem', () => {
  const ok = image();
  const cases: [unknown, RegExp][] = [
    [null, /not an object/],
    [{ manifest: ok.manifest }, /bytes are missing/],
    [{ ...ok, manifest: { ...ok.manifest, format: 2 } }, /format 2 is not supported/],
    [{ ...ok, manifest: { ...ok.manifest, engine: 'v8' } }, /engine 'v8' is not supported/],
    [{ ...ok, manifest: { ...ok.manifest, build: 'xyz' } }, /build id is malformed/],
    [{ ...ok, manifest: { ...ok.manifest, pages: 0 } }, /page count is malformed/],
    [{ ...ok, manifest: { ...ok.manifest, ranges: [[2, 1], [0, 2]] } }, /overlap or exceed/],
    [{ ...ok, manifest: { ...ok.manifest, ranges: [[0, 2], [89, 2]] } }, /overlap or exceed/],
    [{ ...ok, bytes: ok.bytes.subarray(1) }, /holds 196607 bytes, its manifest lists 3 pages/],
    [{ ...ok, manifest: { ...ok.manifest, handles: { ...ok.manifest.handles, ctx: 3 } } }, /handle 'ctx' is malformed/],
    [{ ...ok, manifest: { ...ok.manifest, handles: { ...ok.manifest.handles, rt: 90 * IMAGE_PAGE_BYTES } } }, /handle 'rt' is malformed/],
  ];
  for (const [v, re] of cases) assert.throws(() => parseHeapImage(v), (e: unknown) => e instanceof HeapImageError && re.test(e.message), String(re));
  assert.throws(() => decodeHeapImage(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])), /Not a heap image blob/);
  assert.equal(parseHeapImage(ok), ok);
});
