// path.win32 (and node:path/win32) and path.matchesGlob, computed by the host's node:path: a
// corpus of calls evaluated in the sandbox on both engines and in a host Node whose working
// directory is runjs's "/" must match. (Compared with this test process, whose working directory
// is the worker's too, a guest result that resolved against the host's would agree and hide it.)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { guestSuite } from '../helpers/both-engines.ts';
import { guestJson } from '../helpers/guest-json.ts';

const PATHS = ['C:\\foo\\bar\\baz.txt', 'c:/a/b/../c', '\\\\server\\share\\dir\\file.md', 'relative\\path\\', 'C:', 'C:foo', '\\', '', '.\\x\\..\\y', 'a/b\\c.d.e', '//?/UNC/host/share', 'file.tar.gz', 'D:\\',
  'foo', '..\\..\\x', 'c:bar\\..\\baz', '\\\\?\\C:\\x', '\\\\.\\pipe\\p', '\\\\host\\share', 'x:', '/abs/posix'];

/** What Node computes for `source` (a function body returning JSON-able data) when its working directory is "/". */
function nodeAtRoot(source: string): unknown {
  return JSON.parse(execFileSync(process.execPath, ['-e', `const path = require('node:path'); process.stdout.write(JSON.stringify((() => { ${source} })()))`], { cwd: '/', encoding: 'utf8' }));
}

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
    const atRoot = nodeAtRoot(`const w = path.win32;\n${corpus.toString()}\nreturn corpus(w, ${JSON.stringify(PATHS)});`);
    assert.deepEqual(guest, atRoot);
    assert.ok(!JSON.stringify(guest).includes(JSON.stringify(process.cwd().replaceAll('/', '\\')).slice(1, -1)), 'no result names the worker\'s directory');
  });

  g.test('toNamespacedPath of relative and drive-relative paths resolves against "/", never the worker\'s directory', async (ctx) => {
    const calls = 'return ["foo", "C:foo", "C:", "a\\\\b", "\\\\\\\\srv\\\\share\\\\f"].map((p) => path.win32.toNamespacedPath(p));';
    const guest = await guestJson<string[]>(ctx, `const path = require('node:path');\n${calls}`);
    assert.deepEqual(guest, ['\\foo', '\\\\?\\C:\\foo', '\\\\?\\C:\\', '\\a\\b', '\\\\?\\UNC\\srv\\share\\f']);
    assert.deepEqual(guest, nodeAtRoot(calls));
    // What the host Node gives from the worker's directory, which leaked before:
    assert.equal(path.win32.toNamespacedPath('foo'), `${process.cwd().replaceAll('/', '\\')}\\foo`);
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
