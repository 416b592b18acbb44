// The dir backend: the shared contract over a temp directory, then what only a filesystem has
// (layout, permissions, full disks and failing syscalls, filesystems without hard links).
import { describe, it, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blobStoreContract } from './blob-store-contract.ts';
import { BlobStoreIoError, blobKeyOf, createBlobStore, DirBlobStore } from '../../supervisor/stores/blob/index.ts';
import { nodeDirFs, type DirFs } from '../../supervisor/stores/blob/dir-fs.ts';

const HELLO_KEY = '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824';
const hello = () => new TextEncoder().encode('hello');

/** Every file under `root`, as shard + name for objects and as a plain name otherwise. */
async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  let top: string[];
  try { top = await readdir(root); } catch { return []; }
  for (const name of top) {
    if ((await stat(join(root, name))).isDirectory()) {
      for (const inner of await readdir(join(root, name))) out.push(/^[0-9a-f]{2}$/.test(name) ? name + inner : `${name}/${inner}`);
    } else {
      out.push(name);
    }
  }
  return out.sort();
}

const pathOf = (root: string, key: string) => join(root, key.slice(0, 2), key.slice(2));

blobStoreContract('dir', async () => {
  const root = await mkdtemp(join(tmpdir(), 'runjs-blob-dir-'));
  const store = createBlobStore({ backend: 'dir', dir: join(root, 'blobs') });
  const dir = join(root, 'blobs');
  return {
    store,
    reopen: async () => createBlobStore({ backend: 'dir', dir }),
    tamper: async (key, bytes) => {
      // The object is read-only; replace the file rather than writing into it.
      await rm(pathOf(dir, key), { force: true });
      await writeFile(pathOf(dir, key), bytes);
    },
    rawObject: async (key) => readFile(pathOf(dir, key)).catch(() => undefined),
    repairsWrongSize: true,
    listKeys: () => listFiles(dir),
    close: async () => { await store.close(); await rm(root, { recursive: true, force: true }); },
  };
});

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: simulated failure`), { code });
}

/** The real filesystem, except that one step fails with `code`. */
function failingFs(step: 'writeFile' | 'sync' | 'link' | 'readFile' | 'mkdir', code: string): DirFs {
  return {
    ...nodeDirFs,
    open: async (path, flags, mode) => {
      const handle = await nodeDirFs.open(path, flags, mode);
      if (flags !== 'wx') return handle;
      return {
        writeFile: (data) => (step === 'writeFile' ? Promise.reject(errno(code)) : handle.writeFile(data)),
        sync: () => (step === 'sync' ? Promise.reject(errno(code)) : handle.sync()),
        close: () => handle.close(),
      };
    },
    link: (a, b) => (step === 'link' ? Promise.reject(errno(code)) : nodeDirFs.link(a, b)),
    readFile: (p) => (step === 'readFile' ? Promise.reject(errno(code)) : nodeDirFs.readFile(p)),
    mkdir: (p, o) => (step === 'mkdir' ? Promise.reject(errno(code)) : nodeDirFs.mkdir(p, o)),
  };
}

describe('dir blob store', () => {
  let root: string;
  beforeEach(async () => { root = await mkdtemp(join(tmpdir(), 'runjs-blob-dir-')); });
  afterEach(async () => { await rm(root, { recursive: true, force: true }); });

  it('lays objects out as <root>/ab/cdef…, read-only, with no temp files left', async () => {
    const store = new DirBlobStore({ root });
    assert.equal(store.location, `dir:${root}`);
    await store.put(hello());
    assert.equal(store.objectPath(HELLO_KEY), join(root, '2c', HELLO_KEY.slice(2)));
    assert.equal(await readFile(join(root, '2c', HELLO_KEY.slice(2)), 'utf8'), 'hello');
    assert.equal((await stat(store.objectPath(HELLO_KEY))).mode & 0o777, 0o444);
    assert.deepEqual(await readdir(root), ['2c']);
    assert.deepEqual(await readdir(join(root, '2c')), [HELLO_KEY.slice(2)]);
  });

  it('replaces an object of the wrong size on put (a truncated file is repaired, not trusted)', async () => {
    const store = new DirBlobStore({ root });
    await store.put(hello());
    const path = store.objectPath(HELLO_KEY);
    await rm(path, { force: true });
    await writeFile(path, 'hel');
    await assert.rejects(store.get(HELLO_KEY), /corrupt|hash/i);
    assert.equal(await store.put(hello()), HELLO_KEY);
    assert.equal(Buffer.from((await store.get(HELLO_KEY))!).toString(), 'hello');
    assert.deepEqual(await readdir(join(root, '2c')), [HELLO_KEY.slice(2)], 'no temp file left');
  });

  it('creates a missing root on first write', async () => {
    const store = new DirBlobStore({ root: join(root, 'a', 'b') });
    assert.equal(await store.get(HELLO_KEY), undefined);
    await store.put(hello());
    assert.equal(await readFile(join(root, 'a', 'b', '2c', HELLO_KEY.slice(2)), 'utf8'), 'hello');
  });

  for (const [step, code, reason] of [
    ['writeFile', 'ENOSPC', 'no space left on device (ENOSPC)'],
    ['sync', 'EIO', 'input/output error (EIO)'],
    ['link', 'EDQUOT', 'disk quota exceeded (EDQUOT)'],
    ['mkdir', 'EACCES', 'permission denied (EACCES)'],
  ] as const) {
    it(`surfaces ${code} during ${step} as a clear error and leaves nothing behind`, async () => {
      const store = new DirBlobStore({ root, fs: failingFs(step, code) });
      await assert.rejects(store.put(hello()), (e: unknown) => {
        assert.ok(e instanceof BlobStoreIoError);
        assert.equal(e.code, 'BLOB_STORE_IO');
        assert.equal(e.message, `blob store I/O error: writing blob ${HELLO_KEY} in dir:${root}: ${reason}`);
        return true;
      });
      assert.equal(await store.has(HELLO_KEY), false);
      assert.deepEqual(await listFiles(root), []);
      // The failure is not sticky: once the filesystem recovers, the same content stores fine.
      const healthy = new DirBlobStore({ root });
      assert.equal(await healthy.put(hello()), HELLO_KEY);
      assert.deepEqual(await listFiles(root), [HELLO_KEY]);
    });
  }

  it('surfaces ENOSPC in the middle of a stream and leaves nothing behind', async () => {
    const store = new DirBlobStore({ root, fs: failingFs('writeFile', 'ENOSPC') });
    async function* chunks() { yield hello(); }
    await assert.rejects(store.putStream(chunks()), {
      message: `blob store I/O error: writing a streamed blob in dir:${root}: no space left on device (ENOSPC)`,
    });
    assert.deepEqual(await listFiles(root), []);
  });

  it('surfaces a read failure as an I/O error, not as a missing blob', async () => {
    await new DirBlobStore({ root }).put(hello());
    const store = new DirBlobStore({ root, fs: failingFs('readFile', 'EIO') });
    await assert.rejects(store.get(HELLO_KEY), {
      message: `blob store I/O error: reading blob ${HELLO_KEY} in dir:${root}: input/output error (EIO)`,
    });
  });

  it('falls back to rename on filesystems without hard links', async () => {
    const store = new DirBlobStore({ root, fs: failingFs('link', 'EPERM') });
    assert.equal(await store.put(hello()), HELLO_KEY);
    assert.deepEqual(await listFiles(root), [HELLO_KEY]);
    assert.equal(new TextDecoder().decode(await store.get(HELLO_KEY)), 'hello');
  });

  it('keeps the first writer\'s object when a racing writer loses the link', async () => {
    const store = new DirBlobStore({ root });
    await Promise.all([store.put(hello()), store.put(hello()), new DirBlobStore({ root }).put(hello())]);
    assert.deepEqual(await listFiles(root), [HELLO_KEY]);
  });

  it('creates a shard directory once, and again if it is removed behind the store\'s back', async () => {
    const mkdirs: string[] = [];
    const store = new DirBlobStore({ root, fs: { ...nodeDirFs, mkdir: (p, o) => { mkdirs.push(p); return nodeDirFs.mkdir(p, o); } } });
    // Two blobs in the same shard (2c…): the second one's write needs no mkdir.
    const other = new TextEncoder().encode('shard-2c-382');
    assert.ok(blobKeyOf(other).startsWith('2c'));
    await store.put(hello());
    const n = mkdirs.length;
    await store.put(other);
    assert.equal(mkdirs.length, n, 'a known shard is not created again');
    await rm(join(root, '2c'), { recursive: true, force: true });
    assert.equal(await store.put(hello()), HELLO_KEY);
    assert.ok(mkdirs.length > n, 'a vanished shard is recreated');
    assert.equal(new TextDecoder().decode(await store.get(HELLO_KEY)), 'hello');
    assert.deepEqual(await listFiles(root), [HELLO_KEY]);
  });

  it('objects at the size read and written inline, and one byte past it (through the thread pool), round trip', async () => {
    const store = new DirBlobStore({ root });
    const objects = [64 * 1024, 64 * 1024 + 1, 0].map((n) => new Uint8Array(n).map((_, i) => (i * 7 + n) % 251));
    const keys = await store.putAll(objects);
    for (const [i, key] of keys.entries()) assert.deepEqual(await store.get(key), objects[i]);
    assert.deepEqual(await listFiles(root), [...keys].sort());
  });

  it('putAll makes a batch durable with one barrier: every temp file is synced before any gets a name, every name before the directories are synced', async () => {
    const steps: string[] = [];
    const recording: DirFs = {
      ...nodeDirFs,
      open: async (path, flags, mode) => {
        const handle = await nodeDirFs.open(path, flags, mode);
        const what = flags === 'wx' ? 'file' : 'dir';
        return { writeFile: (d) => handle.writeFile(d), sync: async () => { await handle.sync(); steps.push(`sync ${what}`); }, close: () => handle.close() };
      },
      link: async (a, b) => { await nodeDirFs.link(a, b); steps.push('link'); },
    };
    const store = new DirBlobStore({ root, fs: recording });
    const objects = Array.from({ length: 6 }, (_, i) => new TextEncoder().encode(`object ${i}`));
    const keys = await store.putAll(objects);
    const shards = new Set(keys.map((k) => k.slice(0, 2))).size;
    // The first batch also creates the root: it is synced once, with the shards.
    assert.deepEqual(steps, [...Array(6).fill('sync file'), ...Array(6).fill('link'), ...Array(shards + 1).fill('sync dir')]);
    assert.deepEqual(await listFiles(root), [...keys].sort());
    steps.length = 0;
    assert.deepEqual(await store.putAll(objects), keys);
    assert.deepEqual(steps, [], 'stored objects are not written again');
  });

  it('putAll: a failing sync of one object leaves no object of the batch with a name', async () => {
    let syncs = 0;
    const fs: DirFs = {
      ...nodeDirFs,
      open: async (path, flags, mode) => {
        const handle = await nodeDirFs.open(path, flags, mode);
        if (flags !== 'wx') return handle;
        return { writeFile: (d) => handle.writeFile(d), sync: () => (++syncs === 3 ? Promise.reject(errno('EIO')) : handle.sync()), close: () => handle.close() };
      },
    };
    const store = new DirBlobStore({ root, fs });
    const objects = Array.from({ length: 5 }, (_, i) => new TextEncoder().encode(`object ${i}`));
    await assert.rejects(store.putAll(objects), {
      message: `blob store I/O error: writing 5 blobs in dir:${root}: input/output error (EIO)`,
    });
    assert.deepEqual(await listFiles(root), [], 'no object and no temp file');
  });

  it('treats a non-file at an object path as absent', async () => {
    const store = new DirBlobStore({ root });
    await writeFile(join(root, '2c'), 'not a directory');
    assert.equal(await store.has(HELLO_KEY), false);
    assert.equal(await store.get(HELLO_KEY), undefined);
  });
});
