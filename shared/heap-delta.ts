// Page-level deltas between two heap images. Between two runs of a session most 64 KiB pages are
// byte-identical and the rest change in a few places (GC churn), so a delta needs only the pages
// that differ, each as `child XOR parent` (almost all zeros: zstd shrinks it to a few hundred
// bytes). Two payload layouts exist (docs/heap-snapshots.md, "Storage layout"):
//
// - sparse (record version 3, written since 2026-11-24): a header listing the child's stored pages
//   that differ from the parent's, then those pages XORed with the parent's page of the same
//   number (verbatim when the parent lacks it). Unlisted pages equal the parent's. zstd sees a few
//   pages instead of the whole image, and the encoder allocates only those;
// - dense (record versions 1 and 2, still read): the child's whole stored-page layout, unchanged
//   pages XOR-zeroed.
//
// Both apply with only the child's manifest and the parent image.
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
 * Bytes before the first page of a sparse delta with `count` pages: the count, the page indices
 * (u32 little-endian each), padded to 8 so the pages XOR 8 bytes at a time.
 */
function sparseHeaderBytes(count: number): number {
  return Math.ceil((4 + 4 * count) / 8) * 8;
}

/** Largest sparse delta (every page listed) for an image of `storedPages` pages: decompression's output bound. */
export function maxSparseDeltaBytes(storedPages: number): number {
  return sparseHeaderBytes(storedPages) + storedPages * IMAGE_PAGE_BYTES;
}

/** A sparse delta and, for each of the child's stored pages, the stored index of the parent's page it equals (or -1). */
export interface SparseDelta {
  readonly delta: Uint8Array;
  /** What heap-image-hash.ts needs to reuse the parent's page hashes. */
  readonly same: Int32Array;
}

/**
 * Where a delta is built: a buffer of exactly `bytes` whose contents do not matter (every byte is
 * written). DeltaBuffer.take reuses one; absent, a fresh buffer.
 */
export type DeltaAlloc = (bytes: number) => Uint8Array;

/**
 * One buffer a worker builds its steps' deltas in, when each delta is consumed before the next is
 * asked for (heap-encode.ts compresses a small one inline, right away): a step's delta is ≈ 1 MB
 * in the benchmark, and a fresh allocation of that size per step costs page faults and garbage
 * collections. Deltas above `maxBytes` get a fresh buffer.
 */
export class DeltaBuffer {
  readonly #maxBytes: number;
  #buffer = new Uint8Array(0);

  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  readonly take: DeltaAlloc = (bytes) => {
    if (bytes > this.#maxBytes) return new Uint8Array(bytes);
    if (this.#buffer.byteLength < bytes) this.#buffer = new Uint8Array(bytes);
    return this.#buffer.subarray(0, bytes);
  };
}

/** Compares the child's pages with the parent's, one page per call; `build` then writes the delta of the pages that differ. */
function sparseWriter(child: HeapImage, parent: HeapImage): { readonly pages: Iterable<[number, number]>; compare(page: number, at: number): void; build(alloc?: DeltaAlloc): SparseDelta } {
  const parentAt = pageOffsets(parent.manifest);
  const cb = Buffer.from(child.bytes.buffer, child.bytes.byteOffset, child.bytes.byteLength);
  const pb = Buffer.from(parent.bytes.buffer, parent.bytes.byteOffset, parent.bytes.byteLength);
  const same = new Int32Array(child.bytes.byteLength / IMAGE_PAGE_BYTES);
  /** Child stored-page index, and the parent's byte offset of the same page number (-1: the parent lacks it). */
  const changed: [number, number][] = [];
  return {
    pages: pageOffsets(child.manifest),
    compare(page, at) {
      const i = at / IMAGE_PAGE_BYTES;
      const from = parentAt.get(page);
      if (from !== undefined && cb.subarray(at, at + IMAGE_PAGE_BYTES).equals(pb.subarray(from, from + IMAGE_PAGE_BYTES))) {
        same[i] = from / IMAGE_PAGE_BYTES;
        return;
      }
      same[i] = -1;
      changed.push([i, from ?? -1]);
    },
    build(alloc) {
      const header = sparseHeaderBytes(changed.length);
      const bytes = header + changed.length * IMAGE_PAGE_BYTES;
      const delta = alloc?.(bytes) ?? new Uint8Array(bytes);
      if (delta.byteLength !== bytes) throw new Error(`a delta buffer of ${delta.byteLength} bytes was given for ${bytes}`);
      // A reused buffer holds an earlier delta: the header's padding must read as zero; every page is overwritten below.
      delta.fill(0, 0, header);
      const view = new DataView(delta.buffer, delta.byteOffset, delta.byteLength);
      view.setUint32(0, changed.length, true);
      changed.forEach(([i, from], k) => {
        view.setUint32(4 + 4 * k, i, true);
        const to = header + k * IMAGE_PAGE_BYTES;
        const at = i * IMAGE_PAGE_BYTES;
        if (from < 0) delta.set(child.bytes.subarray(at, at + IMAGE_PAGE_BYTES), to);
        else xorInto(delta, to, child.bytes, at, parent.bytes, from, IMAGE_PAGE_BYTES);
      });
      return { delta, same };
    },
  };
}

/**
 * The sparse delta of `child` against `parent`. Identical pages are found with a memcmp (far
 * cheaper than an XOR pass) and left out; only the pages that differ are XORed, into `alloc`'s
 * buffer when given.
 */
export function sparseDelta(child: HeapImage, parent: HeapImage, alloc?: DeltaAlloc): SparseDelta {
  const w = sparseWriter(child, parent);
  for (const [page, at] of w.pages) w.compare(page, at);
  return w.build(alloc);
}

/** Pages compared between yields in sparseDeltaAsync (4 MiB: a few ms of work at most). */
const PAGES_PER_SLICE = 64;

/** sparseDelta for large images: the same bytes, yielding to the event loop between slices of pages. */
export async function sparseDeltaAsync(child: HeapImage, parent: HeapImage): Promise<Uint8Array> {
  const w = sparseWriter(child, parent);
  let n = 0;
  for (const [page, at] of w.pages) {
    if (++n % PAGES_PER_SLICE === 0) await new Promise<void>((r) => setImmediate(r));
    w.compare(page, at);
  }
  return w.build().delta;
}

/**
 * Inverse of sparseDelta: the child's page bytes from its sparse delta and the parent. Returns a
 * description of the problem instead when the delta does not fit the child's manifest (the
 * caller reports the heap as corrupt).
 */
export function applySparseDelta(childManifest: HeapImageManifest, delta: Uint8Array, parent: HeapImage): Uint8Array | string {
  const pages = pageOffsets(childManifest);
  const stored = pages.size;
  if (delta.byteLength < 4) return 'its delta does not match its manifest';
  const view = new DataView(delta.buffer, delta.byteOffset, delta.byteLength);
  const count = view.getUint32(0, true);
  if (count > stored) return 'its delta does not match its manifest';
  const header = sparseHeaderBytes(count);
  if (delta.byteLength !== header + count * IMAGE_PAGE_BYTES) return 'its delta does not match its manifest';
  const out = new Uint8Array(stored * IMAGE_PAGE_BYTES);
  const parentAt = pageOffsets(parent.manifest);
  for (const [page, at] of pages) {
    const from = parentAt.get(page);
    if (from !== undefined) out.set(parent.bytes.subarray(from, from + IMAGE_PAGE_BYTES), at);
  }
  let last = -1;
  for (let k = 0; k < count; k++) {
    const i = view.getUint32(4 + 4 * k, true);
    if (i <= last || i >= stored) return 'its delta lists pages out of order or beyond its manifest';
    last = i;
    xorInto(out, i * IMAGE_PAGE_BYTES, out, i * IMAGE_PAGE_BYTES, delta, header + k * IMAGE_PAGE_BYTES, IMAGE_PAGE_BYTES);
  }
  return out;
}

/** Inverse of the dense delta of record versions 1 and 2: the child's page bytes from its delta and the parent (delta is modified in place). */
export function applyXorDelta(childManifest: HeapImageManifest, delta: Uint8Array, parent: HeapImage): Uint8Array {
  const parentAt = pageOffsets(parent.manifest);
  for (const [page, at] of pageOffsets(childManifest)) {
    const from = parentAt.get(page);
    if (from !== undefined) xorInto(delta, at, delta, at, parent.bytes, from, IMAGE_PAGE_BYTES);
  }
  return delta;
}
