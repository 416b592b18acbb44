// Heap images over the content-addressed blob store, stored compactly. A stored heap is two blobs:
// a zstd payload (the whole image, or a delta against the image it was restored from) and a
// small JSON record naming the payload, the parent and the full image's hash. The heap key is the
// record's blob key. Deltas chain at most MAX_DELTA_DEPTH deep (shared/heap-encode.ts encodes, here
// or in the worker that ran the step), so no restore replays a long chain. Everything read is
// verified: blob hashes by the blob store, the rebuilt image against the record's `image` hash. A
// failure is an error naming the key.
import { promisify } from 'node:util';
import { zstdDecompress, type ZstdOptions } from 'node:zlib';
import { HeapImageError, IMAGE_PAGE_BYTES, parseHeapImage, type HeapImage, type HeapImageManifest } from '../../shared/heap-image.ts';
import { heapImageKeyAsync } from '../../shared/image-store.ts';
import { heapImageHashAsync } from '../../shared/heap-image-hash.ts';
import { BlobCorruptError, isBlobKey, type BlobStore } from '../stores/blob/index.ts';
import { HeapCorruptError, HeapNotFoundError } from './heap-errors.ts';
import { parseHeapRecord, type HeapRecord } from '../../shared/heap-record.ts';
import { applySparseDelta, applyXorDelta, maxSparseDeltaBytes } from '../../shared/heap-delta.ts';
import { encodeHeap, sha256Hex, type CheckedHeap, type EncodedHeap } from '../../shared/heap-encode.ts';
import { GroupCommit } from './group-commit.ts';

/** Longest delta chain a restore may replay (a full image is stored instead beyond it). */
export const MAX_DELTA_DEPTH = 8;
/** Decoded images kept in memory: the parent of the next capture is usually the image just restored. */
const DEFAULT_CACHE_BYTES = 256 * 1024 * 1024;
/** Records kept in memory (a few hundred bytes each): what a step needs to know of its input heap. */
const RECORD_CACHE_ENTRIES = 4096;
// Restores (a cold key: payload read from the store) decompress and verify on the libuv thread
// pool, so a fan-out restoring several keys at once does not serialise on the event loop.
const decompress = promisify(zstdDecompress) as (data: Uint8Array, opts: ZstdOptions) => Promise<Buffer>;
/** Payloads from workers above this size are checked by the blob store's own hash (see #writeBlobs). */
const LARGE_PAYLOAD_BYTES = 8 * 1024 * 1024;

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

/** What a run's worker was offered to encode its heap against (RunRequest.encodeHeap). */
export interface EncodeOffer {
  readonly parent: { readonly key: string; readonly depth: number } | null;
  readonly anchor?: string | undefined;
}

export function isHeapKey(key: unknown): key is string {
  return isBlobKey(key);
}

export class HeapStore {
  readonly #blobs: BlobStore;
  /** Heaps stored at the same time share their durability barriers (group-commit.ts). */
  readonly #commits: GroupCommit;
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
  /** Keys of base heaps known to be durable in the store (written by this process). */
  readonly #storedBases = new Set<string>();
  /** Records by heap key, least recently used first: a step's input needs only its record when a worker holds its image. */
  readonly #records = new Map<string, HeapRecord>();

  constructor(opts: HeapStoreOptions) {
    this.#blobs = opts.blobs;
    this.#commits = new GroupCommit(opts.blobs);
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
    this.#rememberRecord(key, record);
    const payload = await this.#read(key, record.payload);
    if (payload === undefined) throw new HeapCorruptError(key, `its payload blob ${record.payload} is missing`);
    const storedPages = record.manifest.ranges.reduce((n, r) => n + (Array.isArray(r) && typeof r[1] === 'number' ? r[1] : 0), 0);
    const stored = storedPages * IMAGE_PAGE_BYTES;
    const sparse = record.encoding === 'delta' && record.version >= 3;
    let bytes: Uint8Array;
    try {
      // The output bound stops a hostile payload from decompressing into gigabytes.
      bytes = await decompress(payload, { maxOutputLength: Math.max(1, sparse ? maxSparseDeltaBytes(storedPages) : stored) });
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
      if (sparse) {
        const applied = applySparseDelta(record.manifest, bytes, parent.image);
        if (typeof applied === 'string') throw new HeapCorruptError(key, applied);
        bytes = applied;
      } else {
        if (bytes.byteLength !== stored) throw new HeapCorruptError(key, 'its delta does not match its manifest');
        bytes = applyXorDelta(record.manifest, bytes, parent.image);
      }
    }
    let image: HeapImage;
    try {
      image = parseHeapImage({ manifest: record.manifest, bytes });
    } catch (e) {
      throw new HeapCorruptError(key, e instanceof HeapImageError ? e.message : String(e));
    }
    const actual = record.version === 1 ? await heapImageKeyAsync(image) : await heapImageHashAsync(image);
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
    const encoded = await encodeHeap(image, parent && { key: parent.key, image: parent.image, depth: parent.record.depth });
    await this.#writeBlobs(encoded);
    const heap = { key: encoded.key, image, record: encoded.parsed };
    this.#remember(heap);
    return { heap, bytesWritten: encoded.payload.byteLength + encoded.record.byteLength };
  }

  /**
   * Writes a heap's two blobs together, one durability barrier for both where the blob store
   * offers one (BlobStore.putAll), shared with the heaps being stored at the same time
   * (group-commit.ts): a crash before it completes can leave either without the other, but
   * the key was never handed out, and storing the same heap again writes what is missing
   * (put-if-absent skips only what exists). With `verify` (blobs from a worker) the payload must be
   * the one the record names: a small one is hashed first; a large one is hashed once, by the blob
   * store's put, and its record written only after that matched (so a wrong payload leaves an
   * unreferenced blob, never a record naming a missing one, and the supervisor holds no second
   * copy of it for a hash on the thread pool).
   */
  async #writeBlobs(encoded: EncodedHeap, verify = false): Promise<void> {
    const expected = encoded.parsed.payload;
    const mismatch = (actual: string): Error => new Error(`the heap record names payload ${expected}, the payload sent hashes to ${actual}`);
    const large = encoded.payload.byteLength > LARGE_PAYLOAD_BYTES;
    if (verify && !large) {
      const actual = sha256Hex(encoded.payload);
      if (actual !== expected) throw mismatch(actual);
    }
    let payloadKey: string;
    let recordKey: string;
    if (verify && large) {
      payloadKey = await this.#blobs.put(encoded.payload);
      if (payloadKey !== expected) throw mismatch(payloadKey);
      recordKey = await this.#blobs.put(encoded.record);
    } else {
      [payloadKey, recordKey] = await this.#commits.putAll([encoded.payload, encoded.record]) as [string, string];
    }
    if (payloadKey !== expected) throw new Error(`the blob store keyed the payload ${payloadKey}, expected ${expected}`);
    if (recordKey !== encoded.key) throw new Error(`the blob store keyed the record ${recordKey}, expected ${encoded.key}`);
    this.#rememberRecord(encoded.key, encoded.parsed);
  }

  /**
   * Stores a heap a worker encoded (shared/heap-encode.ts) from the run it restored `offer.parent`
   * into (null: a fresh run). The worker is not trusted: its record must be a delta against what
   * the run offered it — the parent (below the depth limit), the chain's anchor, or a base heap
   * (one this store holds, or `base`, sent along and written first) — and each payload must be the
   * one its record names. Whether the payload rebuilds the image the record's hash names is checked
   * on every read (a worker can only damage the heaps of its own runs, which its guest code could
   * fill with anything anyway).
   */
  async putEncoded(heap: CheckedHeap, offer: EncodeOffer, base?: CheckedHeap): Promise<PutResult> {
    const r = heap.parsed;
    const p = offer.parent;
    let newBase: CheckedHeap | undefined;
    if (r.encoding === 'delta') {
      const onParent = p !== null && r.parent === p.key && r.depth === p.depth + 1 && p.depth < this.#maxDepth;
      const onAnchor = offer.anchor !== undefined && r.parent === offer.anchor && r.depth === 2;
      const onBase = r.depth === 1 && (this.#storedBases.has(r.parent!) || base?.key === r.parent);
      if (!onParent && !onAnchor && !onBase) throw new Error(`the worker encoded the heap against ${r.parent} at depth ${r.depth}, which its run did not offer`);
      if (onBase && !onParent && !this.#storedBases.has(r.parent!)) {
        const b = base!.parsed;
        if (b.encoding !== 'full' || b.manifest.generation !== 0) throw new Error('the base heap the worker sent is not a full image of a base VM');
        newBase = base;
      }
    }
    await Promise.all([this.#writeBlobs(heap, true), ...(newBase ? [this.#writeBlobs(newBase, true).then(() => { this.#storedBases.add(newBase.key); })] : [])]);
    return { key: heap.key, encoding: r.encoding, bytesWritten: heap.payload.byteLength + heap.record.byteLength };
  }

  /** The record of the heap under `key` (cached; a small read otherwise); HeapNotFoundError or HeapCorruptError like get(). */
  async record(key: string): Promise<HeapRecord> {
    const cached = this.#records.get(key) ?? this.#cache.get(key)?.record;
    if (cached) {
      this.#rememberRecord(key, cached);
      return cached;
    }
    if (!isHeapKey(key)) throw new HeapNotFoundError(String(key));
    const bytes = await this.#read(key, key);
    if (bytes === undefined) throw new HeapNotFoundError(key);
    const record = parseHeapRecord(bytes);
    if (typeof record === 'string') throw new HeapCorruptError(key, record);
    if (record.depth > this.#maxDepth + 1) throw new HeapCorruptError(key, `its delta chain is longer than ${this.#maxDepth}`);
    this.#rememberRecord(key, record);
    return record;
  }

  /**
   * Where a step from `key` may continue when `key` is at the depth limit: the chain's depth-1
   * heap (see #chainAnchor), found through the records; undefined when a record cannot be read.
   */
  async chainAnchorKey(key: string): Promise<string | undefined> {
    try {
      let at = key;
      let record = await this.record(at);
      for (let hops = 0; record.depth > 1 && record.parent !== null && hops <= this.#maxDepth; hops++) {
        at = record.parent;
        record = await this.record(at);
      }
      return record.depth === 1 && at !== key ? at : undefined;
    } catch {
      return undefined;
    }
  }

  /** Shared commits so far and the heaps (and other blob pairs) they carried: how much group commit batched. */
  get commitStats(): { readonly commits: number; readonly puts: number } {
    return this.#commits.stats;
  }

  /** Longest delta chain this store writes. */
  get maxDepth(): number {
    return this.#maxDepth;
  }

  /** Base heaps this process has stored (durably): a worker encoding against one of them need not send it. */
  get storedBases(): string[] {
    return [...this.#storedBases];
  }

  #rememberRecord(key: string, record: HeapRecord): void {
    this.#records.delete(key);
    this.#records.set(key, record);
    if (this.#records.size > RECORD_CACHE_ENTRIES) this.#records.delete(this.#records.keys().next().value!);
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
        const { heap } = await this.#write(image, undefined);
        this.#storedBases.add(heap.key);
        return heap;
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
    this.#records.clear();
    this.#cached = 0;
  }

  close(): Promise<void> {
    this.clearCache();
    return this.#blobs.close();
  }
}
