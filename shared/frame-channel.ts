// The supervisor ↔ worker byte channel: length-prefixed frames over a pipe, each a message in V8's
// serialization format (what Node's "advanced" IPC uses, so Uint8Array payloads cross as bytes).
// It replaces Node's IPC channel because that one buffers a whole message, however large the
// length header says it is, before anyone can look at it: a compromised worker could announce a
// 4 GiB message and the supervisor would try to hold it. Here the reader learns a frame's size
// from its header and refuses it before reading the body when it exceeds what the reader allows
// at that moment (FrameDecoder's `maxFrameBytes`).
import { deserialize, serialize } from 'node:v8';
import type { Writable } from 'node:stream';

const HEADER_BYTES = 4;
/** The largest frame the format can describe (a u32 length). */
export const MAX_FRAME_FORMAT_BYTES = 0xffff_ffff;

export function encodeFrame(msg: unknown): Buffer {
  return frameOf(serialize(msg));
}

/** A serialized message behind its header, in one buffer. */
function frameOf(body: Buffer): Buffer {
  const frame = Buffer.allocUnsafe(HEADER_BYTES + body.byteLength);
  frame.writeUInt32BE(body.byteLength, 0);
  body.copy(frame, HEADER_BYTES);
  return frame;
}

/** Above this, a frame's body is written as it is instead of being copied behind its header. */
const COPY_BODY_BELOW = 64 * 1024;

/**
 * Writes one frame to `stream`. A large body (an artifact, a module bundle, a heap image) goes out
 * as V8's serialization buffer itself, corked behind its header, so the writer holds one copy of
 * the message instead of two while the pipe drains (encodeFrame's concatenation was the second).
 */
export function writeFrame(stream: Writable, msg: unknown, cb?: (err?: Error | null) => void): void {
  const body = serialize(msg);
  if (body.byteLength < COPY_BODY_BELOW) {
    stream.write(frameOf(body), cb);
    return;
  }
  const header = Buffer.allocUnsafe(HEADER_BYTES);
  header.writeUInt32BE(body.byteLength, 0);
  stream.cork();
  stream.write(header);
  stream.write(body, cb);
  stream.uncork();
}

/** Why a peer's bytes were refused; the reader stops for good after one. */
export class FrameViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FrameViolation';
  }
}

export class FrameDecoder {
  readonly #onMessage: (msg: unknown) => void;
  readonly #maxFrameBytes: () => number;
  readonly #header = Buffer.alloc(HEADER_BYTES);
  #headerFill = 0;
  #body: Buffer | undefined;
  #bodyFill = 0;
  #failed = false;

  /**
   * `maxFrameBytes` is asked at each frame's header: the largest body the reader accepts now
   * (it may depend on what the peer is doing, e.g. a run that will send a heap image).
   */
  constructor(onMessage: (msg: unknown) => void, maxFrameBytes: () => number) {
    this.#onMessage = onMessage;
    this.#maxFrameBytes = maxFrameBytes;
  }

  /** Bytes the decoder holds for a frame not yet complete. */
  get buffered(): number {
    return this.#headerFill + (this.#body?.byteLength ?? 0);
  }

  /** Feeds bytes from the pipe; throws FrameViolation (and refuses everything after) on a bad frame. */
  push(chunk: Buffer): void {
    if (this.#failed) return;
    let at = 0;
    while (at < chunk.byteLength) {
      if (this.#body === undefined) {
        const take = Math.min(HEADER_BYTES - this.#headerFill, chunk.byteLength - at);
        chunk.copy(this.#header, this.#headerFill, at, at + take);
        this.#headerFill += take;
        at += take;
        if (this.#headerFill < HEADER_BYTES) return;
        const size = this.#header.readUInt32BE(0);
        const max = this.#maxFrameBytes();
        if (size > max) this.#fail(`a message of ${size} bytes was announced, more than the ${max} bytes allowed now`);
        this.#body = Buffer.allocUnsafe(size);
        this.#bodyFill = 0;
        this.#headerFill = 0;
      }
      const take = Math.min(this.#body.byteLength - this.#bodyFill, chunk.byteLength - at);
      chunk.copy(this.#body, this.#bodyFill, at, at + take);
      this.#bodyFill += take;
      at += take;
      if (this.#bodyFill === this.#body.byteLength) {
        const body = this.#body;
        this.#body = undefined;
        let msg: unknown;
        try {
          msg = deserialize(body);
        } catch (e) {
          this.#fail(`a message could not be decoded (${e instanceof Error ? e.message : String(e)})`);
        }
        this.#onMessage(msg);
      }
    }
  }

  #fail(why: string): never {
    this.#failed = true;
    this.#body = undefined;
    this.#headerFill = 0;
    throw new FrameViolation(why);
  }
}
