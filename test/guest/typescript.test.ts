// TypeScript goes through the same transform for both engines; what it compiles to runs alike.
import assert from 'node:assert/strict';
import { guestSuite } from '../helpers/both-engines.ts';

guestSuite('TypeScript', (g) => {
  g.test('types, interfaces, enums, generics, parameter properties, abstract classes and satisfies', async (ctx) => {
    assert.equal(await ctx.output([
      'interface Shape { area(): number }',
      'enum Color { Red = "r", Green = "g" }',
      'enum Dir { Up, Down }',
      'abstract class Base implements Shape { constructor(protected readonly side: number) {} abstract area(): number }',
      'class Square extends Base { area(): number { return this.side ** 2 } }',
      'function first<T>(xs: readonly T[]): T | undefined { return xs[0] }',
      'const cfg = { n: 2 } satisfies Record<string, number>;',
      'type Pair = [string, number];',
      'const p: Pair = ["k", 1];',
      'console.log(new Square(3).area(), Color.Green, Dir.Down, Dir[0], first<string>(["a"]), cfg.n, p.join(":"), <number>(5 as unknown));',
    ].join('\n')), '9 g 1 Up a 2 k:1 5\n');
  });

  g.test('functions and classes keep the names an enclosing binding shares (esbuild would number them), in stack frames too', async (ctx) => {
    assert.equal(await ctx.output([
      'const f = function f(n: number): number { return n < 1 ? 0 : f(n - 1) };',
      'const mustNotCall = (msg?: string) => function mustNotCall() { return mustNotCall.name };',
      'const C = class C { static who() { return C.name } };',
      'const m = 1; function outer() { function m() {} return m.name }',
      'const g = function g() { return new Error("x").stack! };',
      "console.log(f.name, f(3), mustNotCall()(), C.who(), outer(), m, require('node:util').inspect(f), g().includes('at g ('), / g\\d/.test(g()));",
    ].join('\n')), 'f 0 mustNotCall C m 1 [Function: f] true false\n');
  });

  g.test('a parse error fails the run with the same text on both engines', async (ctx) => {
    const res = await ctx.run('const x: number = ;');
    assert.deepEqual(res.outcome, { status: 'failed', error: 'TypeScript parse error: 1:19: Unexpected ";"' });
  });

  g.test('decorators-free modern syntax: private methods, static blocks, optional chaining, ?? and ??=, numeric separators', async (ctx) => {
    assert.equal(await ctx.output([
      'class C { static #count = 0; static { C.#count = 10 } #inc() { return ++C.#count } run() { return this.#inc() } }',
      'const o: { a?: { b?: number } } = {};',
      'let z: number | undefined; z ??= 7;',
      'console.log(new C().run(), o.a?.b ?? "none", z, 1_000_000, 2 ** 10);',
    ].join('\n')), '11 none 7 1000000 1024\n');
  });

  g.test('texts valid in both languages run with TypeScript\'s meaning (they go through esbuild)', async (ctx) => {
    // JavaScript reads `(f < number) > (2)` (a ReferenceError), TypeScript a call with a type argument.
    assert.deepEqual((await ctx.run('const f = (v) => v;\nf<number>(2)')).outcome, { status: 'completed', result: '2' });
    // JavaScript reads two fields, `readonly` and `x`; TypeScript one, `x`, with a modifier.
    assert.deepEqual((await ctx.run('class A { readonly\nx = 1 }\nObject.keys(new A()).join()')).outcome, { status: 'completed', result: '"x"' });
  });

  g.test('plain JavaScript runs as written (no transform): functions keep their source text, errors their positions', async (ctx) => {
    assert.deepEqual((await ctx.run('function f() { /* kept */ return 1 }\nf.toString()')).outcome, { status: 'completed', result: '"function f() { /* kept */ return 1 }"' });
    const res = await ctx.run('const a = 1;\n\n   null.x;');
    assert.equal(res.outcome.status, 'failed');
    // V8 points at the property, QuickJS at the dot before it (as they do after a transform).
    assert.match(res.outcome.status === 'failed' ? res.outcome.error : '', ctx.engine === 'v8' ? /file:\/\/\/main\.js:3:9$/ : /file:\/\/\/main\.js:3:8$/);
  });
});
