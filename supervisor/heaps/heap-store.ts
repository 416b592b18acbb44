// Heap images over the content-addressed blob store, stored compactly. A stored heap is two blobs:
// a zstd payload (the whole image, or an XOR delta against the image it was restored from) and a
// small JSON record naming the payload, the parent and the full image's hash. The heap key is the
// record's blob key. Deltas chain at most MAX_DELTA_DEPTH deep, then a full image is written, so
// no restore replays a long chain. Everything read is verified: blob hashes by the blob store, the
// rebuilt image against the record's `image` hash. A failure is an error naming the key.
import { promisify } from 'node:util';
import { zstdCompress, zstdCompressSync, zstdDecompress, constants as zc, type ZstdOptions } from 'node:zlib';
import { HeapImageError, IMAGE_PAGE_BYTES, parseHeapImage, type HeapImage, type HeapImageManifest } from '../../shared/heap-image.ts';
import { heapImageKey, heapImageKeyAsync } from '../../shared/image-store.ts';
import { BlobCorruptError, blobKeyOf, isBlobKey, type BlobStore } from '../stores/blob/index.ts';
import { HeapCorruptError, HeapNotFoundError } from './heap-errors.ts';
import { HEAP_RECORD_TYPE, HEAP_RECORD_VERSION, parseHeapRecord, type HeapRecord } from './heap-record.ts';
import { applyXorDelta, xorDelta, xorDeltaAsync } from './heap-delta.ts';

/** Longest delta chain a restore may replay (a full image is stored instead beyond it). */
export const MAX_DELTA_DEPTH = 8;
/** Decoded images kept in memory: the parent of the next capture is usually the image just restored. */
const DEFAULT_CACHE_BYTES = 256 * 1024 * 1024;
const ZSTD_LEVEL = 3;
// Restores (a cold key: payload read from the store) decompress and verify on the libuv thread
// pool, so a fan-out restoring several keys at once does not serialise on the event loop.
const decompress = promisify(zstdDecompress) as (data: Uint8Array, opts: ZstdOptions) => Promise<Buffer>;
const compress = promisify(zstdCompress) as (data: Uint8Array, opts: ZstdOptions) => Promise<Buffer>;
/** blobKeyOf on the thread pool (WebCrypto digests run off the event loop). */
async function blobKeyOfAsync(bytes: Uint8Array): Promise<string> {
  return Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('hex');
}
/** Images above this size are stored without blocking the event loop (see #write). */
const LARGE_IMAGE_BYTES = 8 * 1024 * 1024;

export interface HeapStoreOptions {
  readonly blobs: BlobStore;
  /**
   * The engine's base image for an image's build and prelude (what every fresh run boots from),
   * when this process can read it. An image with no usable parent is stored as a delta against it
   * (the base itself is stored once, as a full heap: same image, same key, put-if-absent), so a
   * fresh run costs a few KB instead of a full ~190 KB image.
   */
  readonly baseImage?: ((manifest: HeapImageManifest) => HeapImage | undefined) | undefined;
  readonly cacheBytes?: number;
  readonly maxDeltaDepth?: number;
}

export interface StoredHeap {
  readonly key: string;
  readonly image: HeapImage;
  readonly record: HeapRecord;
}

/** What a put wrote, for benchmarks and logs. */
export interface PutResult {
  readonly key: string;
  readonly encoding: 'full' | 'delta';
  /** Bytes of the payload and record blobs written (before put-if-absent dedup). */
  readonly bytesWritten: number;
}

export function isHeapKey(key: unknown): key is string {
  return isBlobKey(key);
}

export class HeapStore {
  readonly #blobs: BlobStore;
  readonly #cacheBytes: number;
  readonly #maxDepth: number;
  /** Least recently used first. */
  readonly #cache = new Map<string, StoredHeap>();
  #cached = 0;
  /** Restores in flight by key: a fan-out of runs from one key fetches and rebuilds it once. */
  readonly #loading = new Map<string, Promise<StoredHeap>>();
  readonly #baseImage: HeapStoreOptions['baseImage'];
  /** The stored base heap per engine build and prelude (undefined: none available). */
  readonly #bases = new Map<string, Promise<StoredHeap | undefined>>();

  constructor(opts: HeapStoreOptions) {
    this.#blobs = opts.blobs;
    this.#baseImage = opts.baseImage;
    this.#cacheBytes = opts.cacheBytes ?? DEFAULT_CACHE_BYTES;
    this.#maxDepth = opts.maxDeltaDepth ?? MAX_DELTA_DEPTH;
  }

  get location(): string {
    return this.#blobs.location;
  }

  /** The heap under `key`; HeapNotFoundError when absent, HeapCorruptError when it fails verification. */
  async get(key: string): Promise<StoredHeap> {
    const hit = this.#cache.get(key);
    if (hit) {
      this.#cache.delete(key);
      this.#cache.set(key, hit);
      return hit;
    }
    let loading = this.#loading.get(key);
    if (!loading) {
      loading = this.#load(key, 0).finally(() => this.#loading.delete(key));
      this.#loading.set(key, loading);
    }
    return loading;
  }

  async has(key: string): Promise<boolean> {
    return this.#cache.has(key) || (isHeapKey(key) && await this.#blobs.has(key));
  }

  async #load(key: string, hops: number): Promise<StoredHeap> {
    if (!isHeapKey(key)) throw new HeapNotFoundError(String(key));
    const recordBytes = await this.#read(key, key);
    if (recordBytes === undefined) throw new HeapNotFoundError(key);
    const record = parseHeapRecord(recordBytes);
    if (typeof record === 'string') throw new HeapCorruptError(key, record);
    if (record.depth > this.#maxDepth + 1 || hops > this.#maxDepth + 1) throw new HeapCorruptError(key, `its delta chain is longer than ${this.#maxDepth}`);
    const payload = await this.#read(key, record.payload);
    if (payload === undefined) throw new HeapCorruptError(key, `its payload blob ${record.payload} is missing`);
    const stored = record.manifest.ranges.reduce((n, r) => n + (Array.isArray(r) && typeof r[1] === 'number' ? r[1] : 0), 0) * IMAGE_PAGE_BYTES;
    let bytes: Uint8Array;
    try {
      // The output bound stops a hostile payload from decompressing into gigabytes.
      bytes = await decompress(payload, { maxOutputLength: Math.max(1, stored) });
    } catch (e) {
      throw new HeapCorruptError(key, `its payload does not decompress: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (record.encoding === 'delta') {
      let parent: StoredHeap;
      try {
        parent = await this.#cachedOr(record.parent!, () => this.#load(record.parent!, hops + 1));
      } catch (e) {
        if (e instanceof HeapNotFoundError) throw new HeapCorruptError(key, `its parent heap ${record.parent} is missing`);
        // Name the key that was asked for; the damaged ancestor is the detail.
        if (e instanceof HeapCorruptError && e.key !== key) throw HeapCorruptError.ofAncestor(key, e);
        throw e;
      }
      if (parent.record.depth !== record.depth - 1) throw new HeapCorruptError(key, 'its depth does not follow its parent\'s');
      if (bytes.byteLength !== stored) throw new HeapCorruptError(key, 'its delta does not match its manifest');
      bytes = applyXorDelta(record.manifest, bytes, parent.image);
    }
    let image: HeapImage;
    try {
      image = parseHeapImage({ manifest: record.manifest, bytes });
    } catch (e) {
      throw new HeapCorruptError(key, e instanceof HeapImageError ? e.message : String(e));
    }
    const actual = await heapImageKeyAsync(image);
    if (actual !== record.image) throw new HeapCorruptError(key, `the rebuilt image hashes to ${actual}, its record says ${record.image}`);
    const heap = { key, image, record };
    this.#remember(heap);
    return heap;
  }

  async #cachedOr(key: string, load: () => Promise<StoredHeap>): Promise<StoredHeap> {
    return this.#cache.get(key) ?? this.#loading.get(key) ?? load();
  }

  async #read(heapKey: string, blobKey: string): Promise<Uint8Array | undefined> {
    try {
      return await this.#blobs.get(blobKey);
    } catch (e) {
      // Not e.message: it names the store's location (heap-errors.ts).
      if (e instanceof BlobCorruptError) throw new HeapCorruptError(heapKey, `blob ${e.key} is corrupt: its content hashes to ${e.actualKey}`);
      throw e;
    }
  }

  /**
   * Stores `image`, as an XOR delta against the heap it was restored from when `parentKey` names
   * one that is available and the chain is short enough, else whole. Resolves once both blobs are
   * durable. The two writes run in parallel (each is an fsync): a crash between them can leave a
   * record without its payload, but its key was never handed out, and storing the same image
   * again writes the payload again (put-if-absent skips only what exists).
   */
  async put(image: HeapImage, parentKey?: string | null): Promise<PutResult> {
    let parent: StoredHeap | undefined;
    if (parentKey) {
      // A parent that cannot be read (evicted store, outage) only costs compactness.
      parent = await this.get(parentKey).catch(() => undefined);
      if (parent && parent.record.depth >= this.#maxDepth) parent = this.#chainAnchor(parent);
    }
    // No usable parent (a fresh run, or a chain at its depth limit whose anchor is not in memory):
    // a delta against the base image, which starts a new chain (depth 1).
    if (parent === undefined) parent = await this.#base(image.manifest);
    const { heap, bytesWritten } = await this.#write(image, parent);
    return { key: heap.key, encoding: heap.record.encoding, bytesWritten };
  }

  /**
   * Where a chain at its depth limit continues: the ancestor at depth 1 (the chain's first step),
   * when it is still decoded in memory. A delta against it stays small (a session's state drifts
   * little from its own start, while a delta against the base image carries all of it: ~700 KB
   * compressed and ~130 ms of synchronous zstd for the bench's 2.8 MB image), and the new image
   * sits at depth 2, so a restore still replays at most maxDeltaDepth deltas.
   */
  #chainAnchor(heap: StoredHeap): StoredHeap | undefined {
    let at: StoredHeap | undefined = heap;
    while (at !== undefined && at.record.depth > 1) at = at.record.parent === null ? undefined : this.#cache.get(at.record.parent);
    return at !== undefined && at.record.depth === 1 && at.key !== heap.key ? at : undefined;
  }

  /** Writes `image` whole (no parent) or as a delta against `parent`; resolves once both blobs are durable. */
  async #write(image: HeapImage, parent: StoredHeap | undefined): Promise<{ heap: StoredHeap; bytesWritten: number }> {
    const full = parent === undefined;
    // Small images (the common step) are XORed, compressed and hashed right here: on a busy
    // machine a thread-pool round trip costs more than the work. Large ones would stall the event
    // loop for hundreds of ms (every other request waits), so they go through the async paths:
    // the XOR yields between slices, zstd and sha256 run on the libuv pool.
    const large = image.bytes.byteLength > LARGE_IMAGE_BYTES;
    const raw = full ? image.bytes : large ? await xorDeltaAsync(image, parent.image) : xorDelta(image, parent.image);
    const level = { params: { [zc.ZSTD_c_compressionLevel]: ZSTD_LEVEL } };
    const payload = large ? await compress(raw, level) : zstdCompressSync(raw, level);
    const payloadKey = large ? await blobKeyOfAsync(payload) : blobKeyOf(payload);
    const storingPayload = this.#blobs.put(payload);
    storingPayload.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
    const storingRecord = (async () => {
      const imageKey = large ? await heapImageKeyAsync(image) : heapImageKey(image);
      const record: HeapRecord = {
        type: HEAP_RECORD_TYPE,
        version: HEAP_RECORD_VERSION,
        image: imageKey,
        manifest: image.manifest,
        encoding: full ? 'full' : 'delta',
        payload: payloadKey,
        parent: full ? null : parent.key,
        depth: full ? 0 : parent.record.depth + 1,
      };
      const recordBytes = Buffer.from(JSON.stringify(record), 'utf8');
      return { record, recordBytes, key: await this.#blobs.put(recordBytes) };
    })();
    const [storedPayload, { record, recordBytes, key }] = await Promise.all([storingPayload, storingRecord]);
    if (storedPayload !== payloadKey) throw new Error(`the blob store keyed the payload ${storedPayload}, expected ${payloadKey}`);
    const heap = { key, image, record };
    this.#remember(heap);
    return { heap, bytesWritten: payload.byteLength + recordBytes.byteLength };
  }

  /**
   * The base heap for `manifest`'s build, stored on first use in this process (put-if-absent: one
   * copy per store, shared by every server of that build); undefined when unknown or unstorable.
   */
  #base(manifest: HeapImageManifest): Promise<StoredHeap | undefined> {
    if (this.#baseImage === undefined) return Promise.resolve(undefined);
    const id = `${manifest.build}/${manifest.prelude}`;
    let base = this.#bases.get(id);
    if (base === undefined) {
      base = (async () => {
        const image = this.#baseImage!(manifest);
        if (image === undefined || image.manifest.build !== manifest.build) return undefined;
        return (await this.#write(image, undefined)).heap;
      })().catch(() => undefined);
      this.#bases.set(id, base);
      // A failure (store outage) is retried by a later put rather than remembered.
      void base.then((b) => { if (b === undefined) this.#bases.delete(id); });
    }
    return base;
  }

  #remember(heap: StoredHeap): void {
    if (this.#cache.has(heap.key)) return;
    const size = heap.image.bytes.byteLength;
    if (size > this.#cacheBytes) return;
    this.#cache.set(heap.key, heap);
    this.#cached += size;
    for (const [k, old] of this.#cache) {
      if (this.#cached <= this.#cacheBytes) break;
      this.#cache.delete(k);
      this.#cached -= old.image.bytes.byteLength;
    }
  }

  /** Drops decoded images (tests use it to force reads from the blobs). */
  clearCache(): void {
    this.#cache.clear();
    this.#cached = 0;
  }

  close(): Promise<void> {
    this.clearCache();
    return this.#blobs.close();
  }
}
