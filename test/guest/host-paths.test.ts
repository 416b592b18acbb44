// Nothing a script can reach names a host directory: a sweep of the values and error texts that
// involve paths (working directory, module and file names, stacks, op errors) on both engines
// must not contain the worker's working directory (this repository) or any form of it.
import assert from 'node:assert/strict';
import { guestSuite } from '../helpers/both-engines.ts';

const SWEEP = String.raw`
const out = [];
const t = (f) => { try { out.push(String(f())); } catch (e) { out.push(String(e?.name) + ' ' + String(e?.message) + ' ' + String(e?.stack)); } };
const path = require('node:path'); const url = require('node:url'); const os = require('node:os');
for (const p of ['foo', 'C:foo', 'C:', '.', '..\\x', '']) { t(() => path.win32.toNamespacedPath(p)); t(() => path.win32.resolve(p)); t(() => path.win32.relative(p, 'y')); t(() => path.resolve(p)); }
t(() => url.pathToFileURL('x').href); t(() => url.fileURLToPath('file:///a/../b'));
t(() => JSON.stringify([import.meta, process.cwd(), process.argv, process.execPath, process.env, os.homedir(), os.tmpdir()]));
t(() => new Error('x').stack);
t(() => require('./x')); t(() => require('zlib').inflateSync(Buffer.from('xx'))); t(() => require('crypto').createHash('nope'));
t(() => require('crypto').pbkdf2Sync('a', 'b', 1, 8, 'nope')); t(() => new TextDecoder('nope')); t(() => new Intl.NumberFormat('en', { style: 'currency' }));
try { await import('./x.js') } catch (e) { out.push(e.message) }
out.join('\n')
`;

guestSuite('host paths', (g) => {
  g.test('values and error texts that involve paths never name the worker\'s directory', async (ctx) => {
    const { outcome } = await ctx.run(SWEEP);
    assert.ok(outcome.status === 'completed', JSON.stringify(outcome));
    const text = JSON.parse(outcome.result) as string;
    const cwd = process.cwd();
    for (const form of [cwd, cwd.replaceAll('/', '\\'), encodeURI(cwd)]) {
      assert.ok(!text.includes(form), `${form} in ${text}`);
    }
    assert.equal(text.split('\n')[0], '\\foo', 'toNamespacedPath("foo")');
  });
});
