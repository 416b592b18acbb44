// A bounded local copy of remote blobs, evicted least-recently-used by bytes. Entries are ordinary
// dir-store objects, so every hit is verified against its key like any other read; a corrupt or
// vanished entry is dropped and reported as a miss. The cache is an optimisation only: its own
// failures (full disk, permissions) are logged and never fail the caller's read or write.
import { join } from 'node:path';
import type { BlobKey } from './blob-store.ts';
import { DirBlobStore } from './dir-blob-store.ts';
import type { DirFs } from './dir-fs.ts';
import { nodeDirFs } from './dir-fs.ts';

export const DEFAULT_CACHE_MAX_BYTES = 1024 * 1024 * 1024;

export interface BlobCacheOptions {
  readonly dir: string;
  /** Upper bound on the bytes of cached objects; a blob larger than this is never cached. */
  readonly maxBytes?: number;
  readonly log?: (line: string) => void;
  readonly fs?: DirFs;
}

const SHARD = /^[0-9a-f]{2}$/;
const REST_OF_KEY = /^[0-9a-f]{62}$/;

export class BlobCache {
  readonly maxBytes: number;
  readonly #store: DirBlobStore;
  readonly #fs: DirFs;
  readonly #log: (line: string) => void;
  /** key → size; Map iteration order is the LRU order (oldest first): a hit re-inserts its key. */
  readonly #entries = new Map<BlobKey, number>();
  #bytes = 0;
  #loaded: Promise<void> | undefined;

  constructor(options: BlobCacheOptions) {
    this.maxBytes = options.maxBytes ?? DEFAULT_CACHE_MAX_BYTES;
    this.#fs = options.fs ?? nodeDirFs;
    this.#store = new DirBlobStore({ root: options.dir, durable: false, fs: this.#fs });
    this.#log = options.log ?? (() => {});
  }

  get root(): string {
    return this.#store.root;
  }

  /** Bytes currently cached (after the directory has been scanned). */
  get bytes(): number {
    return this.#bytes;
  }

  /** The cached entry's size, or undefined when it is not cached. Not verified: `get` does that. */
  async size(key: BlobKey): Promise<number | undefined> {
    await this.#load();
    return this.#entries.get(key);
  }

  async has(key: BlobKey): Promise<boolean> {
    return (await this.size(key)) !== undefined;
  }

  async get(key: BlobKey): Promise<Uint8Array | undefined> {
    await this.#load();
    if (!this.#entries.has(key)) return undefined;
    let bytes: Uint8Array | undefined;
    try {
      bytes = await this.#store.get(key);
    } catch (e) {
      this.#log(`runjs: blob cache entry ${key} unusable, dropping it: ${(e as Error).message}`);
      await this.#evict(key);
      return undefined;
    }
    if (bytes === undefined) {
      this.#forget(key);
      return undefined;
    }
    this.#touch(key, bytes.byteLength);
    return bytes;
  }

  /** Caches `bytes`, which the caller has already verified hash to `key`. */
  async put(key: BlobKey, bytes: Uint8Array): Promise<void> {
    if (bytes.byteLength > this.maxBytes) return;
    await this.#load();
    if (this.#entries.has(key)) {
      this.#touch(key, bytes.byteLength);
      return;
    }
    try {
      await this.#store.put(bytes);
    } catch (e) {
      this.#log(`runjs: blob cache write failed, continuing uncached: ${(e as Error).message}`);
      return;
    }
    this.#touch(key, bytes.byteLength);
    await this.#trim(key);
  }

  /** Drops the entry (the remote object was deleted: a cached copy must no longer vouch for it). */
  async delete(key: BlobKey): Promise<void> {
    await this.#load();
    this.#forget(key);
    await this.#store.delete(key);
  }

  #touch(key: BlobKey, size: number): void {
    this.#forget(key);
    this.#entries.set(key, size);
    this.#bytes += size;
  }

  #forget(key: BlobKey): void {
    const size = this.#entries.get(key);
    if (size === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= size;
  }

  async #evict(key: BlobKey): Promise<void> {
    this.#forget(key);
    await this.#store.delete(key).catch((e: Error) => this.#log(`runjs: blob cache eviction of ${key} failed: ${e.message}`));
  }

  /** Evicts oldest entries until the cache fits, sparing `keep` (the entry just written). */
  async #trim(keep?: BlobKey): Promise<void> {
    const victims: BlobKey[] = [];
    for (const key of this.#entries.keys()) {
      if (this.#bytes <= this.maxBytes) break;
      if (key === keep) continue;
      this.#forget(key);
      victims.push(key);
    }
    await Promise.all(victims.map((key) => this.#store.delete(key).catch(() => {})));
  }

  /** Rebuilds the index from disk once, oldest modification first, so a restart keeps its cache. */
  #load(): Promise<void> {
    this.#loaded ??= this.#scan().catch((e: Error) => {
      this.#log(`runjs: blob cache at ${this.root} could not be scanned, starting empty: ${e.message}`);
    });
    return this.#loaded;
  }

  async #scan(): Promise<void> {
    let shards: string[];
    try {
      shards = await this.#fs.readdir(this.root);
    } catch (e) {
      if ((e as { code?: string }).code === 'ENOENT') return;
      throw e;
    }
    const found: { key: BlobKey; size: number; mtimeMs: number }[] = [];
    for (const shard of shards.filter((name) => SHARD.test(name))) {
      const names = await this.#fs.readdir(join(this.root, shard));
      for (const rest of names.filter((name) => REST_OF_KEY.test(name))) {
        const stat = await this.#fs.stat(join(this.root, shard, rest));
        // Gone since the listing (evicted meanwhile): nothing to index.
        if (stat?.isFile()) found.push({ key: shard + rest, size: stat.size, mtimeMs: stat.mtimeMs });
      }
    }
    found.sort((a, b) => a.mtimeMs - b.mtimeMs);
    for (const { key, size } of found) this.#touch(key, size);
    await this.#trim();
  }
}
