// Scripts that skip esbuild (worker/source/plain-module.ts) and the per-worker transform cache
// (worker/source/transpile.ts). A script skips only when TypeScript would read it as JavaScript
// does; each ambiguity below is a text valid in both languages with two meanings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isPlainModule } from '../../../worker/source/plain-module.ts';
import { Transpiler } from '../../../worker/source/transpile.ts';

test('plain JavaScript modules skip the transform', () => {
  for (const src of [
    '1 + 1',
    'const xs = [];\nfor (let i = 0; i < 3; i++) xs.push(i);\nxs',
    'a >> 1',
    '({ type: 1, declare: 2 }).type + x.readonly + y?.module',
    'label: for (;;) break label',
    'await Promise.resolve(1)',
    '!x',
    'a !== b',
    'x ? y : z',
    'const s = `${!done}`; s',
    'import { a } from "node:path"; export const b = a',
    'class C { static #n = 0; static { C.#n = 1 } }',
    'let a = 1\r\nlet b = 2',
  ]) assert.equal(isPlainModule(src), true, src);
});

test('TypeScript, texts TypeScript reads differently, and what the wrapper cannot position go to esbuild', () => {
  for (const src of [
    'let x: number = 1', // TypeScript
    'f<T>(x)', // a call with a type argument in TypeScript, two comparisons in JavaScript
    'a < 1 && b > 2', // the same two tokens: not vouched for
    'a <<= 1; b > 2',
    'a ? (b) : c => d', // an arrow with a return type in TypeScript
    'switch (x) { case (1): break }',
    'a\n!b', // a line from TypeScript's postfix non-null `a!`
    'if (x) {}\n!y',
    'type\nFoo = 1', // contextual keywords as names
    'declare\nlet x',
    'class A { readonly\nx = 1 }',
    'import { a as b } from "x"',
    'type',
    '\\u0074ype = 1', // a name spelled with escapes
    'using\nx = 1',
    'const r = /a/v', // ES2024: past what acorn is asked to accept
    '@dec class A {}',
    '#!/usr/bin/env node\n1', // the wrapper moves the body into a function
    '1\r2', // line breaks V8 counts and the wrapper does not
    '1\u20282',
    '1 //# sourceURL=x.js', // would rename main.js in stacks
    'const = 1', // does not parse: esbuild reports it
  ]) assert.equal(isPlainModule(src), false, src);
});

test('a plain script comes back as written with a null map; TypeScript is transformed once, then cached', async () => {
  const t = new Transpiler();
  assert.deepEqual(await t.transpileModule('1 /* as written */ + 1', 'main.ts', true), { code: '1 /* as written */ + 1', map: null });
  assert.deepEqual(t.stats, { plain: 1, cached: 0, transformed: 0 });
  const first = await t.transpileModule('const a: number = 1', 'main.ts', false);
  assert.deepEqual(first, { code: 'const a = 1;\n', map: '' });
  assert.deepEqual(await t.transpileModule('const a: number = 1', 'main.ts', false), first);
  assert.deepEqual(t.stats, { plain: 1, cached: 1, transformed: 1 });
  // With a map, and under another file name, it is another transform.
  const mapped = await t.transpileModule('const a: number = 1', 'main.ts', true);
  assert.equal(mapped.code, 'const a = 1;\n');
  assert.equal((JSON.parse(mapped.map ?? 'null') as { sources: string[] }).sources[0], 'main.ts');
  await t.transpileModule('const a: number = 1', 'other.ts', false);
  assert.deepEqual(t.stats, { plain: 1, cached: 1, transformed: 3 });
  // Failures are not kept: the same bad script is reported again by esbuild.
  await assert.rejects(t.transpileModule('let x: = 1', 'main.ts', false), { message: 'TypeScript parse error: 1:8: Unexpected "="' });
  await assert.rejects(t.transpileModule('let x: = 1', 'main.ts', false), { message: 'TypeScript parse error: 1:8: Unexpected "="' });
  assert.deepEqual(t.stats, { plain: 1, cached: 1, transformed: 3 });
});

test('the cache evicts the least recently used transform beyond its entry and byte bounds', async () => {
  const t = new Transpiler({ bytes: 4096, entries: 2 });
  const run = (n: number): Promise<unknown> => t.transpileModule(`const v${n}: number = ${n}`, 'main.ts', false);
  await run(1);
  await run(2);
  await run(1); // hit: 1 is now the most recent
  await run(3); // evicts 2
  assert.deepEqual(t.stats, { plain: 0, cached: 1, transformed: 3 });
  await run(1);
  await run(3);
  assert.deepEqual(t.stats, { plain: 0, cached: 3, transformed: 3 });
  await run(2);
  assert.deepEqual(t.stats, { plain: 0, cached: 3, transformed: 4 });
  // A transform larger than the byte bound is not kept at all.
  const big = `const s: string = "${'x'.repeat(4096)}"`;
  await t.transpileModule(big, 'main.ts', false);
  await t.transpileModule(big, 'main.ts', false);
  assert.deepEqual(t.stats, { plain: 0, cached: 3, transformed: 6 });
});
