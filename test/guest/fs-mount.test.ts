// node:fs against the run's /work (worker/ops/fs/, worker/guest/platform/parts/fs.js) on both
// engines: the mounted snapshot, the sync, callback and promise APIs, streams, symlinks, the
// changes a completed run reports, caps and hostile paths.
import assert from 'node:assert/strict';
import { guestSuite } from '../helpers/both-engines.ts';
import { createHash } from 'node:crypto';
import { DEFAULT_MOUNT_LIMITS, type MountFileEntry, type MountImage } from '../../shared/fs-mount.ts';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const idOf = (text: string): string => createHash('sha256').update(text).digest('hex');
/** A file sent inline (its bytes with the image), as a tool would; runs on a server fetch by id. */
const file = (path: string, mode: number, text: string): MountFileEntry => ({ path, kind: 'file', mode, size: enc(text).byteLength, id: idOf(text), bytes: enc(text) });
const IMAGE: MountImage = {
  entries: [
    file('hello.txt', 0o644, 'hello\n'),
    file('src/a.js', 0o755, 'export const a = 1;\n'),
    file('src/deep/b.txt', 0o600, 'b'),
    { path: 'link', kind: 'symlink', target: 'src/a.js' },
  ],
  limits: DEFAULT_MOUNT_LIMITS,
};

guestSuite('node:fs on the mounted /work', (g) => {
  g.test('reads the mounted tree: readFile, readdir withFileTypes, stat modes, symlinks', async (ctx) => {
    const out = await ctx.output(`
      import fs from 'node:fs';
      console.log(fs.readFileSync('/work/hello.txt', 'utf8').trim(), fs.readFileSync('/work/link', 'utf8').trim());
      console.log(fs.readdirSync('/work').join(','), fs.readdirSync('/work/src', { withFileTypes: true }).map((d) => d.name + ':' + (d.isDirectory() ? 'd' : d.isFile() ? 'f' : 'l')).join(','));
      const s = fs.statSync('/work/src/a.js');
      console.log(s.isFile(), (s.mode & 0o777).toString(8), s.size, typeof s.mtimeMs, s.mtime instanceof Date);
      console.log(fs.lstatSync('/work/link').isSymbolicLink(), fs.readlinkSync('/work/link'), fs.realpathSync('/work/link'));
      console.log(fs.existsSync('/work/nope'), fs.existsSync('/work/src/deep'), fs.readdirSync('/'), fs.readdirSync('/work', { recursive: true }).length);
    `, { mount: IMAGE });
    assert.equal(out, [
      'hello export const a = 1;',
      'hello.txt,link,src a.js:f,deep:d',
      'true 755 20 number true',
      'true src/a.js /work/src/a.js',
      'false true ["work"] 6',
      '',
    ].join('\n'));
  });

  g.test('writes: sync, callback and promise APIs; the run reports its changes', async (ctx) => {
    const res = await ctx.run(`
      import fs from 'node:fs';
      import fsp from 'node:fs/promises';
      fs.writeFileSync('/work/new.txt', 'one');
      fs.appendFileSync('/work/new.txt', '+two');
      fs.mkdirSync('/work/x/y/z', { recursive: true });
      fs.writeFileSync('/work/x/y/z/deep.bin', new Uint8Array([1, 2, 3]));
      fs.renameSync('/work/src/deep', '/work/moved');
      fs.unlinkSync('/work/hello.txt');
      fs.copyFileSync('/work/new.txt', '/work/copy.txt');
      await fsp.writeFile('/work/p.txt', 'promised');
      console.log(await fsp.readFile('/work/p.txt', 'utf8'), (await fsp.stat('/work/x')).isDirectory());
      await new Promise((resolve, reject) => fs.readFile('/work/new.txt', 'utf8', (err, data) => { if (err) reject(err); else { console.log(data); resolve(); } }));
      fs.rmSync('/work/src', { recursive: true });
      console.log(fs.readdirSync('/work').join(','));
    `, { mount: IMAGE });
    assert.equal(res.outcome.status, 'completed', JSON.stringify(res));
    assert.equal(res.output, 'promised true\none+two\ncopy.txt,link,moved,new.txt,p.txt,x\n');
    const changes = new Map((res.fsChanges ?? []).map((c) => [c.path, c]));
    assert.deepEqual([...changes.keys()].sort(), ['copy.txt', 'hello.txt', 'moved/b.txt', 'new.txt', 'p.txt', 'src/a.js', 'src/deep/b.txt', 'x/y/z/deep.bin']);
    assert.equal(changes.get('hello.txt')!.kind, 'delete');
    assert.equal(changes.get('src/a.js')!.kind, 'delete');
    const moved = changes.get('moved/b.txt')!;
    // Moved, never written: its content travels by id.
    assert.deepEqual(moved, { path: 'moved/b.txt', kind: 'file', mode: 0o600, id: idOf('b') });
  });

  g.test('a run that writes nothing reports no changes; a failed run reports none', async (ctx) => {
    const none = await ctx.run(`require('fs').readFileSync('/work/hello.txt')`, { mount: IMAGE });
    assert.deepEqual(none.fsChanges, []);
    const failed = await ctx.run(`require('fs').writeFileSync('/work/a', 'x'); throw new Error('no')`, { mount: IMAGE });
    assert.equal(failed.outcome.status, 'failed');
    assert.equal(failed.fsChanges, undefined);
  });

  g.test('errors are Node-shaped', async (ctx) => {
    const out = await ctx.output(`
      const fs = require('fs');
      const show = (f) => { try { f(); console.log('ok'); } catch (e) { console.log(e.code, e.syscall ?? '-', e.errno ?? '-', e.message); } };
      show(() => fs.readFileSync('/work/missing'));
      show(() => fs.readFileSync('/work/src'));
      show(() => fs.mkdirSync('/work/src'));
      show(() => fs.rmdirSync('/work/src'));
      show(() => fs.readlinkSync('/work/hello.txt'));
      show(() => fs.writeFileSync('/work/hello.txt/x', ''));
      show(() => fs.renameSync('/work/src', '/work/src/deep/inner'));
    `, { mount: IMAGE });
    assert.equal(out, [
      "ENOENT open -2 ENOENT: no such file or directory, open '/work/missing'",
      "EISDIR read -21 EISDIR: illegal operation on a directory, read '/work/src'",
      "EEXIST mkdir -17 EEXIST: file already exists, mkdir '/work/src'",
      "ENOTEMPTY rmdir -39 ENOTEMPTY: directory not empty, rmdir '/work/src'",
      "EINVAL readlink -22 EINVAL: invalid argument, readlink '/work/hello.txt'",
      "ENOTDIR open -20 ENOTDIR: not a directory, open '/work/hello.txt/x'",
      "EINVAL rename -22 EINVAL: invalid argument, rename '/work/src' -> '/work/src/deep/inner'",
      '',
    ].join('\n'));
  });

  g.test('hostile paths: nothing outside /work, traversal stays inside, NUL bytes, symlink loops', async (ctx) => {
    const out = await ctx.output(`
      const fs = require('fs');
      const show = (f) => { try { const v = f(); console.log('ok', JSON.stringify(v)); } catch (e) { console.log(e.code); } };
      show(() => fs.readFileSync('/etc/passwd', 'utf8'));
      show(() => fs.readFileSync('/work/../../../etc/passwd', 'utf8'));
      show(() => fs.readFileSync('../work/hello.txt', 'utf8'));
      show(() => fs.writeFileSync('/evil', 'x'));
      show(() => fs.mkdirSync('/tmp'));
      show(() => fs.rmSync('/work', { recursive: true }));
      show(() => fs.readFileSync('/work/hello.txt\\0.js'));
      fs.symlinkSync('/work/loop2', '/work/loop1'); fs.symlinkSync('/work/loop1', '/work/loop2');
      show(() => fs.readFileSync('/work/loop1'));
      fs.symlinkSync('/etc/passwd', '/work/out'); fs.symlinkSync('../../../../etc', '/work/up');
      show(() => fs.readFileSync('/work/out'));
      show(() => fs.readdirSync('/work/up'));
      show(() => fs.writeFileSync('/work/' + 'n'.repeat(300), 'x'));
    `, { mount: IMAGE });
    assert.equal(out, [
      'ENOENT', 'ENOENT', 'ok "hello\\n"', 'EROFS', 'EROFS', 'EBUSY', 'ERR_INVALID_ARG_VALUE', 'ELOOP', 'ENOENT', 'ENOENT', 'ENAMETOOLONG', '',
    ].join('\n'));
  });

  g.test('caps: bytes written and entries end in ENOSPC', async (ctx) => {
    const limits = { maxWriteBytes: 1_000_000, maxEntries: 1000 };
    const out = await ctx.output(`
      const fs = require('fs');
      try { fs.writeFileSync('/work/big', new Uint8Array(2_000_000)); } catch (e) { console.log(e.code, e.message); }
      let n = 0;
      try { for (; n < 100_000; n++) fs.writeFileSync('/work/f' + n, ''); } catch (e) { console.log(n, e.code, e.message); }
    `, { mount: { entries: [], limits } });
    assert.equal(out, [
      "ENOSPC ENOSPC: no space left on device: a run may write at most 1000000 bytes, write '/work/big'",
      "1000 ENOSPC ENOSPC: no space left on device: the run's filesystem holds at most 1000 entries, open '/work/f1000'",
      '',
    ].join('\n'));
  });

  g.test('streams and the fs global; without a mount /work is an empty scratch directory', async (ctx) => {
    const out = await ctx.output(`
      const w = fs.createWriteStream('/work/s.txt');
      w.write('a'); w.write('b'); w.end('c');
      await new Promise((r) => w.on('finish', r));
      let got = '';
      for await (const chunk of fs.createReadStream('/work/s.txt', { encoding: 'utf8', highWaterMark: 1 })) got += chunk;
      console.log(got, fs.readdirSync('/work').join(','), typeof fs.promises.readFile);
    `);
    assert.equal(out, 'abc s.txt function\n');
  });
});

guestSuite('node:fs file descriptors', (g) => {
  g.test('open, read, write at positions, fstat, close; FileHandle', async (ctx) => {
    const out = await ctx.output(`
      const fs = require('fs');
      const fd = fs.openSync('/work/f.txt', 'w');
      fs.writeSync(fd, 'hello world');
      fs.writeSync(fd, 'W', 6);
      console.log(fs.fstatSync(fd).size);
      fs.closeSync(fd);
      const r = fs.openSync('/work/f.txt', 'r');
      const buf = Buffer.alloc(5);
      console.log(fs.readSync(r, buf, 0, 5, null), buf.toString(), fs.readSync(r, buf, 0, 5, null), buf.toString());
      try { fs.writeSync(r, 'x'); } catch (e) { console.log(e.code); }
      fs.closeSync(r);
      try { fs.closeSync(r); } catch (e) { console.log(e.code); }
      const a = fs.openSync('/work/f.txt', 'a'); fs.writeSync(a, '!'); fs.closeSync(a);
      const h = await fs.promises.open('/work/f.txt', 'r+');
      await h.write('J', 0);
      const { bytesRead, buffer } = await h.read(Buffer.alloc(20), 0, 20, 0);
      console.log(bytesRead, buffer.subarray(0, bytesRead).toString(), (await h.stat()).size);
      await h.close();
      await new Promise((res) => fs.open('/work/f.txt', 'r', (err, fd2) => fs.read(fd2, Buffer.alloc(3), 0, 3, 0, (err2, n, b) => { console.log(err, err2, n, b.toString()); res(); })));
      try { fs.openSync('/work/missing', 'r'); } catch (e) { console.log(e.code); }
      try { fs.openSync('/work/f.txt', 'wx'); } catch (e) { console.log(e.code); }
    `);
    assert.equal(out, ['11', '5 hello 5  Worl', 'EBADF', 'EBADF', '12 Jello World! 12', 'null null 3 Jel', 'ENOENT', 'EEXIST', ''].join('\n'));
  });
});
