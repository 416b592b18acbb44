// Mount structures (supervisor/fs/tree-structure.ts): a new root reuses the entries of the
// subdirectories it holds unchanged at the same path (the same objects), makes new ones for the
// directories a commit changed, and never reuses entries under another path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirBlobStore } from '../../../supervisor/stores/blob/index.ts';
import { FsStore, type FsChange } from '../../../supervisor/fs/fs-store.ts';
import { StructureCache } from '../../../supervisor/fs/tree-structure.ts';
import { DEFAULT_MOUNT_LIMITS, type MountEntry } from '../../../shared/fs-mount.ts';

const file = (text: string): FsChange => ({ kind: 'file', bytes: new TextEncoder().encode(text) });
const MAX = DEFAULT_MOUNT_LIMITS.maxEntries;

function byPath(entries: readonly MountEntry[]): Map<string, MountEntry> {
  return new Map(entries.map((e) => [e.path, e]));
}

test('a new root takes the unchanged subdirectories\' entries as they are, and makes the changed ones', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-tree-structure-'));
  const store = new FsStore({ blobs: new DirBlobStore({ root: dir }), log: () => {} });
  try {
    const first = await store.commit(undefined, new Map([
      ['top.txt', file('top')], ['a/x.txt', file('x')], ['a/b/y.txt', file('y')], ['c/z.txt', file('z')],
    ]));
    const one = await store.structures.get(first, MAX);
    assert.deepEqual(one.entries.map((e) => e.path), ['a/b/y.txt', 'a/x.txt', 'c/z.txt', 'top.txt']);

    const second = await store.commit(first, new Map([['c/z.txt', file('z2')]]));
    const two = await store.structures.get(second, MAX);
    // The same entries as a cache that never saw the first root makes.
    assert.deepEqual(two, await new StructureCache(store).get(second, MAX));
    const [before, after] = [byPath(one.entries), byPath(two.entries)];
    assert.equal(after.get('a/x.txt'), before.get('a/x.txt'));
    assert.equal(after.get('a/b/y.txt'), before.get('a/b/y.txt'));
    assert.notEqual(after.get('c/z.txt'), before.get('c/z.txt'));
    assert.notEqual((after.get('c/z.txt') as { id: string }).id, (before.get('c/z.txt') as { id: string }).id);

    // The same subtree (same id) under another path: its entries carry the new path.
    const moved = await store.commit(undefined, new Map([['d/x.txt', file('x')], ['d/b/y.txt', file('y')]]));
    const three = await store.structures.get(moved, MAX);
    assert.deepEqual(three.entries.map((e) => e.path), ['d/b/y.txt', 'd/x.txt']);
    assert.deepEqual(three, await new StructureCache(store).get(moved, MAX));
    // And back at its first path, the first root's entries are right again.
    assert.deepEqual(await store.structures.get(second, MAX), two);
    const again = await store.commit(second, new Map([['top.txt', file('top2')]]));
    assert.deepEqual(await store.structures.get(again, MAX), await new StructureCache(store).get(again, MAX));
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
