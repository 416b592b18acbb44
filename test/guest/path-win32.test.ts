// path.win32 (and node:path/win32) and path.matchesGlob, computed by the host's node:path: a
// corpus of calls evaluated in the sandbox on both engines and in the host Node must match
// (resolve/relative with runjs's working directory "/").
import assert from 'node:assert/strict';
import path from 'node:path';
import { guestSuite } from '../helpers/both-engines.ts';
import { guestJson } from '../helpers/guest-json.ts';

const PATHS = ['C:\\foo\\bar\\baz.txt', 'c:/a/b/../c', '\\\\server\\share\\dir\\file.md', 'relative\\path\\', 'C:', 'C:foo', '\\', '', '.\\x\\..\\y', 'a/b\\c.d.e', '//?/UNC/host/share', 'file.tar.gz', 'D:\\'];

function corpus(w: typeof path.win32, paths: string[]): unknown[] {
  const out: unknown[] = [w.sep, w.delimiter, w.win32 === w];
  for (const p of paths) out.push([w.basename(p), w.basename(p, '.txt'), w.dirname(p), w.extname(p), w.isAbsolute(p), w.normalize(p), w.parse(p), w.toNamespacedPath(p)]);
  out.push(w.join('C:\\a', '..\\b', 'c/d'), w.join('', ''), w.format({ root: 'C:\\', dir: 'C:\\x', name: 'n', ext: '.e' }), w.format({ base: 'b.txt' }));
  out.push(w.relative('C:\\a\\b\\c', 'C:\\a\\d'), w.relative('C:\\x', 'D:\\y'), w.resolve('C:\\a', '..\\b', 'c'), w.resolve('\\\\srv\\sh\\x', 'y'));
  out.push(w.matchesGlob('C:\\a\\b.js', 'C:\\a\\*.js'), w.matchesGlob('x\\y.ts', '**\\*.js'));
  return out;
}

guestSuite('path.win32', (g) => {
  g.test(`differential: path.win32 over ${PATHS.length} paths matches Node`, async (ctx) => {
    const guest = await guestJson<unknown[]>(ctx, `const w = require('node:path').win32;\n${corpus.toString()}\nreturn corpus(w, ${JSON.stringify(PATHS)});`);
    assert.deepEqual(guest, JSON.parse(JSON.stringify(corpus(path.win32, PATHS))));
  });

  g.test('resolve and relative use "/" as the working directory; module identities; matchesGlob; argument errors', async (ctx) => {
    const guest = await guestJson<unknown[]>(ctx, [
      'const path = require("path"); const w = require("node:path/win32");',
      'const err = (f) => { try { f(); return "no error"; } catch (e) { return [e.name, e.code, e.message]; } };',
      'return [w === path.win32, w.posix === path, path.posix.win32 === w, w.resolve("a", "b"), w.relative("a", "a\\\\b\\\\c"), w.resolve(),',
      '  path.matchesGlob("/a/b/c.js", "/a/**/*.js"), path.matchesGlob("/a/b.ts", "*.ts"), err(() => w.join("a", 1)), err(() => w.basename("a", null))];',
    ].join('\n'));
    assert.deepEqual(guest, [true, true, true, '\\a\\b', 'b\\c', '\\', true, false,
      ['TypeError', 'ERR_INVALID_ARG_TYPE', 'The "path" argument must be of type string. Received type number (1)'],
      ['TypeError', 'ERR_INVALID_ARG_TYPE', 'The "suffix" argument must be of type string. Received null']]);
  });
});
