// The framed supervisor ↔ worker channel: frames split anywhere across chunks decode whole and in
// order; a frame larger than the reader allows is refused from its header, before its body.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { encodeFrame, FrameDecoder, FrameViolation, writeFrame } from '../../../shared/frame-channel.ts';

test('frames split at every byte boundary decode whole, in order, bytes as Uint8Array', () => {
  const messages = [{ type: 'a', n: 1 }, { type: 'b', bytes: new Uint8Array([1, 2, 3]) }, '', { type: 'c', text: 'é'.repeat(1000) }];
  const stream = Buffer.concat(messages.map((m) => encodeFrame(m)));
  for (const step of [1, 2, 3, 7, 64, stream.byteLength]) {
    const got: unknown[] = [];
    const d = new FrameDecoder((m) => got.push(m), () => 1 << 20);
    for (let i = 0; i < stream.byteLength; i += step) d.push(stream.subarray(i, i + step));
    assert.deepEqual(got, messages);
    assert.equal(d.buffered, 0);
  }
});

test('an announced size over the bound is refused at the header; nothing after it is read', () => {
  const got: unknown[] = [];
  const d = new FrameDecoder((m) => got.push(m), () => 100);
  const header = Buffer.alloc(4);
  header.writeUInt32BE(101, 0);
  assert.throws(() => d.push(Buffer.concat([encodeFrame('ok'), header])), (e: unknown) => e instanceof FrameViolation && e.message === 'a message of 101 bytes was announced, more than the 100 bytes allowed now');
  assert.deepEqual(got, ['ok']);
  assert.equal(d.buffered, 0, 'no body was allocated');
  d.push(encodeFrame('later'));
  assert.deepEqual(got, ['ok'], 'a failed reader reads nothing more');
});

test('bytes that are not a V8-serialized value are a violation', () => {
  const d = new FrameDecoder(() => {}, () => 100);
  assert.throws(() => d.push(Buffer.from([0, 0, 0, 2, 0xff, 0xff])), (e: unknown) => e instanceof FrameViolation && e.message.startsWith('a message could not be decoded'));
});

test('writeFrame: small frames go out as one chunk, a large body uncopied behind its header; both decode', async () => {
  const chunks: Buffer[] = [];
  // A real stream with a vectored write, as a pipe socket has: corked writes arrive together.
  const sink = new Writable({
    writev(parts, cb) { for (const p of parts) chunks.push(p.chunk as Buffer); cb(); },
    write(chunk: Buffer, _enc, cb) { chunks.push(chunk); cb(); },
  });
  const big = { type: 'op-response', reqId: 7, ok: true, value: new Uint8Array(1 << 20).fill(9) };
  await new Promise<void>((resolve, reject) => {
    writeFrame(sink, { type: 'small', n: 1 });
    writeFrame(sink, big, (err) => (err ? reject(err) : resolve()));
  });
  assert.deepEqual(chunks.map((c) => c.byteLength), [encodeFrame({ type: 'small', n: 1 }).byteLength, 4, encodeFrame(big).byteLength - 4]);
  const got: unknown[] = [];
  const d = new FrameDecoder((m) => got.push(m), () => 2 << 20);
  for (const c of chunks) d.push(c);
  assert.deepEqual(got, [{ type: 'small', n: 1 }, big]);
});
