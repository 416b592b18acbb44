// Page-level XOR deltas between two heap images. Between two runs of a session most 64 KiB pages
// are byte-identical and the rest change in a few places (GC churn), so `child XOR parent` is
// almost all zeros and zstd shrinks it to a few KB. Pages the parent lacks are XORed with zeros
// (kept verbatim). The delta has exactly the child's stored-page layout, so applying it needs only
// the child's manifest and the parent image.
import type { HeapImage, HeapImageManifest } from './heap-image.ts';
import { IMAGE_PAGE_BYTES } from './heap-image.ts';

/** Offset of each stored page within `bytes`, by page number. */
function pageOffsets(manifest: HeapImageManifest): Map<number, number> {
  const out = new Map<number, number>();
  let at = 0;
  for (const [first, count] of manifest.ranges) {
    for (let p = first; p < first + count; p++, at += IMAGE_PAGE_BYTES) out.set(p, at);
  }
  return out;
}

/** XORs `len` bytes of `a` at `ao` with `b` at `bo` into `out` at `oo`, 8 bytes at a time where aligned. */
function xorInto(out: Uint8Array, oo: number, a: Uint8Array, ao: number, b: Uint8Array, bo: number, len: number): void {
  const aligned = (out.byteOffset + oo) % 8 === 0 && (a.byteOffset + ao) % 8 === 0 && (b.byteOffset + bo) % 8 === 0;
  if (aligned && len % 8 === 0) {
    const o64 = new BigUint64Array(out.buffer, out.byteOffset + oo, len / 8);
    const a64 = new BigUint64Array(a.buffer, a.byteOffset + ao, len / 8);
    const b64 = new BigUint64Array(b.buffer, b.byteOffset + bo, len / 8);
    for (let i = 0; i < o64.length; i++) o64[i] = a64[i]! ^ b64[i]!;
    return;
  }
  for (let i = 0; i < len; i++) out[oo + i] = a[ao + i]! ^ b[bo + i]!;
}

/**
 * `child XOR parent`, page by page over the child's stored pages. Identical pages are left zero
 * without an XOR pass (a memcmp is far cheaper), which is most of them.
 */
export function xorDelta(child: HeapImage, parent: HeapImage, scratch?: DeltaScratch): Uint8Array {
  return xorDeltaMatching(child, parent, scratch).delta;
}

/**
 * xorDelta, and for each of the child's stored pages (in order) the stored index of the parent's
 * page it equals byte for byte, or -1: what heap-image-hash.ts needs to reuse the parent's page hashes.
 */
export function xorDeltaMatching(child: HeapImage, parent: HeapImage, scratch?: DeltaScratch): { readonly delta: Uint8Array; readonly same: Int32Array } {
  const d = deltaWriter(child, parent, scratch);
  const same = new Int32Array(child.bytes.byteLength / IMAGE_PAGE_BYTES);
  for (const [page, at] of pageOffsets(child.manifest)) same[at / IMAGE_PAGE_BYTES] = d.page(page, at);
  return { delta: d.out, same };
}

/**
 * A zeroed buffer xorDelta writes its delta into instead of allocating one per step. A fresh
 * 2.8 MB allocation costs ≈ 1.5 ms of page faults on this machine, more than the memcmp of the
 * whole image; between two steps only a few pages are written, and only those are zeroed again
 * (`release`). One delta at a time: the caller releases it once the delta is compressed, and a
 * delta asked for while it is held gets a fresh buffer. Kept only for images up to `maxBytes`.
 */
export class DeltaScratch {
  readonly #maxBytes: number;
  #buffer = new Uint8Array(0);
  #held = false;
  /** Offsets of the pages written since the buffer was last zeroed. */
  #written: number[] = [];

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /** A zeroed buffer of `bytes` (this one, or a fresh one when it is held or `bytes` is too large). */
  take(bytes: number): { readonly out: Uint8Array; wrote(at: number): void } {
    if (this.#held || bytes > this.#maxBytes) return { out: new Uint8Array(bytes), wrote: () => {} };
    this.#held = true;
    if (this.#buffer.byteLength < bytes) {
      this.#buffer = new Uint8Array(bytes);
      this.#written = [];
    }
    return { out: this.#buffer.subarray(0, bytes), wrote: (at) => { this.#written.push(at); } };
  }

  /** The delta taken from this scratch is no longer read: zero what it wrote, for the next one. */
  release(delta: Uint8Array): void {
    if (!this.#held || delta.buffer !== this.#buffer.buffer) return;
    for (const at of this.#written) this.#buffer.fill(0, at, at + IMAGE_PAGE_BYTES);
    this.#written = [];
    this.#held = false;
  }
}

/** The per-page step of xorDelta and xorDeltaAsync: a new page verbatim, a changed one XORed, an equal one left zero. */
function deltaWriter(child: HeapImage, parent: HeapImage, scratch?: DeltaScratch): { readonly out: Uint8Array; page(page: number, at: number): number } {
  const taken = scratch?.take(child.bytes.byteLength);
  const out = taken?.out ?? new Uint8Array(child.bytes.byteLength);
  const parentAt = pageOffsets(parent.manifest);
  const cb = Buffer.from(child.bytes.buffer, child.bytes.byteOffset, child.bytes.byteLength);
  const pb = Buffer.from(parent.bytes.buffer, parent.bytes.byteOffset, parent.bytes.byteLength);
  return {
    out,
    page(page, at) {
      const from = parentAt.get(page);
      if (from === undefined) {
        out.set(child.bytes.subarray(at, at + IMAGE_PAGE_BYTES), at);
        taken?.wrote(at);
      } else if (!cb.subarray(at, at + IMAGE_PAGE_BYTES).equals(pb.subarray(from, from + IMAGE_PAGE_BYTES))) {
        xorInto(out, at, child.bytes, at, parent.bytes, from, IMAGE_PAGE_BYTES);
        taken?.wrote(at);
      } else {
        return from / IMAGE_PAGE_BYTES;
      }
      return -1;
    },
  };
}

/** Pages XORed between yields in xorDeltaAsync (4 MiB: a few ms of work). */
const PAGES_PER_SLICE = 64;

/** xorDelta for large images: the same bytes, yielding to the event loop between slices of pages. */
export async function xorDeltaAsync(child: HeapImage, parent: HeapImage): Promise<Uint8Array> {
  const d = deltaWriter(child, parent);
  let n = 0;
  for (const [page, at] of pageOffsets(child.manifest)) {
    if (++n % PAGES_PER_SLICE === 0) await new Promise<void>((r) => setImmediate(r));
    d.page(page, at);
  }
  return d.out;
}

/** Inverse of xorDelta: the child's page bytes from its delta and the parent (delta is modified in place). */
export function applyXorDelta(childManifest: HeapImageManifest, delta: Uint8Array, parent: HeapImage): Uint8Array {
  const parentAt = pageOffsets(parent.manifest);
  for (const [page, at] of pageOffsets(childManifest)) {
    const from = parentAt.get(page);
    if (from !== undefined) xorInto(delta, at, delta, at, parent.bytes, from, IMAGE_PAGE_BYTES);
  }
  return delta;
}
