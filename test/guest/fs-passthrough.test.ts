// --fs-passthrough on both engines: a readFile outside /work that the run's filesystem misses
// reads the host's file, read-only; stat, writes and /work are unchanged; a `filesystem` policy
// still decides (a denied path is EACCES). Without the flag the same read is ENOENT.
import { after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createHash } from 'node:crypto';
import { guestSuite } from '../helpers/both-engines.ts';
import { parsePolicyConfig } from '../../supervisor/config/policy-config.ts';
import { DEFAULT_MOUNT_LIMITS, type MountImage } from '../../shared/fs-mount.ts';

const host = mkdtempSync(join(tmpdir(), 'runjs-fs-passthrough-'));
after(() => rmSync(host, { recursive: true, force: true }));
writeFileSync(join(host, 'hello.txt'), 'from the host\n');
mkdirSync(join(host, 'private'));
writeFileSync(join(host, 'private', 'key.txt'), 'secret');
writeFileSync(join(host, 'work-shadow.txt'), 'x');
const hookFile = join(host, 'fs-policy.js');
writeFileSync(hookFile, `export default (input) => input.path.includes('/private/') ? { allow: false, reason: 'private files stay private' } : true;`);

const text = 'in the snapshot\n';
/** A snapshot whose symlink points at the host file: it resolves inside the run's view, never out. */
const IMAGE: MountImage = {
  entries: [
    { path: 'mine.txt', kind: 'file', mode: 0o644, size: text.length, id: createHash('sha256').update(text).digest('hex'), bytes: new TextEncoder().encode(text) },
    { path: 'to-host', kind: 'symlink', target: join(host, 'hello.txt') },
  ],
  limits: DEFAULT_MOUNT_LIMITS,
};

guestSuite('--fs-passthrough on', (g) => {
  g.test('a miss outside /work reads the host file; stat, writes, /work and symlinks stay inside', async (ctx) => {
    const out = await ctx.output(`
      const fs = require('fs');
      const show = (f) => { try { const v = f(); console.log(typeof v === 'string' ? v.trim() : v); } catch (e) { console.log(e.code, e.message); } };
      show(() => fs.readFileSync(${JSON.stringify(join(host, 'hello.txt'))}, 'utf8'));
      console.log((await fs.promises.readFile(${JSON.stringify(join(host, 'hello.txt'))})).length);
      show(() => fs.readFileSync('/work/mine.txt', 'utf8'));
      show(() => fs.statSync(${JSON.stringify(join(host, 'hello.txt'))}).size);
      show(() => fs.writeFileSync(${JSON.stringify(join(host, 'hello.txt'))}, 'overwritten'));
      show(() => fs.writeFileSync('/etc-like.txt', 'x'));
      show(() => fs.readFileSync('/work/nope.txt'));
      show(() => fs.readFileSync('/work/to-host'));
      show(() => fs.readFileSync(${JSON.stringify(join(host, 'nope.txt'))}));
      show(() => fs.readFileSync(${JSON.stringify(host)}));
    `, { mount: IMAGE });
    assert.equal(out, [
      'from the host',
      '14',
      'in the snapshot',
      `ENOENT ENOENT: no such file or directory, stat '${join(host, 'hello.txt')}'`,
      // Writes are what they were without the flag: nothing of the host exists to write to.
      `ENOENT ENOENT: no such file or directory, open '${join(host, 'hello.txt')}'`,
      "EROFS EROFS: read-only file system, open '/etc-like.txt'",
      "ENOENT ENOENT: no such file or directory, open '/work/nope.txt'",
      "ENOENT ENOENT: no such file or directory, open '/work/to-host'",
      `ENOENT ENOENT: no such file or directory, open '${join(host, 'nope.txt')}'`,
      `EISDIR EISDIR: illegal operation on a directory, read '${host}'`,
      '',
    ].join('\n'));
  });
}, { pool: { fsPassthrough: true } });

guestSuite('--fs-passthrough on, under a filesystem policy', (g) => {
  g.test('a host path the policy denies is EACCES; an allowed one reads', async (ctx) => {
    const out = await ctx.output(`
      const fs = require('fs');
      console.log(await fs.promises.readFile(${JSON.stringify(join(host, 'hello.txt'))}, 'utf8'));
      try { await fs.promises.readFile(${JSON.stringify(join(host, 'private', 'key.txt'))}, 'utf8'); } catch (e) { console.log(e.code, e.message); }
    `);
    assert.equal(out, [
      'from the host',
      '',
      `EACCES EACCES: permission denied, readFile '${join(host, 'private', 'key.txt')}': filesystem denied by policy: private files stay private`,
      '',
    ].join('\n'));
  });
}, {
  pool: {
    fsPassthrough: true,
    get policies() {
      return parsePolicyConfig({ filesystem: { policies: [{ url: pathToFileURL(hookFile).href }] } });
    },
  },
});

guestSuite('--fs-passthrough off', (g) => {
  g.test('the same host read is ENOENT', async (ctx) => {
    const out = await ctx.output(`
      try { require('fs').readFileSync(${JSON.stringify(join(host, 'hello.txt'))}); } catch (e) { console.log(e.code, e.message); }
    `, { mount: IMAGE });
    assert.equal(out, `ENOENT ENOENT: no such file or directory, open '${join(host, 'hello.txt')}'\n`);
  });
});
