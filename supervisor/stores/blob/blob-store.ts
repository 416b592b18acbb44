// The content-addressed blob store: heap images, filesystem chunks and trees, and artifact
// payloads all live here under the sha256 of their bytes. Because a key names its content, a
// stored object never changes: writes are put-if-absent and every read is checked against the key.

/** A lowercase hex sha256 digest (64 characters); the only shape a key can take. */
export type BlobKey = string;

export interface BlobStore {
  /** A short human description (`dir:/var/lib/runjs/blobs`, `s3://bucket/prefix/`) for errors and logs. */
  readonly location: string;

  /**
   * Stores `bytes` unless an object with the same hash is already present (never overwrites) and
   * resolves to its key once the object is durable. Concurrent puts of the same content are safe.
   */
  put(bytes: Uint8Array): Promise<BlobKey>;

  /**
   * As `put` for every object (keys in the same order), resolving once all of them are durable.
   * A backend may share one durability barrier among them (the dir store fsyncs them together);
   * a caller that needs objects durable together, such as a snapshot commit, uses this.
   */
  putAll(objects: readonly Uint8Array[]): Promise<BlobKey[]>;

  /** As `put`, for content that arrives in chunks; the key is known only at the end. */
  putStream(chunks: AsyncIterable<Uint8Array>): Promise<BlobKey>;

  /**
   * The object's bytes, verified against the key; `undefined` when absent. A stored object whose
   * content does not hash to its key throws `BlobCorruptError`: bad bytes are never returned.
   */
  get(key: BlobKey): Promise<Uint8Array | undefined>;

  /** Whether an object is stored under `key` (not verified; `get` does that). */
  has(key: BlobKey): Promise<boolean>;

  /** The stored object's length in bytes, or `undefined` when absent. */
  size(key: BlobKey): Promise<number | undefined>;

  /**
   * Removes the object under `key`; absent is not an error. Only a store with a single owner that
   * knows no one else references the object may call this (the artifact store, over its own
   * directory): heap images and filesystem chunks are shared and are never deleted by runjs.
   */
  delete(key: BlobKey): Promise<void>;

  /** Releases connections and handles; the store must not be used afterwards. */
  close(): Promise<void>;
}

/** One stored object as a listing sees it. */
export interface BlobListing {
  readonly key: BlobKey;
  readonly size: number;
  /** When the object was written or last refreshed (Unix ms; S3: whole seconds). */
  readonly modifiedMs: number;
}

/**
 * A store that garbage collection can sweep (the filesystem store, supervisor/fs/fs-gc.ts). Its
 * puts refresh the time of an object they find already stored (`refreshAfterMs`), so an old
 * object a writer re-uses counts as new, and `deleteIfOlder` re-checks that time at the moment of
 * deletion: an object written or re-used after the collector's cutoff is never deleted.
 */
export interface SweepableBlobStore extends BlobStore {
  /** Every object under the store's root or prefix (temporary files excluded), in no set order. */
  list(): AsyncIterable<BlobListing>;
  /** Deletes the object only if it was last written or refreshed before `cutoffMs`; true when it was deleted. */
  deleteIfOlder(key: BlobKey, cutoffMs: number): Promise<boolean>;
}

export function isSweepable(store: BlobStore): store is SweepableBlobStore {
  const s = store as Partial<SweepableBlobStore>;
  return typeof s.list === 'function' && typeof s.deleteIfOlder === 'function';
}
