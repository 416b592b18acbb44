// The `filesystem` policy over node:fs on both engines: each operation is decided on the reference's
// input document; a denial is EACCES in the script; the async APIs wait for decisions, a sync call
// works once the same operation was allowed in the run, and the decision log records each one.
import { after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { guestSuite } from '../helpers/both-engines.ts';
import { parsePolicyConfig } from '../../supervisor/config/policy-config.ts';

const hookDir = mkdtempSync(join(tmpdir(), 'runjs-fs-hooks-'));
after(() => rmSync(hookDir, { recursive: true, force: true }));
const hookFile = join(hookDir, 'fs.js');
writeFileSync(hookFile, `export default (input) => input.path.startsWith('/work/secret') ? { allow: false, reason: 'secrets are off limits' } : true;`);

guestSuite('node:fs under a filesystem policy', (g) => {
  g.test('async APIs are decided per operation; denial is EACCES; sync reuses a decision', async (ctx) => {
    const res = await ctx.run(`
      import fs from 'node:fs';
      await fs.promises.writeFile('/work/a.txt', 'a');
      console.log(await fs.promises.readFile('/work/a.txt', 'utf8'));
      try { await fs.promises.writeFile('/work/secret.txt', 'x'); } catch (e) { console.log(e.code, e.message); }
      await new Promise((r) => fs.readdir('/work', (err, names) => { console.log(err, names); r(); }));
      console.log(fs.readFileSync('/work/a.txt', 'utf8'));
      try { fs.statSync('/work/a.txt'); } catch (e) { console.log(e.code, e.message.slice(0, 60)); }
      try { fs.writeFileSync('/work/secret.txt', 'x'); } catch (e) { console.log(e.code); }
      console.log(fs.existsSync('/work/secret.txt'));
    `);
    assert.equal(res.outcome.status, 'completed', JSON.stringify(res));
    assert.equal(res.output, [
      'a',
      "EACCES EACCES: permission denied, writeFile '/work/secret.txt': filesystem denied by policy: secrets are off limits",
      'null ["a.txt"]',
      'a',
      'EACCES EACCES: permission denied: a filesystem policy decides this ',
      'EACCES',
      'false',
      '',
    ].join('\n'));
    const ops = (res.decisions?.entries ?? []).map((d: any) => `${d.category}:${d.input?.operation}:${d.input?.path}:${d.allow ?? d.verdict ?? d.decision}`);
    assert.deepEqual(ops.map((o) => o.split(':').slice(0, 3).join(':')), [
      'filesystem:writeFile:/work/a.txt', 'filesystem:readFile:/work/a.txt', 'filesystem:writeFile:/work/secret.txt', 'filesystem:readdir:/work',
    ]);
  });
}, {
  pool: {
    get policies() {
      return parsePolicyConfig({ filesystem: { policies: [{ url: pathToFileURL(hookFile).href }] } });
    },
  },
});
