// `new new F(a)()` is `new (new F(a))()`; QuickJS's parser calls the inner result instead, so the
// transpiler parenthesizes the inner `new` (esbuild prints the bare form even for `new (new F(a))`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { transform } from 'esbuild';
import { parenthesizeNestedNew } from '../../../worker/source/nested-new.ts';

test('a bare `new` callee gets parentheses, the space before it becoming the opening one', () => {
  assert.equal(parenthesizeNestedNew('new new Proxy(o, { construct: () => ({}) })();'), 'new(new Proxy(o, { construct: () => ({}) }))();');
  assert.equal(parenthesizeNestedNew('new new new F()()();'), 'new(new(new F())())();');
  assert.equal(parenthesizeNestedNew('x = new new F;'), 'x = new(new F);');
  assert.equal(parenthesizeNestedNew('new new a.b[c](1)(2).d;'), 'new(new a.b[c](1))(2).d;');
});

test('code without a nested `new`, already parenthesized or not parseable is returned as it is', () => {
  for (const code of ['new (new F())();', 'const a = "new new";', 'new F(new G());', 'new new (']) assert.equal(parenthesizeNestedNew(code), code);
});

test("esbuild's output of `new (new F(a))` is the bare form, and is fixed", async () => {
  const out = (await transform('const x = new (new Proxy(C, { construct: () => ({}) }));\nexport {};', { loader: 'ts', format: 'esm', target: 'es2023' })).code;
  assert.equal(out, 'const x = new new Proxy(C, { construct: () => ({}) })();\n');
  assert.equal(parenthesizeNestedNew(out), 'const x = new(new Proxy(C, { construct: () => ({}) }))();\n');
});
