// The worker's reuse of captured images' buffers (worker/runtime/image-buffers.ts): only buffers
// it handed out come back, each once; a capture gets a view of exactly its size at the start of a
// free buffer whose capacity holds it (within a grain), and prepare() readies one ahead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CAPACITY_GRAIN, ImageBuffers, PREPARE_MAX_BYTES, capacityFor } from '../../../worker/runtime/image-buffers.ts';
import type { HeapImage } from '../../../shared/heap-image.ts';

const MiB = 1024 * 1024;

function imageOf(bytes: Uint8Array): HeapImage {
  return { manifest: {} as HeapImage['manifest'], bytes };
}

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

test('a new buffer has room up to the next whole MiB; the capture gets a view of exactly its size', () => {
  assert.equal(CAPACITY_GRAIN, MiB);
  assert.equal(capacityFor(1), MiB);
  assert.equal(capacityFor(MiB - 1), MiB);
  assert.equal(capacityFor(MiB), 2 * MiB, 'an exact multiple still gets room to grow');
  assert.equal(capacityFor(3_200_000), 4 * MiB);
  const buffers = new ImageBuffers();
  const a = buffers.take(3_200_000);
  assert.equal(a.byteLength, 3_200_000);
  assert.equal(a.byteOffset, 0);
  assert.equal(a.buffer.byteLength, 4 * MiB);
});

test('a released buffer serves the next capture that fits it, once, whatever its exact size', () => {
  const buffers = new ImageBuffers();
  const a = buffers.take(3_200_000);
  buffers.release(imageOf(a));
  buffers.release(imageOf(a));
  assert.equal(buffers.free, 1, 'released twice, kept once');
  const grown = buffers.take(3_265_536);
  assert.equal(grown.buffer, a.buffer, 'a heap a page larger reuses the buffer');
  assert.equal(grown.byteLength, 3_265_536);
  assert.equal(buffers.free, 0);
  assert.notEqual(buffers.take(3_200_000).buffer, a.buffer, 'handed out again only after another release');
  buffers.release(imageOf(grown));
  assert.equal(buffers.take(3_100_000).buffer, a.buffer, 'a smaller heap too');
});

test('a buffer far larger than the capture, or too small for it, is not used', () => {
  const buffers = new ImageBuffers();
  const big = buffers.take(20 * MiB);
  const small = buffers.take(MiB / 2);
  buffers.release(imageOf(big));
  buffers.release(imageOf(small));
  const mid = buffers.take(3 * MiB);
  assert.notEqual(mid.buffer, big.buffer, '21 MiB for a 3 MiB capture wastes more than a grain');
  assert.notEqual(mid.buffer, small.buffer);
  assert.equal(buffers.free, 2);
  // Within a grain beyond a new buffer's capacity: 4 MiB would be new, 5 MiB is still taken.
  const five = buffers.take(4 * MiB + 1);
  buffers.release(imageOf(five));
  assert.equal(buffers.take(3 * MiB).buffer, five.buffer);
});

test('the smallest fitting free buffer is taken', () => {
  const buffers = new ImageBuffers();
  const [x, y] = [buffers.take(3.5 * MiB), buffers.take(2.5 * MiB)];
  buffers.release(imageOf(x));
  buffers.release(imageOf(y));
  assert.equal(buffers.take(2 * MiB).buffer, y.buffer);
  assert.equal(buffers.take(2 * MiB).buffer, x.buffer);
});

test('buffers it did not hand out, and views not at the start of one, are never reused', () => {
  const buffers = new ImageBuffers();
  buffers.release(imageOf(new Uint8Array(1024)));
  assert.equal(buffers.free, 0);
  const taken = buffers.take(4096);
  buffers.release(imageOf(taken.subarray(1024)));
  assert.equal(buffers.free, 0);
  buffers.release(imageOf(taken.subarray(0, 1024)));
  assert.equal(buffers.free, 1, 'a view at the start of a buffer it handed out returns the whole buffer');
  assert.equal(buffers.take(4096).byteLength, 4096);
});

test('at most two free buffers are kept, the most recently released', () => {
  const buffers = new ImageBuffers();
  const [x, y, z] = [buffers.take(MiB / 2), buffers.take(2.5 * MiB), buffers.take(5.5 * MiB)];
  for (const b of [x, y, z]) buffers.release(imageOf(b));
  assert.equal(buffers.free, 2);
  assert.notEqual(buffers.take(MiB / 2).buffer, x.buffer);
  assert.equal(buffers.take(2.5 * MiB).buffer, y.buffer);
  assert.equal(buffers.take(5.5 * MiB).buffer, z.buffer);
});

test('prepare() readies a buffer over several event-loop turns, for the next capture of about that size', async () => {
  const buffers = new ImageBuffers();
  buffers.prepare(3_200_000);
  assert.equal(buffers.preparing, true);
  assert.equal(buffers.free, 0, 'touched a slice per turn, not at once');
  buffers.prepare(3_200_000);
  for (let i = 0; i < 64 && buffers.preparing; i++) await turn();
  assert.equal(buffers.preparing, false);
  assert.equal(buffers.free, 1, 'one buffer, however often it was asked for');
  const a = buffers.take(3_300_000);
  assert.equal(a.buffer.byteLength, 4 * MiB);
  assert.equal(buffers.free, 0);
  buffers.release(imageOf(a));
  buffers.prepare(3_200_000);
  assert.equal(buffers.preparing, false, 'nothing to prepare while a free buffer fits');
  assert.equal(PREPARE_MAX_BYTES, 16 * MiB);
  buffers.prepare(PREPARE_MAX_BYTES + 1);
  assert.equal(buffers.preparing, false, 'nor for a capture larger than PREPARE_MAX_BYTES');
});

test('a capture while prepare() is still touching takes that buffer, and the touching stops', async () => {
  const buffers = new ImageBuffers();
  buffers.prepare(3 * MiB);
  await turn();
  assert.equal(buffers.preparing, true);
  const a = buffers.take(3 * MiB);
  assert.equal(a.buffer.byteLength, 4 * MiB);
  assert.equal(buffers.preparing, false);
  a.fill(7);
  for (let i = 0; i < 20; i++) await turn();
  assert.equal(buffers.free, 0, 'the taken buffer does not come back as free');
  assert.ok(a.every((b) => b === 7), 'nor is it written after it was taken');
  buffers.prepare(MiB);
  assert.equal(buffers.take(10 * MiB).buffer.byteLength, 11 * MiB, 'a capture the prepared buffer cannot hold gets a new one');
  assert.equal(buffers.preparing, true);
});
