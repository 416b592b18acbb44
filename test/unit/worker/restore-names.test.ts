// esbuild numbers a function or class name that an enclosing binding shares (`f` → `f2`); the
// transpiler writes the source's names back, padded so every position stays where esbuild put it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { transform } from 'esbuild';
import { renamedFunctionNames, restoreFunctionNames } from '../../../worker/source/restore-names.ts';

const esbuild = async (src: string): Promise<string> =>
  (await transform(`${src}\nexport {};`, { loader: 'ts', format: 'esm', target: 'es2023', minify: false, keepNames: false })).code;

test('function expressions, nested declarations, classes and generators get their source names back', async () => {
  const src = [
    'const m = 1; function outer() { function m() {} return m.name; }',
    'const C = class C { static n() { return C.name; } };',
    'const g = async function* g() { yield g; };',
    'const x1 = function x1() { return x1; };',
    'const v = function v() { { let v = 2; return v; } };',
  ].join('\n');
  const out = await esbuild(src);
  assert.deepEqual([...renamedFunctionNames(src, out)].sort(), [['C2', 'C'], ['g2', 'g'], ['m2', 'm'], ['x12', 'x1'], ['v2', 'v']].sort());
  const fixed = restoreFunctionNames(src, out);
  assert.deepEqual(fixed.split('\n').map((l) => l.length), out.split('\n').map((l) => l.length));
  assert.match(fixed, /function m \(\) \{\n {2}\}\n {2}return m \.name;/);
  assert.match(fixed, /const C = class C {2}\{/);
  assert.match(fixed, /async function\* g \(\) \{\n {2}yield g ;/);
  assert.match(fixed, /function x1 \(\) \{\n {2}return x1 ;/);
  // Not a function or class: esbuild's `v3` stays (its meaning does not depend on its name).
  assert.match(fixed, /let v3 = 2;\n {4}return v3;/);
});

test('esbuild\'s own temporaries and names the source has stay; a numbered source name is restored too', async () => {
  const src = 'const E2 = 1; enum E { A }\nconst f2 = function f2() { return f2; };\nconsole.log(E2, E.A, f2);';
  const out = await esbuild(src);
  const fixed = restoreFunctionNames(src, out);
  // The enum's parameter (E3) is no function name; f2's inner name was numbered f22.
  assert.match(out, /\(\(E3\) => \{/);
  assert.match(out, /function f22\(\)/);
  assert.equal(fixed, out.replace('function f22()', 'function f2 ()').replace('return f22;', 'return f2 ;'));
  assert.equal(restoreFunctionNames('const a = 1;', 'const a = 1;\n'), 'const a = 1;\n');
});
