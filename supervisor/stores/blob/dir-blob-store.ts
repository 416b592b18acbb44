// The `dir` backend: one file per object at <root>/ab/cdef… (git's loose-object layout).
// A write goes to a temp file beside its destination, is fsynced, then hard-linked into place:
// link(2) is atomic and fails with EEXIST instead of replacing, so an object appears whole or not
// at all and an existing object is never overwritten, even by a racing writer (git's
// finalize_object_file does the same). Filesystems without hard links fall back to rename(2).
import { createHash, randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import type { BlobKey, BlobStore } from './blob-store.ts';
import { assertBlobKey, blobKeyOf } from './blob-key.ts';
import { BlobCorruptError, BlobStoreError, BlobStoreIoError } from './blob-errors.ts';
import { errnoCode, nodeDirFs, type DirFileHandle, type DirFs } from './dir-fs.ts';

export interface DirBlobStoreOptions {
  readonly root: string;
  /**
   * fsync each object and the directories naming it before `put` resolves (default true). The
   * S3 read cache turns this off: a cache entry lost in a crash is only a miss, and a torn one
   * fails verification.
   */
  readonly durable?: boolean;
  /** Filesystem operations; tests inject failures here. */
  readonly fs?: DirFs;
}

/** errno codes meaning "this filesystem cannot hard-link", where rename is the fallback. */
const LINK_UNSUPPORTED = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);
const ABSENT = new Set(['ENOENT', 'ENOTDIR']);
/** Objects are read-only on disk, as in git, so a stray write by hand fails loudly. */
const OBJECT_MODE = 0o444;

/** Marks an error thrown by the caller's chunk source so it is rethrown as is, not as an I/O error. */
class SourceError {
  readonly cause: unknown;
  constructor(cause: unknown) {
    this.cause = cause;
  }
}

export class DirBlobStore implements BlobStore {
  readonly root: string;
  readonly location: string;
  readonly #durable: boolean;
  readonly #fs: DirFs;
  /**
   * Shard directories this store has seen to exist, with their creation made durable: a put into
   * one skips its two mkdir calls (two thread-pool round trips per blob on the heap-store hot path).
   */
  readonly #shards = new Set<string>();

  constructor(options: DirBlobStoreOptions) {
    this.root = resolve(options.root);
    this.location = `dir:${this.root}`;
    this.#durable = options.durable ?? true;
    this.#fs = options.fs ?? nodeDirFs;
  }

  /** Where the object for `key` lives (whether or not it exists). */
  objectPath(key: BlobKey): string {
    assertBlobKey(key);
    return join(this.root, key.slice(0, 2), key.slice(2));
  }

  async put(bytes: Uint8Array): Promise<BlobKey> {
    const key = blobKeyOf(bytes);
    // Content addressing makes the common "already stored" case free: no write, no fsync. An
    // object of the wrong size (truncated or damaged behind our back) is replaced, not trusted.
    const existing = await this.size(key);
    if (existing === bytes.byteLength) return key;
    const replace = existing !== undefined;
    await this.#io(`writing blob ${key}`, async () => {
      const shardDir = dirname(this.objectPath(key));
      const known = this.#shards.has(shardDir);
      const created = known ? undefined : await this.#fs.mkdir(shardDir, { recursive: true });
      const tmp = join(shardDir, tempName());
      try {
        await this.#writeTemp(tmp, (handle) => handle.writeFile(bytes));
      } catch (e) {
        // The shard directory went away behind our back: forget it and take the long way.
        if (!known || !ABSENT.has(errnoCode(e) ?? '')) throw e;
        this.#shards.delete(shardDir);
        const again = await this.#fs.mkdir(shardDir, { recursive: true });
        await this.#writeTemp(tmp, (handle) => handle.writeFile(bytes));
        await this.#commit(tmp, key, again, false, replace);
        return;
      }
      await this.#commit(tmp, key, created, known, replace);
    });
    return key;
  }

  async putStream(chunks: AsyncIterable<Uint8Array>): Promise<BlobKey> {
    let key = '';
    await this.#io('writing a streamed blob', async () => {
      // The key is known only after the last chunk, so the temp file sits in the root (same
      // filesystem as every shard, so the final link stays atomic).
      const created = await this.#fs.mkdir(this.root, { recursive: true });
      const tmp = join(this.root, tempName());
      const hash = createHash('sha256');
      await this.#writeTemp(tmp, async (handle) => {
        const iterator = chunks[Symbol.asyncIterator]();
        for (;;) {
          let next: IteratorResult<Uint8Array>;
          try { next = await iterator.next(); } catch (e) { throw new SourceError(e); }
          if (next.done) break;
          hash.update(next.value);
          await handle.writeFile(next.value);
        }
      });
      key = hash.digest('hex');
      await this.#commit(tmp, key, created, false);
    });
    return key;
  }

  async get(key: BlobKey): Promise<Uint8Array | undefined> {
    const path = this.objectPath(key);
    let buffer: Uint8Array;
    try {
      buffer = await this.#fs.readFile(path);
    } catch (e) {
      if (ABSENT.has(errnoCode(e) ?? '')) return undefined;
      throw new BlobStoreIoError(`reading blob ${key}`, this.location, e);
    }
    const actual = blobKeyOf(buffer);
    if (actual !== key) throw new BlobCorruptError(key, actual, this.location);
    // A plain Uint8Array view (no copy), so every backend returns the same type.
    return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  }

  async has(key: BlobKey): Promise<boolean> {
    return (await this.size(key)) !== undefined;
  }

  async size(key: BlobKey): Promise<number | undefined> {
    const path = this.objectPath(key);
    try {
      const stat = await this.#fs.stat(path);
      return stat.isFile() ? stat.size : undefined;
    } catch (e) {
      if (ABSENT.has(errnoCode(e) ?? '')) return undefined;
      throw new BlobStoreIoError(`reading blob ${key}`, this.location, e);
    }
  }

  async close(): Promise<void> {
    // Nothing is held open between calls.
  }

  /**
   * Removes an object (see BlobStore.delete for who may). The S3 read cache evicts through this
   * too; a stale read cache entry could otherwise vouch for a deleted object.
   */
  async delete(key: BlobKey): Promise<void> {
    await unlinkQuietly(this.#fs, this.objectPath(key));
  }

  async #writeTemp(tmp: string, fill: (handle: DirFileHandle) => Promise<void>): Promise<void> {
    const handle = await this.#fs.open(tmp, 'wx', OBJECT_MODE);
    try {
      await fill(handle);
      if (this.#durable) await handle.sync();
    } catch (e) {
      await handle.close().catch(() => {});
      await removeTemp(this.#fs, tmp);
      throw e;
    }
    try {
      await handle.close();
    } catch (e) {
      await removeTemp(this.#fs, tmp);
      throw e;
    }
  }

  /** Moves a complete temp file to the object path without ever replacing an existing object. */
  /** `replace`: an object of the wrong size sits at the key; rename over it (atomic) instead of linking. */
  async #commit(tmp: string, key: BlobKey, createdEarlier: string | undefined, shardKnown: boolean, replace = false): Promise<void> {
    const finalPath = this.objectPath(key);
    const shardDir = dirname(finalPath);
    try {
      const created = (shardKnown ? undefined : await this.#fs.mkdir(shardDir, { recursive: true })) ?? createdEarlier;
      try {
        if (replace) await this.#fs.rename(tmp, finalPath);
        else await this.#fs.link(tmp, finalPath);
      } catch (e) {
        const code = errnoCode(e) ?? '';
        // EEXIST: a concurrent writer stored the same content first; its object stands.
        if (code !== 'EEXIST') {
          if (!LINK_UNSUPPORTED.has(code)) throw e;
          // No hard links here: rename is still atomic, and whatever it might replace holds the same bytes.
          await this.#fs.rename(tmp, finalPath);
        }
      }
      if (this.#durable) await this.#syncDirs(shardDir, created);
      // Only now is the shard's own entry durable (syncDirs covered the directories this put created).
      this.#shards.add(shardDir);
    } finally {
      await removeTemp(this.#fs, tmp);
    }
  }

  /** fsyncs `dir`, and each parent up to the one holding the first directory this put created. */
  async #syncDirs(dir: string, created: string | undefined): Promise<void> {
    const stop = created === undefined ? dir : dirname(created);
    for (let d = dir; ; d = dirname(d)) {
      const handle = await this.#fs.open(d, 'r');
      try { await handle.sync(); } finally { await handle.close(); }
      if (d === stop || d === dirname(d)) break;
    }
  }

  async #io(operation: string, body: () => Promise<void>): Promise<void> {
    try {
      await body();
    } catch (e) {
      if (e instanceof SourceError) throw e.cause;
      if (e instanceof BlobStoreError) throw e;
      throw new BlobStoreIoError(operation, this.location, e);
    }
  }
}

function tempName(): string {
  // Dot-prefixed so nothing that lists objects mistakes it for one; unique per process and call.
  return `.tmp-${process.pid}-${randomBytes(8).toString('hex')}`;
}

/** Best effort: a leftover temp file is harmless, and failing here would hide the real outcome. */
async function removeTemp(fs: DirFs, path: string): Promise<void> {
  await fs.unlink(path).catch(() => {});
}

async function unlinkQuietly(fs: DirFs, path: string): Promise<void> {
  try {
    await fs.unlink(path);
  } catch (e) {
    if (errnoCode(e) !== 'ENOENT') throw e;
  }
}
