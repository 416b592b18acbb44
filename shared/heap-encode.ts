// How a heap image becomes the two blobs of a stored heap (docs/heap-snapshots.md, "Storage
// layout"): a zstd payload (the whole image, or its XOR delta against a parent image) and the JSON
// record naming the payload, the parent, the delta depth and the full image's hash; the heap key is
// the record's sha256. The worker that ran a step encodes its image here against the image it
// restored, and sends only the two blobs; the supervisor's HeapStore uses the same code for the
// images it stores itself. Both sides produce the same bytes for the same inputs, so keys agree.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { zstdCompress, zstdCompressSync, constants as zc, type ZstdOptions } from 'node:zlib';
import { HeapImageError, IMAGE_PAGE_BYTES, storedPages, type HeapImage } from './heap-image.ts';
import { heapImageHash, heapImageHashAsync, parentPageHashes } from './heap-image-hash.ts';
import { HEAP_RECORD_TYPE, HEAP_RECORD_VERSION, parseHeapRecord, type HeapRecord } from './heap-record.ts';
import { sparseDelta, sparseDeltaAsync, type DeltaBuffer } from './heap-delta.ts';

const ZSTD_LEVEL = 3;
const ZSTD_OPTIONS: ZstdOptions = { params: { [zc.ZSTD_c_compressionLevel]: ZSTD_LEVEL } };
const compress = promisify(zstdCompress) as (data: Uint8Array, opts: ZstdOptions) => Promise<Buffer>;
/**
 * Images above this size are encoded without blocking the event loop: the XOR yields between
 * slices, zstd and sha256 run on the libuv pool. Small images (the common step) are done inline,
 * where a thread-pool round trip would cost more than the work.
 */
export const LARGE_IMAGE_BYTES = 8 * 1024 * 1024;
/**
 * A step's sparse delta up to this size is compressed inline, in the caller's DeltaBuffer: the
 * benchmark's 16 changed pages (1 MB) take zstd ≈ 0.3 ms of CPU, less than the thread-pool round
 * trip plus a fresh buffer (the overlap with hashing a thread-pool zstd offers needs a free core,
 * which a loaded machine does not have). Larger ones compress on the pool while this thread hashes.
 */
export const INLINE_ZSTD_BYTES = 4 * 1024 * 1024;
/** A record is a few hundred bytes plus the manifest's page ranges (at most 32768 of them). */
export const MAX_RECORD_BYTES = 1024 * 1024;

/** A stored heap an image may be encoded against. */
export interface DeltaParent {
  readonly key: string;
  readonly image: HeapImage;
  /** The parent record's depth: the new heap sits one deeper. */
  readonly depth: number;
  /** The parent image's page hashes (EncodedHeap.pageHashes of its own encoding), when the caller kept them. */
  readonly pageHashes?: Uint8Array | undefined;
}

/** The two blobs of a stored heap, as they travel from a worker to the supervisor. */
export interface HeapBlobs {
  readonly record: Uint8Array;
  readonly payload: Uint8Array;
}

export interface EncodedHeap extends HeapBlobs {
  /** The heap key: sha256 of `record`. */
  readonly key: string;
  readonly parsed: HeapRecord;
  /** The image's page hashes (heap-image-hash.ts), for encoding its child against it cheaply; absent for large images. */
  readonly pageHashes?: Uint8Array;
  /** The parent's page hashes, derived when the caller had none (DeltaParent.pageHashes), for its next child. */
  readonly parentPageHashes?: Uint8Array;
}

/** sha256 (hex) of bytes: a blob key. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** sha256Hex on the libuv thread pool (WebCrypto), for large blobs. */
export async function sha256HexAsync(bytes: Uint8Array): Promise<string> {
  return Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('hex');
}

/**
 * `image` whole (no parent) or as a sparse delta against `parent` (shared/heap-delta.ts): the
 * payload, the record and the key. `buffer`: where a small delta is built (the worker keeps one,
 * DeltaBuffer); it is compressed before this returns, so the buffer is free again.
 */
export async function encodeHeap(image: HeapImage, parent: DeltaParent | undefined, buffer?: DeltaBuffer): Promise<EncodedHeap> {
  const full = parent === undefined;
  const large = image.bytes.byteLength > LARGE_IMAGE_BYTES;
  let payload: Uint8Array;
  let imageKey: string;
  let pageHashes: Uint8Array | undefined;
  let parentHashes: Uint8Array | undefined;
  if (large) {
    const raw = full ? image.bytes : await sparseDeltaAsync(image, parent.image);
    [payload, imageKey] = await Promise.all([compress(raw, ZSTD_OPTIONS), heapImageHashAsync(image)]);
  } else if (full) {
    payload = zstdCompressSync(image.bytes, ZSTD_OPTIONS);
    ({ key: imageKey, pageHashes } = heapImageHash(image));
  } else {
    // Only the pages that differ from the parent's are compressed, and only they are hashed (the
    // others' hashes are the parent's, when the caller kept them). A delta of many pages
    // compresses on the thread pool while this thread hashes, when a second core is free.
    // Built in `buffer` only when it is compressed inline, before anything else can take the buffer.
    const { delta, same } = sparseDelta(image, parent.image, buffer && ((bytes) => (bytes <= INLINE_ZSTD_BYTES ? buffer.take(bytes) : new Uint8Array(bytes))));
    const compressing = delta.byteLength <= INLINE_ZSTD_BYTES ? undefined : compress(delta, ZSTD_OPTIONS);
    try {
      const from = parent.pageHashes;
      ({ key: imageKey, pageHashes } = heapImageHash(image, from && { from, same: (i) => same[i]! }));
      if (from === undefined) parentHashes = parentPageHashes(parent.image, pageHashes, (i) => same[i]!);
    } catch (e) {
      await compressing?.catch(() => undefined);
      throw e;
    }
    payload = compressing === undefined ? zstdCompressSync(delta, ZSTD_OPTIONS) : await compressing;
  }
  const payloadKey = large ? await sha256HexAsync(payload) : sha256Hex(payload);
  const parsed: HeapRecord = {
    type: HEAP_RECORD_TYPE,
    version: HEAP_RECORD_VERSION,
    image: imageKey,
    manifest: image.manifest,
    encoding: full ? 'full' : 'delta',
    payload: payloadKey,
    parent: full ? null : parent.key,
    depth: full ? 0 : parent.depth + 1,
  };
  const record = Buffer.from(JSON.stringify(parsed), 'utf8');
  return { key: sha256Hex(record), record, payload, parsed, ...(pageHashes ? { pageHashes } : {}), ...(parentHashes ? { parentPageHashes: parentHashes } : {}) };
}

/** A heap's blobs from an untrusted sender, checked: the record parses; sizes are within `maxImageBytes`. */
export interface CheckedHeap extends EncodedHeap {
  /** Bytes of the full image the record describes (its stored pages). */
  readonly imageBytes: number;
}

/**
 * Checks blobs a worker sent: sizes first (the record at most MAX_RECORD_BYTES, the image it
 * describes and the payload at most `maxImageBytes`), then the record's shape and manifest.
 * HeapStore.putEncoded checks that the payload is the one the record names. What cannot be
 * checked without rebuilding the image (that the payload really rebuilds the image the record's
 * hash names) is checked on every read instead. Returns a description of the first problem
 * instead of throwing.
 */
export function checkHeapBlobs(blobs: HeapBlobs, maxImageBytes: number): CheckedHeap | string {
  if (blobs.record.byteLength > MAX_RECORD_BYTES) return `its heap record is ${blobs.record.byteLength} bytes, more than ${MAX_RECORD_BYTES}`;
  // zstd never expands by more than a small fraction (frame headers and raw blocks).
  if (blobs.payload.byteLength > maxImageBytes + (maxImageBytes >> 7) + 65536) return `its heap payload is ${blobs.payload.byteLength} bytes, more than the execution's heap cap allows`;
  const parsed = parseHeapRecord(blobs.record);
  if (typeof parsed === 'string') return parsed;
  let pages: number;
  try {
    pages = storedPages(parsed.manifest);
  } catch (e) {
    return e instanceof HeapImageError ? e.message : String(e);
  }
  const imageBytes = pages * IMAGE_PAGE_BYTES;
  if (imageBytes > maxImageBytes) return `its heap image holds ${imageBytes} bytes, more than the execution's heap cap allows`;
  return { key: sha256Hex(blobs.record), record: blobs.record, payload: blobs.payload, parsed, imageBytes };
}
