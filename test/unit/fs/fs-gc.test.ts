// Garbage collection over a real directory store: what labels, reflogs, session logs and recent
// pins reach is kept (chunked files included); unreachable objects older than the cutoff go;
// content a writer re-uses is refreshed and survives; an object refreshed between the listing and
// the delete survives; a directory shared with another store is refused. Objects are aged by
// setting their mtime, as time would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirBlobStore } from '../../../supervisor/stores/blob/index.ts';
import { FsService, FsStore, LabelsDb } from '../../../supervisor/fs/index.ts';
import { gcRefusal } from '../../../supervisor/fs/open-fs.ts';

async function keys(blobs: DirBlobStore): Promise<string[]> {
  const out: string[] = [];
  for await (const o of blobs.list()) out.push(o.key);
  return out.sort();
}

/** Sets every listed object's mtime `ageMs` into the past. */
async function age(blobs: DirBlobStore, ageMs: number, only?: readonly string[]): Promise<void> {
  const t = new Date(Date.now() - ageMs);
  for (const k of only ?? await keys(blobs)) utimesSync(blobs.objectPath(k), t, t);
}

test('mark and sweep keeps what roots reach and deletes the rest', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-fs-gc-'));
  const labels = new LabelsDb(join(dir, 'labels'));
  const blobs = new DirBlobStore({ root: join(dir, 'blobs'), refreshAfterMs: 60_000 });
  const store = new FsStore({ blobs, log: () => {}, pin: (id) => labels.pin(id) });
  // A writer that pins nothing (as another process whose ids nobody holds).
  const bare = new FsService({ store: new FsStore({ blobs, log: () => {} }), labels: new LabelsDb(join(dir, 'other-labels')) });
  const sessions: string[] = [];
  const fs = new FsService({ store, labels, blobs, sessionRoots: () => sessions });
  try {
    const big = randomBytes(700 * 1024);
    const k = await bare.commit({ 'k.txt': 'kept\n', 'big.bin': big });
    const r = await bare.commit({ 'r.txt': 'reflog\n' });
    assert.equal((await fs.push({ ca_id: k, label: 'main' })).status, 'advanced');
    assert.equal((await fs.push({ ca_id: r, label: 'main', expected: k })).status, 'advanced');
    const s = await bare.commit({ 's.txt': 'session\n' });
    sessions.push(s);
    const u = await bare.commit({ 'u.txt': 'gone\n', 'sub/deep.txt': 'gone too\n' });
    const before = await keys(blobs);
    await age(blobs, 2 * 3600_000);
    // Used a moment ago (a mount pins its snapshot): kept for the grace period.
    const p = await bare.commit({ 'p.txt': 'pinned\n' });
    await age(blobs, 2 * 3600_000);
    fs.pin(p);

    const dry = await fs.gc({ grace_secs: 3600, dry_run: true });
    assert.deepEqual([dry.deleted, dry.scanned, dry.missing, dry.dry_run], [4, before.length + 2, 0, true]);
    assert.equal((await keys(blobs)).length, before.length + 2);

    const report = await fs.gc({ grace_secs: 3600 });
    assert.deepEqual([report.deleted, report.scanned, report.kept_recent, report.missing, report.roots], [4, before.length + 2, 0, 0, 4]);
    assert.equal(report.reachable, before.length + 2 - 4);
    assert.equal(await store.isTree(u), false);
    for (const [root, path, text] of [[k, 'k.txt', 'kept\n'], [r, 'r.txt', 'reflog\n'], [s, 's.txt', 'session\n'], [p, 'p.txt', 'pinned\n']] as const) {
      const e = await store.lookup(root, path);
      assert.ok(e?.kind === 'file');
      assert.equal(Buffer.from(await store.readFile(e)).toString(), text);
    }
    const bigEntry = await store.lookup(k, 'big.bin');
    assert.ok(bigEntry?.kind === 'file' && bigEntry.chunked);
    assert.deepEqual(Buffer.from(await store.readFile(bigEntry)), big);
    // Nothing left to collect.
    assert.equal((await fs.gc({ grace_secs: 0 })).deleted, 0);

    // Content a writer re-uses is refreshed (it is older than refreshAfterMs) and outlives its old tree.
    const w = await bare.commit({ 'w.txt': 'reused\n' });
    const wBlob = (await store.lookup(w, 'w.txt'));
    assert.ok(wBlob?.kind === 'file');
    await age(blobs, 2 * 3600_000, [w, wBlob.id]);
    await store.putFile(Buffer.from('reused\n'));
    const again = await fs.gc({ grace_secs: 3600 });
    assert.deepEqual([again.deleted, again.kept_recent], [1, 1]);
    assert.equal(await blobs.has(w), false);
    assert.equal(await blobs.has(wBlob.id), true);

    // Refreshed after the listing, before the delete: the delete re-checks and keeps it.
    await age(blobs, 2 * 3600_000, [wBlob.id]);
    const cutoff = Date.now() - 3600_000;
    assert.ok((await keys(blobs)).includes(wBlob.id));
    await store.putFile(Buffer.from('reused\n'));
    assert.equal(await blobs.deleteIfOlder(wBlob.id, cutoff), false);
    assert.equal(await blobs.has(wBlob.id), true);
    await age(blobs, 2 * 3600_000, [wBlob.id]);
    assert.equal(await blobs.deleteIfOlder(wBlob.id, cutoff), true);
    assert.equal(await blobs.has(wBlob.id), false);
    assert.equal(await blobs.deleteIfOlder(wBlob.id, cutoff), false);

    await assert.rejects(fs.gc({ grace_secs: -1 }), { message: 'fs gc: grace_secs must be an integer from 0 to 31536000, got -1' });
  } finally {
    labels.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a blob directory shared with another store is never swept', async () => {
  const base = { fsStore: 'dir', fsLabelsDb: '/srv/labels' } as const;
  assert.equal(gcRefusal({ ...base, fsDir: '/srv/blobs', heapStore: 'dir', heapDir: '/srv/heaps', sessionDbPath: '/srv/db' }), undefined);
  assert.equal(gcRefusal({ ...base, fsDir: '/srv/heaps/fs', heapStore: 'dir', heapDir: '/srv/heaps' }),
    '--fs-dir /srv/heaps/fs overlaps --heap-dir (/srv/heaps): it may hold objects that are not filesystem snapshots');
  assert.equal(gcRefusal({ ...base, fsDir: '/srv/heaps/fs', heapStore: 's3', heapDir: '/srv/heaps' }), undefined);
  assert.equal(gcRefusal({ ...base, fsDir: '/srv/db', sessionDbPath: '/srv/db' }),
    '--fs-dir /srv/db overlaps the artifact store (/srv/db/blobs): it may hold objects that are not filesystem snapshots');
  assert.equal(gcRefusal({ ...base, fsDir: '/var/cache/runjs/fs', cacheDir: '/var/cache/runjs' }),
    '--fs-dir /var/cache/runjs/fs overlaps --cache-dir (/var/cache/runjs): it may hold objects that are not filesystem snapshots');
  const dir = mkdtempSync(join(tmpdir(), 'runjs-fs-gc-refused-'));
  const labels = new LabelsDb(join(dir, 'labels'));
  const blobs = new DirBlobStore({ root: join(dir, 'blobs') });
  const fs = new FsService({ store: new FsStore({ blobs }), labels, blobs, gcRefusal: 'the directory is shared' });
  try {
    await assert.rejects(fs.gc({}), { message: 'fs gc refused: the directory is shared' });
  } finally {
    labels.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
