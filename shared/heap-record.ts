// The small JSON record a heap key names. The key is the sha256 of this record's bytes (it is a
// blob key), and the record pins the sha256 of the full image (`image`), so a key always restores
// exactly one state. The record holds no timestamp, so storing one image against one parent twice
// gives the same key (and writes nothing new). The page bytes live in a separate payload blob: either the whole image or an
// delta against `parent` (shared/heap-delta.ts), zstd-compressed.
import type { HeapImageManifest } from './heap-image.ts';

export const HEAP_RECORD_TYPE = 'runjs-heap';
/**
 * The version new records are written with; every earlier one is still read. Version 2
 * (2026-11-24) changed only what `image` hashes: version 1 hashes the whole image (image-store.ts
 * heapImageKey), version 2 its page hashes (heap-image-hash.ts), which a step's worker mostly
 * reuses from its parent. Version 3 (2026-11-24, later) hashes like version 2 and changed only a
 * delta's payload: sparse (the changed pages only) instead of dense (every page, unchanged ones
 * XOR-zeroed; shared/heap-delta.ts). A full payload is the same in all three.
 */
export const HEAP_RECORD_VERSION = 3;
const READ_VERSIONS: readonly unknown[] = [1, 2, 3];

export interface HeapRecord {
  readonly type: typeof HEAP_RECORD_TYPE;
  readonly version: 1 | 2 | 3;
  /** The reconstructed image's hash, checked after every restore: heapImageKey (version 1) or heapImageHash (versions 2 and 3). */
  readonly image: string;
  readonly manifest: HeapImageManifest;
  readonly encoding: 'full' | 'delta';
  /** Blob key of the zstd-compressed page bytes (full) or delta (dense in versions 1 and 2, sparse in 3). */
  readonly payload: string;
  /** Heap key of the image the delta applies to; null for full images. */
  readonly parent: string | null;
  /** Deltas between this image and the nearest full image (0 for a full image). */
  readonly depth: number;
}

const HEX64 = /^[0-9a-f]{64}$/;

/** Parses a record blob; returns a description of the first problem instead of throwing. */
export function parseHeapRecord(bytes: Uint8Array): HeapRecord | string {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch {
    return 'the heap record is not JSON (is the key a heap key?)';
  }
  if (typeof v !== 'object' || v === null) return 'the heap record is not an object';
  const r = v as Record<string, unknown>;
  if (r['type'] !== HEAP_RECORD_TYPE) return 'the stored object is not a heap record (is the key a heap key?)';
  if (!READ_VERSIONS.includes(r['version'])) return `heap record version ${String(r['version'])} is not supported`;
  if (typeof r['image'] !== 'string' || !HEX64.test(r['image'])) return 'the record\'s image hash is malformed';
  if (typeof r['payload'] !== 'string' || !HEX64.test(r['payload'])) return 'the record\'s payload key is malformed';
  if (r['encoding'] !== 'full' && r['encoding'] !== 'delta') return 'the record\'s encoding is unknown';
  const depth = r['depth'];
  if (typeof depth !== 'number' || !Number.isSafeInteger(depth) || depth < 0) return 'the record\'s depth is malformed';
  if (r['encoding'] === 'full' ? (r['parent'] !== null || depth !== 0) : (typeof r['parent'] !== 'string' || !HEX64.test(r['parent']) || depth === 0)) {
    return 'the record\'s parent and depth do not match its encoding';
  }
  if (typeof r['manifest'] !== 'object' || r['manifest'] === null) return 'the record has no image manifest';
  return v as HeapRecord;
}
