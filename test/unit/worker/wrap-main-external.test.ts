// wrapMain's part in external modules: the names a script imports per specifier (a CommonJS
// package's facade exports them), and import() of a literal npm:/jsr:/URL specifier made static.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wrapMain } from '../../../worker/source/wrap-main.ts';

test('importNames: per specifier, the names import declarations name', () => {
  const w = wrapMain("import a, { b, c as d } from 'npm:x'; import * as ns from 'npm:y'; import { 'e-f' as g, b as b2 } from 'npm:x'; a");
  assert.deepEqual([...w.importNames], [['npm:x', ['b', 'c', 'e-f']]]);
  assert.deepEqual(w.imports, ['npm:x', 'npm:y', 'npm:x']);
});

test('externalImports: a literal import() of an external module is a static import; others stay dynamic', () => {
  const js = "const a = await import('npm:x'); const b = await import('npm:x'); const c = await import('node:path'); const d = await import(name);";
  const off = wrapMain(js);
  assert.deepEqual(off.imports, []);
  const on = wrapMain(js, { externalImports: true });
  assert.deepEqual(on.imports, ['npm:x']);
  assert.match(on.source, /^import \* as __runjs_ext0 from "npm:x";/);
  assert.equal(on.source.match(/Promise\.resolve\(__runjs_ext0\)/g)?.length, 2);
  assert.match(on.source, /__runjs_import\('node:path'\)/);
  assert.match(on.source, /__runjs_import\(name\)/);
});
