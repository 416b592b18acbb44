// Store ⇄ run round trips (supervisor/fs/mount-image.ts with worker/ops/fs/mount-fs.ts): a tree
// read for the worker, changed in a MountFs the way a script would, and committed back; kind
// changes (file ↔ directory), renames, deletes and symlinks; caps on what can be mounted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirBlobStore, type BlobStore } from '../../../supervisor/stores/blob/index.ts';
import { FsStore } from '../../../supervisor/fs/fs-store.ts';
import { commitMount, loadMount, loadMountImage, MountTooLargeError } from '../../../supervisor/fs/mount-image.ts';
import { MountFs } from '../../../worker/ops/fs/mount-fs.ts';
import { DEFAULT_MOUNT_LIMITS } from '../../../shared/fs-mount.ts';

async function withStore(fn: (store: FsStore) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-mount-image-'));
  const store = new FsStore({ blobs: new DirBlobStore({ root: dir }), log: () => {} });
  try {
    await fn(store);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function tree(store: FsStore, root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const [path, e] of store.walk(root)) {
    if (e.kind === 'file') out[path] = `${(e.mode & 0o777).toString(8)}:${Buffer.from(await store.readFile(e)).toString()}`;
    else if (e.kind === 'symlink') out[path] = `-> ${e.target}`;
  }
  return out;
}

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

test('a run\'s changes commit into the tree the run saw', async () => {
  await withStore(async (store) => {
    const base = await store.commit(undefined, new Map([
      ['keep.txt', { kind: 'file', bytes: enc('keep') }],
      ['file-becomes-dir', { kind: 'file', bytes: enc('f') }],
      ['dir-becomes-file/x', { kind: 'file', bytes: enc('x') }],
      ['dir-becomes-file/y/z', { kind: 'file', bytes: enc('z') }],
      ['moved/a', { kind: 'file', bytes: enc('a'), mode: 0o600 }],
      ['gone/deep/g', { kind: 'file', bytes: enc('g') }],
      ['link', { kind: 'symlink', target: 'keep.txt' }],
    ]));
    const image = await loadMountImage(store, base, DEFAULT_MOUNT_LIMITS);
    assert.equal(image.entries.length, 7);
    const fs = new MountFs(image, image.limits);
    assert.equal(Buffer.from(fs.readFile('/work/link')).toString(), 'keep');
    assert.deepEqual(fs.changes(), [], 'nothing written: no changes');
    fs.remove('/work/file-becomes-dir', { fileOnly: true }, 'unlink');
    fs.mkdir('/work/file-becomes-dir/sub', true, undefined);
    fs.writeFile('/work/file-becomes-dir/sub/n', enc('n'), 'w', undefined);
    fs.remove('/work/dir-becomes-file', { recursive: true }, 'rm');
    fs.writeFile('/work/dir-becomes-file', enc('now a file'), 'w', 0o755);
    fs.rename('/work/moved', '/work/renamed');
    fs.remove('/work/gone', { recursive: true }, 'rm');
    fs.symlink('renamed/a', '/work/link2');
    fs.mkdir('/work/empty', false, undefined);
    const id = await commitMount(store, base, fs.changes());
    assert.deepEqual(await tree(store, id), {
      'dir-becomes-file': '755:now a file',
      'file-becomes-dir/sub/n': '644:n',
      'keep.txt': '644:keep',
      link: '-> keep.txt',
      link2: '-> renamed/a',
      'renamed/a': '600:a',
    });
    assert.equal(await commitMount(store, id, []), id);
  });
});

test('an empty mount, and snapshots too large to mount', async () => {
  await withStore(async (store) => {
    assert.deepEqual(await loadMountImage(store, undefined, DEFAULT_MOUNT_LIMITS), { entries: [], limits: DEFAULT_MOUNT_LIMITS });
    assert.equal(await commitMount(store, undefined, []), await store.emptyTree());
    const many = await store.commit(undefined, new Map(Array.from({ length: 20 }, (_, i) => [`f${i}`, { kind: 'file' as const, bytes: enc(String(i)) }])));
    await assert.rejects(loadMountImage(store, many, { maxEntries: 10, maxWriteBytes: 1 }), (e) => e instanceof MountTooLargeError && e.message === 'it holds more than 10 entries');
    await assert.rejects(loadMountImage(store, 'f'.repeat(64), DEFAULT_MOUNT_LIMITS), /snapshot f{64} was not found in the filesystem store/);
  });
});

test('lazy mount: structure only; a file is fetched on first read; unchanged bytes beyond 64 MiB are dropped and fetched again; written ones stay', async () => {
  await withStore(async (store) => {
    const MiB = 1024 * 1024;
    // 70 files of 1 MiB (distinct), more than the 64 MiB a run keeps of unchanged bytes.
    const files = new Map(Array.from({ length: 70 }, (_, i) => [`f${String(i).padStart(2, '0')}`, { kind: 'file' as const, bytes: new Uint8Array(MiB).fill(i + 1) }]));
    const base = await store.commit(undefined, files);
    const mount = await loadMount(store, base, DEFAULT_MOUNT_LIMITS);
    assert.ok(mount.image.entries.every((e) => e.kind === 'file' && e.bytes === undefined && e.size === MiB));
    const bytes = new Map<string, Uint8Array>();
    for (const e of mount.image.entries) if (e.kind === 'file') bytes.set(e.id, await mount.read(e.id));
    const fetched: string[] = [];
    const fs = new MountFs(mount.image, mount.image.limits, (id) => { fetched.push(id); return bytes.get(id)!; });
    const idOf = (name: string): string => {
      const e = mount.image.entries.find((x) => x.path === name);
      assert.ok(e?.kind === 'file');
      return e.id;
    };
    assert.equal(fs.stat('/work/f00', true).size, MiB);
    assert.deepEqual(fetched, [], 'stat fetches nothing');
    fs.writeFile('/work/f00', enc('+'), 'a', undefined);
    for (let i = 1; i < 70; i++) assert.equal(fs.readFile(`/work/f${String(i).padStart(2, '0')}`)[0], i + 1);
    assert.equal(fetched.length, 70);
    // f01…f05 were dropped (the oldest unchanged), f69 is kept; the appended f00 is the run's own.
    assert.equal(fs.readFile('/work/f69')[0], 70);
    assert.equal(fs.readFile('/work/f01')[0], 2);
    assert.deepEqual(fetched.slice(70), [idOf('f01')]);
    assert.equal(fs.readFile('/work/f00').byteLength, MiB + 1);
    assert.equal(fetched.length, 71);
    assert.deepEqual(fs.changes(), [{ path: 'f00', kind: 'file', mode: 0o644, bytes: fs.readFile('/work/f00') }]);
  });
});

test('a change by id commits only ids of the mounted tree: a worker cannot copy in an object it was not given', async () => {
  await withStore(async (store) => {
    const base = await store.commit(undefined, new Map([['mine.txt', { kind: 'file', bytes: enc('mine') }]]));
    const foreign = await store.putFile(enc('another tenant'));
    const mount = await loadMount(store, base, DEFAULT_MOUNT_LIMITS);
    await assert.rejects(commitMount(store, base, [{ path: 'stolen.txt', kind: 'file', mode: 0o644, id: foreign.id }], mount),
      { message: `object ${foreign.id} is not in this run's filesystem snapshot` });
    const mine = mount.image.entries[0]!;
    assert.ok(mine.kind === 'file');
    const id = await commitMount(store, base, [{ path: 'copy.txt', kind: 'file', mode: 0o600, id: mine.id }], mount);
    assert.deepEqual(await tree(store, id), { 'copy.txt': '600:mine', 'mine.txt': '644:mine' });
  });
});

test('mount structures are cached by directory id: a commit\'s output mounts without reading the store, and equals a cold read', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-mount-image-'));
  try {
    const blobs = new DirBlobStore({ root: dir });
    let gets = 0;
    const counting: BlobStore = {
      location: blobs.location,
      put: (b) => blobs.put(b),
      putAll: (bs) => blobs.putAll(bs),
      putStream: (c) => blobs.putStream(c),
      get: (key) => { gets++; return blobs.get(key); },
      has: (k) => blobs.has(k),
      size: (k) => blobs.size(k),
      delete: (k) => blobs.delete(k),
      close: () => blobs.close(),
    };
    const store = new FsStore({ blobs: counting, log: () => {} });
    const files = new Map(Array.from({ length: 60 }, (_, i) => [`d${i % 3}/sub${i % 2}/f${i}`, { kind: 'file' as const, bytes: enc(`file ${i}`) }]));
    const base = await store.commit(undefined, files);
    const first = await loadMount(store, base, DEFAULT_MOUNT_LIMITS);
    const fs = new MountFs(first.image, first.image.limits, (id) => enc(`file ${first.image.entries.findIndex((e) => e.kind === 'file' && e.id === id)}`));
    fs.writeFile('/work/d1/sub0/f4', enc('changed'), 'w', undefined);
    fs.writeFile('/work/d2/new', enc('new'), 'w', undefined);
    gets = 0;
    const next = await commitMount(store, base, fs.changes(), first);
    const warm = await loadMount(store, next, DEFAULT_MOUNT_LIMITS);
    assert.equal(gets, 0, 'the commit read nothing back, and the mount found every node and structure cached');
    const cold = await loadMount(new FsStore({ blobs, log: () => {} }), next, DEFAULT_MOUNT_LIMITS);
    assert.deepEqual(warm.image, cold.image);
    assert.equal(warm.image.entries.length, 61);
    assert.deepEqual(warm.image.entries.slice(0, 3).map((e) => e.path), ['d0/sub0/f0', 'd0/sub0/f12', 'd0/sub0/f18']);
    const changed = warm.image.entries.find((e) => e.path === 'd1/sub0/f4');
    assert.ok(changed?.kind === 'file');
    assert.equal(Buffer.from(await warm.read(changed.id)).toString(), 'changed');
    // A cached structure still answers to each mount's own limits.
    await assert.rejects(loadMount(store, next, { maxEntries: 60, maxWriteBytes: 1 }), (e) => e instanceof MountTooLargeError && e.message === 'it holds more than 60 entries');
    await store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a run that edits in place lists its changes without a walk, in image order; a reshape (a create, a remove) lists them by the walk', async () => {
  const image = {
    entries: [
      { path: 'a/x', kind: 'file' as const, mode: 0o644, size: 1, id: 'a'.repeat(64), bytes: enc('x') },
      { path: 'a/y', kind: 'file' as const, mode: 0o644, size: 1, id: 'b'.repeat(64), bytes: enc('y') },
      { path: 'b/z', kind: 'file' as const, mode: 0o644, size: 1, id: 'c'.repeat(64), bytes: enc('z') },
      { path: 'l', kind: 'symlink' as const, target: 'a/x' },
    ],
    limits: DEFAULT_MOUNT_LIMITS,
  };
  const edited = (): MountFs => {
    const fs = new MountFs(image, image.limits);
    fs.writeFile('/work/b/z', enc('Z'), 'a', undefined);
    fs.pwrite('/work/a/x', enc('X'), 0);
    fs.chmod('/work/a/y', 0o600);
    fs.truncate('/work/a/y', 0);
    fs.chmod('/work/l', 0o755);
    return fs;
  };
  const inPlace = [
    { path: 'a/x', kind: 'file', mode: 0o755, bytes: enc('X') },
    { path: 'a/y', kind: 'file', mode: 0o600, bytes: enc('') },
    { path: 'b/z', kind: 'file', mode: 0o644, bytes: enc('zZ') },
  ];
  // chmod follows the symlink: a/x's mode changes, the link is unchanged.
  assert.deepEqual(edited().changes(), inPlace);
  const created = edited();
  created.writeFile('/work/a/new', enc('n'), 'w', undefined);
  assert.deepEqual(created.changes(), [inPlace[0], inPlace[1], { path: 'a/new', kind: 'file', mode: 0o644, bytes: enc('n') }, inPlace[2]]);
  const removed = edited();
  removed.remove('/work/b/z', {}, 'unlink');
  assert.deepEqual(removed.changes(), [...inPlace.slice(0, 2), { path: 'b/z', kind: 'delete' }]);
  const untouched = new MountFs(image, image.limits);
  untouched.readFile('/work/l');
  untouched.utimes('/work/a/x', 1, 2, true);
  assert.deepEqual(untouched.changes(), [], 'reads and utimes change nothing');
});
