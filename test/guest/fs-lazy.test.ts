// Lazy reads on both engines: the worker is sent a snapshot's structure (supervisor/fs/
// mount-image.ts loadMount, over a real directory store) and fetches a file's bytes through its
// object pipe (worker/runtime/object-channel.ts) the first time a script needs them, sync or
// async. Only ids of the run's tree are served; a moved file travels back by id.
import assert from 'node:assert/strict';
import { before, after, test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { guestSuite } from '../helpers/both-engines.ts';
import { DirBlobStore } from '../../supervisor/stores/blob/index.ts';
import { FsStore, type FsChange } from '../../supervisor/fs/fs-store.ts';
import { loadMount, type LoadedMount } from '../../supervisor/fs/mount-image.ts';
import { DEFAULT_MOUNT_LIMITS } from '../../shared/fs-mount.ts';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
/** 600 KiB of a fixed pattern: stored as a chunk list (files over 256 KiB are chunked). */
const BIG = new Uint8Array(600 * 1024).map((_, i) => (i * 31 + (i >> 10)) & 0xff);
const BIG_SHA = createHash('sha256').update(BIG).digest('hex');

let dir: string;
let store: FsStore;
let mount: LoadedMount;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'runjs-fs-lazy-'));
  store = new FsStore({ blobs: new DirBlobStore({ root: dir }), log: () => {} });
  const files = new Map(Array.from({ length: 50 }, (_, i) => [`many/f${i}.txt`, { kind: 'file' as const, bytes: enc(`file ${i}\n`) }]));
  const root = await store.commit(undefined, new Map<string, FsChange>([
    ...files,
    ['big.bin', { kind: 'file', bytes: BIG }],
    ['notes.txt', { kind: 'file', bytes: enc('one\n'), mode: 0o600 }],
    ['move-me.txt', { kind: 'file', bytes: enc('moved\n') }],
  ]));
  mount = await loadMount(store, root, DEFAULT_MOUNT_LIMITS);
});
after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Serves the run's object pipe from the store, recording what was asked. */
function served(): { readObject: (id: string) => Promise<Uint8Array>; asked: string[] } {
  const asked: string[] = [];
  return { asked, readObject: (id) => { asked.push(id); return mount.read(id); } };
}

const idOf = (path: string): string => {
  const e = mount.image.entries.find((x) => x.path === path);
  assert.ok(e?.kind === 'file');
  return e.id;
};

guestSuite('lazy reads of the mounted /work', (g) => {
  g.test('the structure arrives without bytes; stat and readdir fetch nothing; reads fetch once', async (ctx) => {
    assert.ok(mount.image.entries.every((e) => e.kind !== 'file' || e.bytes === undefined));
    const s = served();
    const out = await ctx.output(`
      const fs = require('fs');
      console.log(fs.readdirSync('/work/many').length, fs.statSync('/work/big.bin').size, (fs.statSync('/work/notes.txt').mode & 0o777).toString(8));
      console.log(fs.readFileSync('/work/many/f7.txt', 'utf8').trim(), fs.readFileSync('/work/many/f7.txt', 'utf8').trim());
      const big = await fs.promises.readFile('/work/big.bin');
      console.log(big.length, require('crypto').createHash('sha256').update(big).digest('hex'));
    `, { mount: mount.image, readObject: s.readObject });
    assert.equal(out, `50 614400 600\nfile 7 file 7\n614400 ${BIG_SHA}\n`);
    assert.deepEqual(s.asked, [idOf('many/f7.txt'), idOf('big.bin')]);
  });

  g.test('appends write back bytes; a moved file goes back by id, unread', async (ctx) => {
    const s = served();
    const res = await ctx.run(`
      const fs = require('fs');
      fs.appendFileSync('/work/notes.txt', 'two\\n');
      fs.renameSync('/work/move-me.txt', '/work/moved.txt');
      fs.readFileSync('/work/notes.txt', 'utf8')
    `, { mount: mount.image, readObject: s.readObject });
    assert.equal(res.outcome.status, 'completed', JSON.stringify(res));
    assert.deepEqual(s.asked, [idOf('notes.txt')]);
    const changes = [...(res.fsChanges ?? [])].sort((a, b) => (a.path < b.path ? -1 : 1));
    assert.deepEqual(changes, [
      { path: 'move-me.txt', kind: 'delete' },
      { path: 'moved.txt', kind: 'file', mode: 0o644, id: idOf('move-me.txt') },
      { path: 'notes.txt', kind: 'file', mode: 0o600, bytes: enc('one\ntwo\n') },
    ]);
  });

  g.test('a refused fetch is EIO in the script, sync and async', async (ctx) => {
    const out = await ctx.output(`
      const fs = require('fs');
      try { fs.readFileSync('/work/notes.txt') } catch (e) { console.log(e.code, e.message) }
      await fs.promises.readFile('/work/many/f1.txt').catch((e) => console.log(e.code, e.message));
    `, { mount: mount.image, readObject: async (id) => { throw new Error(`object ${id} is not in this run's filesystem snapshot`); } });
    assert.equal(out, [
      `EIO EIO: i/o error: object ${idOf('notes.txt')} is not in this run's filesystem snapshot`,
      `EIO EIO: i/o error: object ${idOf('many/f1.txt')} is not in this run's filesystem snapshot`,
      '',
    ].join('\n'));
  });
});

test('LoadedMount.read (the object pipe\'s route) refuses an id the run\'s tree does not reference', async () => {
  const foreign = await store.putFile(enc('secret of another tenant'));
  await assert.rejects(mount.read(foreign.id), { message: `object ${foreign.id} is not in this run's filesystem snapshot` });
  assert.equal(Buffer.from(await mount.read(idOf('notes.txt'))).toString(), 'one\n');
});
