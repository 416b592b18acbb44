// Group commit of heap writes (supervisor/heaps/group-commit.ts) over a real dir blob store: heaps
// stored at the same time share commits, every one resolves only with its own keys and is then
// readable by another process's store, and one heap that cannot be written fails alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { HeapStore } from '../../../supervisor/heaps/index.ts';
import { GroupCommit } from '../../../supervisor/heaps/group-commit.ts';
import { blobKeyOf, createBlobStore, DirBlobStore } from '../../../supervisor/stores/blob/index.ts';
import { nodeDirFs, type DirFs } from '../../../supervisor/stores/blob/dir-fs.ts';
import { heapImageKey } from '../../../shared/image-store.ts';
import { HEAP_IMAGE_FORMAT, IMAGE_PAGE_BYTES, type HeapImage } from '../../../shared/heap-image.ts';

function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-groupcommit-'));
  return fn(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}

/** A one-page image whose page is filled with `fill` (distinct fills: distinct heaps). */
function image(fill: number): HeapImage {
  return {
    manifest: {
      format: HEAP_IMAGE_FORMAT, engine: 'quickjs', build: 'b'.repeat(64), prelude: 'p1', pages: 2, ranges: [[0, 1]],
      handles: { rt: 64, ctx: 128, internal: 256, bridge: 512, scratch: 1024 }, generation: 1,
    },
    bytes: new Uint8Array(IMAGE_PAGE_BYTES).fill(fill),
  };
}

test('40 heaps stored at once share 3 commits; each resolves with its own key and restores, verified, from another store', () => withDir(async (dir) => {
  const s = new HeapStore({ blobs: createBlobStore({ backend: 'dir', dir }) });
  const images = Array.from({ length: 40 }, (_, i) => image(i + 1));
  const puts = await Promise.all(images.map((img) => s.put(img)));
  // Two commits start at once (one heap each); the other 38 heaps wait for one of them and share the third.
  assert.deepEqual(s.commitStats, { commits: 3, puts: 40 });
  assert.equal(new Set(puts.map((p) => p.key)).size, 40);
  const other = new HeapStore({ blobs: createBlobStore({ backend: 'dir', dir }) });
  for (const [i, p] of puts.entries()) assert.equal(heapImageKey((await other.get(p.key)).image), heapImageKey(images[i]!));
  // A heap stored alone later is committed at once, on its own.
  await s.put(image(99));
  assert.deepEqual(s.commitStats, { commits: 4, puts: 41 });
}));

test('a put that fails inside a shared commit fails alone; the others are durable', () => withDir(async (root) => {
  const pairs = Array.from({ length: 6 }, (_, i) => [Buffer.from(`payload ${i}`), Buffer.from(`record ${i}`)]);
  const shard = (bytes: Uint8Array): string => blobKeyOf(bytes).slice(0, 2);
  const bad = pairs[4]![0]!;
  assert.equal(pairs.flat().filter((b) => shard(b) === shard(bad)).length, 1, 'the failing object shares its shard with no other');
  const badShard = join(root, shard(bad));
  const fs: DirFs = {
    ...nodeDirFs,
    open: (path, flags, mode) => (flags === 'wx' && dirname(path) === badShard
      ? Promise.reject(Object.assign(new Error('EIO: simulated failure'), { code: 'EIO' }))
      : nodeDirFs.open(path, flags, mode)),
  };
  const commits = new GroupCommit(new DirBlobStore({ root, fs }));
  const results = await Promise.allSettled(pairs.map((objects) => commits.putAll(objects)));
  // Pairs 0 and 1 commit at once; 2 to 5 share a commit, which fails and is retried pair by pair.
  assert.deepEqual(commits.stats, { commits: 3, puts: 6 });
  assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
  assert.equal((results[4] as PromiseRejectedResult).reason.message, `blob store I/O error: writing 2 blobs in dir:${root}: input/output error (EIO)`);
  const reader = new DirBlobStore({ root });
  for (const [i, r] of results.entries()) {
    if (r.status !== 'fulfilled') continue;
    assert.deepEqual(r.value, pairs[i]!.map(blobKeyOf));
    for (const bytes of pairs[i]!) assert.deepEqual(Buffer.from((await reader.get(blobKeyOf(bytes)))!), bytes);
  }
  assert.equal(await reader.has(blobKeyOf(bad)), false);
}));
