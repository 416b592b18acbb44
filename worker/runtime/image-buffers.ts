// Buffers of heap images this worker captured and no longer references, reused by its next
// captures. A step's capture copies the VM's stored pages (3.2 MB in the benchmark) into a new
// buffer; a fresh allocation of that size costs 2–5 ms of CPU on this machine (page faults on
// first touch, and the garbage collections that external memory of that size keeps triggering),
// a copy into a buffer already touched ≈ 0.1 ms (docs/benchmarks.md, branch `heapdelta`).
//
// Reuse must never change an image someone still reads: the worker host hands back only images
// it captured itself, at the end of a run (nothing of the run reads them any more), and only
// those its image cache no longer holds under any key. Images from elsewhere (the engine's base
// image, images the supervisor sent, views into a message's frame) are never taken: only buffers
// this class allocated are reused.
import type { HeapImage } from '../../shared/heap-image.ts';

/** Free buffers kept (each an image's size; a session's steps mostly have the same size). */
const MAX_FREE = 2;

export class ImageBuffers {
  readonly #free: Uint8Array[] = [];
  /** Buffers handed out by take() and not yet back: only these may return. */
  readonly #out = new WeakSet<ArrayBufferLike>();

  /** A buffer of exactly `bytes` for a capture: a free one of that size, else a new one. Its old contents are overwritten by the caller. */
  readonly take = (bytes: number): Uint8Array => {
    const i = this.#free.findIndex((b) => b.byteLength === bytes);
    const buffer = i >= 0 ? this.#free.splice(i, 1)[0]! : new Uint8Array(bytes);
    this.#out.add(buffer.buffer);
    return buffer;
  };

  /** `image` will never be read again: its buffer, if take() made it, serves a later capture. */
  release(image: HeapImage): void {
    const b = image.bytes;
    if (!this.#out.has(b.buffer) || b.byteOffset !== 0 || b.byteLength !== b.buffer.byteLength) return;
    this.#out.delete(b.buffer);
    this.#free.push(b);
    if (this.#free.length > MAX_FREE) this.#free.shift();
  }

  /** Free buffers held (for tests). */
  get free(): number {
    return this.#free.length;
  }
}
