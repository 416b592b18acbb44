// The script is always an ES module, and what it plants on built-in prototypes cannot forge or
// break how the run reports back (op arguments, the completion value) — on both engines.
import assert from 'node:assert/strict';
import { guestSuite } from '../helpers/both-engines.ts';

guestSuite('script shape', (g) => {
  g.test('top-level return is a parse error (the script is a module, not a CommonJS body)', async (ctx) => {
    assert.deepEqual((await ctx.run('return 5')).outcome, {
      status: 'failed',
      error: 'TypeScript parse error: 1:1: Top-level return cannot be used inside an ECMAScript module',
    });
  });

  g.test('module and exports are not defined', async (ctx) => {
    const name = ctx.engine === 'v8' ? 'module is not defined' : "'module' is not defined";
    const { outcome } = await ctx.run('module.exports = 3; 1');
    assert.equal(outcome.status, 'failed');
    assert.ok('error' in outcome && outcome.error.startsWith(`Uncaught ReferenceError: ${name}\n`), JSON.stringify(outcome));
    assert.deepEqual((await ctx.run('typeof exports')).outcome, { status: 'completed', result: '"undefined"' });
  });

  g.test('top-level this is undefined', async (ctx) => {
    assert.deepEqual((await ctx.run('const t = this; t === undefined')).outcome, { status: 'completed', result: 'true' });
  });

  g.test('a hashbang line is ignored', async (ctx) => {
    assert.deepEqual((await ctx.run('#!/usr/bin/env node\n1 + 1')).outcome, { status: 'completed', result: '2' });
  });

  g.test("the script's own names never collide with the wrapper's", async (ctx) => {
    assert.deepEqual((await ctx.run('const __runjs_completion = 4; const __runjs_completion1 = 5; __runjs_completion + __runjs_completion1')).outcome, { status: 'completed', result: '9' });
  });
});

guestSuite('prototype pollution', (g) => {
  g.test('Object.prototype.toJSON does not break settling the result', async (ctx) => {
    assert.deepEqual((await ctx.run("Object.prototype.toJSON = function () { return 'pwn' }; 41 + 1")).outcome, { status: 'completed', result: '42' });
  });

  g.test('a throwing Object.prototype.toJSON does not break console output', async (ctx) => {
    const res = await ctx.run("Object.prototype.toJSON = function () { throw new Error('no') }; console.log('hi'); 1");
    assert.deepEqual(res.outcome, { status: 'completed', result: '1' });
    assert.equal(res.output, 'hi\n');
  });

  g.test('Array.prototype.toJSON does not break op arguments', async (ctx) => {
    assert.deepEqual((await ctx.run("Array.prototype.toJSON = () => 'arr'; new URL('b', 'http://a/').href")).outcome, { status: 'completed', result: '"http://a/b"' });
  });

  g.test('a then planted on Object.prototype or Array.prototype cannot forge the result', async (ctx) => {
    assert.deepEqual((await ctx.run("Object.defineProperty(Object.prototype, 'then', { get() { return (r) => r('hijacked') }, configurable: true }); 5")).outcome, { status: 'completed', result: '5' });
    assert.deepEqual((await ctx.run("Array.prototype.then = function (r) { r([1, 'forged']) }; 5")).outcome, { status: 'completed', result: '5' });
  });
});

guestSuite('error positions point into the submitted source', (g) => {
  // Lines agree on both engines; columns are each engine's own (V8: the `new`, QuickJS: the call).
  g.test('blank lines esbuild drops do not shift the line', async (ctx) => {
    const col = ctx.engine === 'v8' ? 7 : 16;
    assert.deepEqual((await ctx.run("const a = 1;\n\nthrow new Error('line 3')")).outcome, { status: 'failed', error: `Uncaught Error: line 3\n    at file:///main.js:3:${col}` });
  });

  g.test('the wrapper prologue on line 1 does not shift the column', async (ctx) => {
    const col = ctx.engine === 'v8' ? 7 : 16;
    assert.deepEqual((await ctx.run("throw new Error('x')")).outcome, { status: 'failed', error: `Uncaught Error: x\n    at file:///main.js:1:${col}` });
  });

  g.test('erased TypeScript declarations do not shift lines', async (ctx) => {
    const [inF, call] = ctx.engine === 'v8' ? ['6:9', '8:1'] : ['6:22', '8:2'];
    const code = "interface A {\n  x: number\n}\n\nfunction f(a: A): number {\n  throw new TypeError('in f')\n}\nf({ x: 1 })";
    assert.deepEqual((await ctx.run(code)).outcome, { status: 'failed', error: `Uncaught TypeError: in f\n    at f (file:///main.js:${inF})\n    at file:///main.js:${call}` });
  });
});
