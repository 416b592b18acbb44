// Buffers of heap images this worker captured and no longer references, reused by its next
// captures. A step's capture copies the VM's stored pages (3.2 MB in the benchmark) into a
// buffer; a fresh allocation of that size costs 15-30 ms of CPU on this machine (≈ 800 page
// faults on first touch, each one expensive in this VM, and the garbage collections that external
// memory of that size keeps triggering), a copy into a buffer already touched ≈ 0.1 ms
// (docs/benchmarks.md, branch `heapdelta` and "Changes of 2026-11-25: capture buffers and page faults").
//
// Reuse must never change an image someone still reads: the worker host hands back only images
// it captured itself, at the end of a run (nothing of the run reads them any more), and only
// those its image cache no longer holds under any key. Images from elsewhere (the engine's base
// image, images the supervisor sent, views into a message's frame) are never taken: only buffers
// this class allocated are reused.
import type { HeapImage } from '../../shared/heap-image.ts';

/** Free buffers kept (a session's steps mostly need the same capacity class). */
const MAX_FREE = 2;

/**
 * Buffers are made in whole MiB with room to spare, and a capture takes a view of the size it
 * needs: a session whose heap grows or shrinks by a few 64 KiB pages between steps (any session
 * that keeps adding state) is served from the buffer its previous step freed, instead of faulting
 * in a new one per step (≈ 900 page faults and 20-30 ms of CPU for a 3.2 MB image on this
 * machine: docs/benchmarks.md, "Changes of 2026-11-25: capture buffers and page faults").
 */
export const CAPACITY_GRAIN = 1024 * 1024;

/** The capacity a new buffer gets for a capture of `bytes`: the next whole MiB above it. */
export function capacityFor(bytes: number): number {
  return (Math.floor(bytes / CAPACITY_GRAIN) + 1) * CAPACITY_GRAIN;
}

/** Bytes touched per event-loop turn while a buffer is prepared (64 pages: a millisecond or two). */
const TOUCH_SLICE = 256 * 1024;

/**
 * The largest capture prepare() readies a buffer for. A worker's image cache fills up (and then
 * frees a buffer at every step) within a few steps of images this size or larger, and a buffer
 * made ahead is memory the worker holds while idle.
 */
export const PREPARE_MAX_BYTES = 16 * 1024 * 1024;

export class ImageBuffers {
  readonly #free: Uint8Array[] = [];
  /** Buffers handed out by take() and not yet back, by their ArrayBuffer: only these may return. */
  readonly #out = new WeakMap<ArrayBufferLike, Uint8Array>();
  /** A buffer prepare() is touching, a slice per event-loop turn, until done or taken. */
  #preparing: Uint8Array | undefined;

  /**
   * A view of exactly `bytes` at the start of a buffer for a capture: the smallest free one that
   * holds it without wasting more than a grain beyond a new buffer's capacity, else a new one. Its
   * old contents are overwritten by the caller.
   */
  readonly take = (bytes: number): Uint8Array => {
    const best = this.#fitting(bytes);
    let buffer: Uint8Array;
    if (best >= 0) {
      buffer = this.#free.splice(best, 1)[0]!;
    } else if (this.#preparing !== undefined && fits(this.#preparing, bytes)) {
      // Half touched is still fewer faults on the capture's path; the copy touches the rest.
      buffer = this.#preparing;
      this.#preparing = undefined;
    } else {
      buffer = new Uint8Array(capacityFor(bytes));
    }
    this.#out.set(buffer.buffer, buffer);
    return buffer.subarray(0, bytes);
  };

  /**
   * Readies a buffer for the next capture of about `bytes` when no free one fits: made now and its
   * pages touched a slice per event-loop turn, while the worker waits for its next run (a run
   * that arrives meanwhile goes first between slices). Free buffers come from images the cache
   * evicts; a cache still filling up (a new worker's first steps) evicts none, and each of those
   * captures would otherwise fault its whole buffer in on the step's path.
   */
  prepare(bytes: number): void {
    if (bytes > PREPARE_MAX_BYTES || this.#preparing !== undefined || this.#fitting(bytes) >= 0) return;
    const buffer = new Uint8Array(capacityFor(bytes));
    this.#preparing = buffer;
    let touched = 0;
    const touch = (): void => {
      if (this.#preparing !== buffer) return; // taken by a capture
      const end = Math.min(buffer.byteLength, touched + TOUCH_SLICE);
      buffer.fill(0, touched, end);
      touched = end;
      if (end < buffer.byteLength) {
        setImmediate(touch);
        return;
      }
      this.#preparing = undefined;
      this.#keepFree(buffer);
    };
    setImmediate(touch);
  }

  /** Index of the smallest free buffer that holds `bytes` without wasting more than a grain beyond a new one's capacity; -1 when none. */
  #fitting(bytes: number): number {
    let best = -1;
    this.#free.forEach((b, i) => {
      if (fits(b, bytes) && (best < 0 || b.byteLength < this.#free[best]!.byteLength)) best = i;
    });
    return best;
  }

  #keepFree(buffer: Uint8Array): void {
    this.#free.push(buffer);
    if (this.#free.length > MAX_FREE) this.#free.shift();
  }

  /** `image` will never be read again: its buffer, if take() made it, serves a later capture. */
  release(image: HeapImage): void {
    const b = image.bytes;
    const whole = this.#out.get(b.buffer);
    if (whole === undefined || b.byteOffset !== 0) return;
    this.#out.delete(b.buffer);
    this.#keepFree(whole);
  }

  /** Free buffers held (for tests). */
  get free(): number {
    return this.#free.length;
  }

  /** Whether prepare() is still touching a buffer (for tests). */
  get preparing(): boolean {
    return this.#preparing !== undefined;
  }
}

function fits(buffer: Uint8Array, bytes: number): boolean {
  return buffer.byteLength >= bytes && buffer.byteLength <= capacityFor(bytes) + CAPACITY_GRAIN;
}
