// The worker's reuse of captured images' buffers (worker/runtime/image-buffers.ts): only buffers
// it handed out come back, each once, and a capture gets one only of exactly its size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ImageBuffers } from '../../../worker/runtime/image-buffers.ts';
import type { HeapImage } from '../../../shared/heap-image.ts';

function imageOf(bytes: Uint8Array): HeapImage {
  return { manifest: {} as HeapImage['manifest'], bytes };
}

test('a released buffer serves the next capture of its size, once; other sizes get new buffers', () => {
  const buffers = new ImageBuffers();
  const a = buffers.take(1024);
  assert.equal(a.byteLength, 1024);
  buffers.release(imageOf(a));
  buffers.release(imageOf(a));
  assert.equal(buffers.free, 1, 'released twice, kept once');
  const b = buffers.take(2048);
  assert.notEqual(b.buffer, a.buffer);
  const c = buffers.take(1024);
  assert.equal(c.buffer, a.buffer);
  assert.equal(buffers.free, 0);
  assert.notEqual(buffers.take(1024).buffer, a.buffer, 'handed out again only after another release');
});

test('buffers it did not hand out, and views into larger buffers, are never reused', () => {
  const buffers = new ImageBuffers();
  buffers.release(imageOf(new Uint8Array(1024)));
  const taken = buffers.take(4096);
  buffers.release(imageOf(taken.subarray(0, 1024)));
  assert.equal(buffers.free, 0);
  buffers.release(imageOf(taken));
  assert.equal(buffers.free, 1);
});

test('at most two free buffers are kept, the most recently released', () => {
  const buffers = new ImageBuffers();
  const [x, y, z] = [buffers.take(10), buffers.take(20), buffers.take(30)];
  for (const b of [x, y, z]) buffers.release(imageOf(b));
  assert.equal(buffers.free, 2);
  assert.notEqual(buffers.take(10).buffer, x.buffer);
  assert.equal(buffers.take(20).buffer, y.buffer);
  assert.equal(buffers.take(30).buffer, z.buffer);
});
