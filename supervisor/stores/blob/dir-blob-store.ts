// The `dir` backend: one file per object at <root>/ab/cdef… (git's loose-object layout).
// A write goes to a temp file beside its destination, is fsynced, then hard-linked into place:
// link(2) is atomic and fails with EEXIST instead of replacing, so an object appears whole or not
// at all and an existing object is never overwritten, even by a racing writer (git's
// finalize_object_file does the same). Filesystems without hard links fall back to rename(2).
import { createHash, randomBytes } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import type { BlobKey, BlobListing, SweepableBlobStore } from './blob-store.ts';
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
  /**
   * A put that finds its object already stored and last written longer ago than this refreshes
   * the object's mtime, so garbage collection (which deletes only objects older than its cutoff)
   * cannot take an object a writer has just re-used. Unset (heaps, artifacts): never refreshed.
   */
  readonly refreshAfterMs?: number;
  readonly now?: () => number;
}

/** errno codes meaning "this filesystem cannot hard-link", where rename is the fallback. */
const LINK_UNSUPPORTED = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);
const ABSENT = new Set(['ENOENT', 'ENOTDIR']);
/** Objects are read-only on disk, as in git, so a stray write by hand fails loudly. */
const OBJECT_MODE = 0o444;
const SHARD_NAME = /^[0-9a-f]{2}$/;
const OBJECT_NAME = /^[0-9a-f]{62}$/;

/** Marks an error thrown by the caller's chunk source so it is rethrown as is, not as an I/O error. */
class SourceError {
  readonly cause: unknown;
  constructor(cause: unknown) {
    this.cause = cause;
  }
}

export class DirBlobStore implements SweepableBlobStore {
  readonly root: string;
  readonly location: string;
  readonly #durable: boolean;
  readonly #fs: DirFs;
  readonly #refreshAfterMs: number | undefined;
  readonly #now: () => number;
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
    this.#refreshAfterMs = options.refreshAfterMs;
    this.#now = options.now ?? Date.now;
  }

  /** Where the object for `key` lives (whether or not it exists). */
  objectPath(key: BlobKey): string {
    assertBlobKey(key);
    return join(this.root, key.slice(0, 2), key.slice(2));
  }

  async put(bytes: Uint8Array): Promise<BlobKey> {
    return (await this.putAll([bytes]))[0]!;
  }

  /**
   * Every object with one durability barrier for the batch: each missing object is written to a
   * temp file beside its destination and all of them are fsynced together; only then is each
   * hard-linked into place, and then every shard directory that gained a name is fsynced
   * together. A crash at any point leaves each object whole at its key or absent (a torn temp
   * file never gets a name), and nothing resolves before all are durable. Two rounds of
   * concurrent fsyncs instead of two per object: on a journaling filesystem one journal commit
   * can serve a round; without a journal (this bench machine's ext4) each fsync is still paid,
   * but the round's waits overlap.
   */
  async putAll(objects: readonly Uint8Array[]): Promise<BlobKey[]> {
    const keys = objects.map((bytes) => blobKeyOf(bytes));
    const unique = new Map<BlobKey, Uint8Array>();
    objects.forEach((bytes, i) => unique.set(keys[i]!, bytes));
    // Content addressing makes the common "already stored" case free: no write, no fsync. An
    // object of the wrong size (truncated or damaged behind our back) is replaced, not trusted.
    const pending: { key: BlobKey; bytes: Uint8Array; replace: boolean }[] = [];
    await Promise.all([...unique].map(async ([key, bytes]) => {
      const found = await this.#stat(key);
      if (found?.size === bytes.byteLength && await this.#fresh(key, found.mtimeMs)) return;
      pending.push({ key, bytes, replace: found !== undefined && found.size !== bytes.byteLength });
    }));
    if (pending.length === 0) return keys;
    await this.#io(pending.length === 1 ? `writing blob ${pending[0]!.key}` : `writing ${pending.length} blobs`, async () => {
      const shards = new Map<string, string | undefined>();
      let temps: readonly string[] = [];
      try {
        // Shard directories first (most exist already and are remembered), then the temp files.
        for (const { key } of pending) {
          const shardDir = dirname(this.objectPath(key));
          if (!this.#shards.has(shardDir) && !shards.has(shardDir)) shards.set(shardDir, await this.#fs.mkdir(shardDir, { recursive: true }));
        }
        temps = pending.map(({ key }) => join(dirname(this.objectPath(key)), tempName()));
        // Settled, not raced: the finally below must not unlink a temp file before its open.
        await settleAll(pending.map(async ({ key, bytes }, i) => {
          const shardDir = dirname(this.objectPath(key));
          const known = !shards.has(shardDir);
          try {
            await this.#writeTemp(temps[i]!, (handle) => handle.writeFile(bytes));
          } catch (e) {
            // A remembered shard directory went away behind our back: forget it and make it again.
            if (!known || !ABSENT.has(errnoCode(e) ?? '')) throw e;
            this.#shards.delete(shardDir);
            const made = await this.#fs.mkdir(shardDir, { recursive: true });
            if (shards.get(shardDir) === undefined) shards.set(shardDir, made);
            await this.#writeTemp(temps[i]!, (handle) => handle.writeFile(bytes));
          }
        }));
        // Every temp file is durable: give each its name, then make the names durable.
        await settleAll(pending.map(({ key, replace }, i) => this.#place(temps[i]!, key, replace)));
        // The temp names go while the directories sync: nothing depends on their removal.
        const removing = Promise.all(temps.map((tmp) => removeTemp(this.#fs, tmp)));
        temps = [];
        try {
          if (this.#durable) {
            const dirs = new Set(pending.map(({ key }) => dirname(this.objectPath(key))));
            const syncs = new Set<string>();
            for (const d of dirs) for (const s of this.#dirsToSync(d, shards.get(d))) syncs.add(s);
            await settleAll([...syncs].map((d) => this.#syncDir(d)));
          }
        } finally {
          await removing;
        }
        // Only now is each shard's own entry durable (the syncs covered the directories this batch created).
        for (const d of shards.keys()) this.#shards.add(d);
      } finally {
        await Promise.all(temps.map((tmp) => removeTemp(this.#fs, tmp)));
      }
    });
    return keys;
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
      await this.#commit(tmp, key, created);
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
    return (await this.#stat(key))?.size;
  }

  async #stat(key: BlobKey): Promise<{ size: number; mtimeMs: number } | undefined> {
    const path = this.objectPath(key);
    try {
      const stat = await this.#fs.stat(path);
      return stat?.isFile() ? { size: stat.size, mtimeMs: stat.mtimeMs } : undefined;
    } catch (e) {
      if (ABSENT.has(errnoCode(e) ?? '')) return undefined;
      throw new BlobStoreIoError(`reading blob ${key}`, this.location, e);
    }
  }

  /**
   * Whether a stored object a put found can stand as is: always without `refreshAfterMs`; else
   * when recent, or once its mtime is refreshed. False when it vanished (a collector took it) and
   * must be written again.
   */
  async #fresh(key: BlobKey, mtimeMs: number): Promise<boolean> {
    if (this.#refreshAfterMs === undefined) return true;
    const now = this.#now();
    if (now - mtimeMs < this.#refreshAfterMs) return true;
    try {
      await this.#fs.utimes(this.objectPath(key), new Date(now), new Date(now));
      return true;
    } catch (e) {
      if (ABSENT.has(errnoCode(e) ?? '')) return false;
      throw new BlobStoreIoError(`refreshing blob ${key}`, this.location, e);
    }
  }

  async *list(): AsyncGenerator<BlobListing> {
    const shards = await this.#readdir(this.root);
    for (const shard of shards.filter((n) => SHARD_NAME.test(n)).sort()) {
      const dir = join(this.root, shard);
      for (const name of (await this.#readdir(dir)).filter((n) => OBJECT_NAME.test(n))) {
        const key = shard + name;
        const found = await this.#stat(key);
        if (found !== undefined) yield { key, size: found.size, modifiedMs: found.mtimeMs };
      }
    }
  }

  /**
   * Moves the object aside first (rename is atomic), then reads its mtime: a put that refreshed
   * it before the move is seen here and the object goes back; a put after the move finds it
   * absent and writes it again. So nothing refreshed at or after `cutoffMs` is lost.
   */
  async deleteIfOlder(key: BlobKey, cutoffMs: number): Promise<boolean> {
    const path = this.objectPath(key);
    const aside = join(this.root, `.gc-${process.pid}-${randomBytes(8).toString('hex')}`);
    try {
      await this.#fs.rename(path, aside);
    } catch (e) {
      if (ABSENT.has(errnoCode(e) ?? '')) return false;
      throw new BlobStoreIoError(`deleting blob ${key}`, this.location, e);
    }
    let stat;
    try {
      stat = await this.#fs.stat(aside);
      if (stat === undefined) throw new Error(`${aside} vanished after the rename`);
    } catch (e) {
      await this.#fs.rename(aside, path).catch(() => {});
      throw new BlobStoreIoError(`deleting blob ${key}`, this.location, e);
    }
    if (stat.mtimeMs < cutoffMs) {
      await removeTemp(this.#fs, aside);
      return true;
    }
    try {
      await this.#fs.link(aside, path);
    } catch (e) {
      // EEXIST: a writer stored it again meanwhile (same bytes). Otherwise rename it back, which
      // also works where hard links do not; only then is the copy aside dropped.
      if (errnoCode(e) !== 'EEXIST') {
        try { await this.#fs.rename(aside, path); return false; } catch (e2) { throw new BlobStoreIoError(`restoring blob ${key} from ${aside}`, this.location, e2); }
      }
    }
    await removeTemp(this.#fs, aside);
    return false;
  }

  async #readdir(dir: string): Promise<string[]> {
    try {
      return await this.#fs.readdir(dir);
    } catch (e) {
      if (ABSENT.has(errnoCode(e) ?? '')) return [];
      throw new BlobStoreIoError(`listing ${dir}`, this.location, e);
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
  async #place(tmp: string, key: BlobKey, replace: boolean): Promise<void> {
    const finalPath = this.objectPath(key);
    try {
      if (replace) await this.#fs.rename(tmp, finalPath);
      else await this.#fs.link(tmp, finalPath);
    } catch (e) {
      const code = errnoCode(e) ?? '';
      // EEXIST: a concurrent writer stored the same content first; its object stands.
      if (code === 'EEXIST') return;
      if (!LINK_UNSUPPORTED.has(code)) throw e;
      // No hard links here: rename is still atomic, and whatever it might replace holds the same bytes.
      await this.#fs.rename(tmp, finalPath);
    }
  }

  /** putStream's last step: place one temp file (its shard made first) and make its name durable. */
  async #commit(tmp: string, key: BlobKey, createdEarlier: string | undefined): Promise<void> {
    const shardDir = dirname(this.objectPath(key));
    try {
      const created = (this.#shards.has(shardDir) ? undefined : await this.#fs.mkdir(shardDir, { recursive: true })) ?? createdEarlier;
      await this.#place(tmp, key, false);
      if (this.#durable) for (const d of this.#dirsToSync(shardDir, created)) await this.#syncDir(d);
      this.#shards.add(shardDir);
    } finally {
      await removeTemp(this.#fs, tmp);
    }
  }

  /** `dir`, and each parent up to the one holding the first directory a put created. */
  #dirsToSync(dir: string, created: string | undefined): string[] {
    const stop = created === undefined ? dir : dirname(created);
    const out: string[] = [];
    for (let d = dir; ; d = dirname(d)) {
      out.push(d);
      if (d === stop || d === dirname(d)) break;
    }
    return out;
  }

  async #syncDir(dir: string): Promise<void> {
    const handle = await this.#fs.open(dir, 'r');
    try { await handle.sync(); } finally { await handle.close(); }
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

/** Waits for every promise, then throws the first failure (no operation is left running behind a throw). */
async function settleAll(promises: readonly Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(promises)).find((r) => r.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
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
