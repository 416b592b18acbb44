// Deltas between two heap images. Between two runs of a session most 64 KiB pages are
// byte-identical and the rest change in a few places (a counter, a reference count; the
// benchmark's `counter++` step changes 13 pages in 1–32 bytes each and one in ≈ 5 KB), so a delta
// needs only the blocks that differ, each as `child XOR parent`. Two payload layouts exist
// (docs/heap-snapshots.md, "Storage layout"):
//
// - sparse (record version 3, written since 2026-11-24): a header listing the 4 KiB blocks of the
//   child's stored bytes that differ from their baseline — the same block of the parent's page of
//   the same number, or zeros when the parent lacks that page — then those blocks XORed with
//   their baseline. Unlisted blocks equal their baseline. zstd sees ≈ 80 KB instead of the whole
//   image (or of the 1 MB of changed pages), and the encoder writes only those blocks;
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

/** The grain of a sparse delta: 16 blocks per page. */
export const DELTA_BLOCK_BYTES = 4096;
const BLOCKS_PER_PAGE = IMAGE_PAGE_BYTES / DELTA_BLOCK_BYTES;
const ZERO_BLOCK = Buffer.alloc(DELTA_BLOCK_BYTES);

/**
 * Bytes before the first block of a sparse delta with `count` blocks: the count, the block indices
 * (u32 little-endian each, in the child's stored bytes), padded to 8 so blocks XOR 8 bytes at a time.
 */
function sparseHeaderBytes(count: number): number {
  return Math.ceil((4 + 4 * count) / 8) * 8;
}

/** Largest sparse delta (every block listed) for an image of `storedPages` pages: decompression's output bound. */
export function maxSparseDeltaBytes(storedPages: number): number {
  return sparseHeaderBytes(storedPages * BLOCKS_PER_PAGE) + storedPages * IMAGE_PAGE_BYTES;
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
  /** Child stored-block index, and the byte offset of its baseline block in the parent (-1: zeros). */
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
      for (let b = 0; b < BLOCKS_PER_PAGE; b++) {
        const c = at + b * DELTA_BLOCK_BYTES;
        const block = cb.subarray(c, c + DELTA_BLOCK_BYTES);
        const base = from === undefined ? -1 : from + b * DELTA_BLOCK_BYTES;
        if (!block.equals(base < 0 ? ZERO_BLOCK : pb.subarray(base, base + DELTA_BLOCK_BYTES))) changed.push([c / DELTA_BLOCK_BYTES, base]);
      }
    },
    build(alloc) {
      const header = sparseHeaderBytes(changed.length);
      const bytes = header + changed.length * DELTA_BLOCK_BYTES;
      const delta = alloc?.(bytes) ?? new Uint8Array(bytes);
      if (delta.byteLength !== bytes) throw new Error(`a delta buffer of ${delta.byteLength} bytes was given for ${bytes}`);
      // A reused buffer holds an earlier delta: the header's padding must read as zero; every block is overwritten below.
      delta.fill(0, 0, header);
      const view = new DataView(delta.buffer, delta.byteOffset, delta.byteLength);
      view.setUint32(0, changed.length, true);
      changed.forEach(([i, base], k) => {
        view.setUint32(4 + 4 * k, i, true);
        const to = header + k * DELTA_BLOCK_BYTES;
        const at = i * DELTA_BLOCK_BYTES;
        if (base < 0) delta.set(child.bytes.subarray(at, at + DELTA_BLOCK_BYTES), to);
        else xorInto(delta, to, child.bytes, at, parent.bytes, base, DELTA_BLOCK_BYTES);
      });
      return { delta, same };
    },
  };
}

/**
 * The sparse delta of `child` against `parent`. Identical pages are found with a memcmp (far
 * cheaper than an XOR pass) and left out; in the others, only the blocks that differ are XORed,
 * into `alloc`'s buffer when given.
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
  const blocks = pages.size * BLOCKS_PER_PAGE;
  if (delta.byteLength < 4) return 'its delta does not match its manifest';
  const view = new DataView(delta.buffer, delta.byteOffset, delta.byteLength);
  const count = view.getUint32(0, true);
  if (count > blocks) return 'its delta does not match its manifest';
  const header = sparseHeaderBytes(count);
  if (delta.byteLength !== header + count * DELTA_BLOCK_BYTES) return 'its delta does not match its manifest';
  const out = new Uint8Array(pages.size * IMAGE_PAGE_BYTES);
  const parentAt = pageOffsets(parent.manifest);
  for (const [page, at] of pages) {
    const from = parentAt.get(page);
    if (from !== undefined) out.set(parent.bytes.subarray(from, from + IMAGE_PAGE_BYTES), at);
  }
  let last = -1;
  for (let k = 0; k < count; k++) {
    const i = view.getUint32(4 + 4 * k, true);
    if (i <= last || i >= blocks) return 'its delta lists blocks out of order or beyond its manifest';
    last = i;
    xorInto(out, i * DELTA_BLOCK_BYTES, out, i * DELTA_BLOCK_BYTES, delta, header + k * DELTA_BLOCK_BYTES, DELTA_BLOCK_BYTES);
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
