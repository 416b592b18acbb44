// The language itself on both engines: what agent-written code commonly uses works alike; the
// engine differences that remain are pinned here (and documented in docs/script-environment.md).
import assert from 'node:assert/strict';
import { guestSuite } from '../helpers/both-engines.ts';

guestSuite('language', (g) => {
  g.test('classes, getters, generators, async iteration, destructuring, Proxy, Reflect, WeakMap', async (ctx) => {
    assert.equal(await ctx.output([
      'class Temp { #c = 0; static from(f: number) { const t = new Temp(); t.celsius = (f - 32) / 1.8; return t } get celsius() { return this.#c } set celsius(v) { this.#c = Math.round(v) } }',
      'function* take(n: number) { for (let i = 0; i < n; i++) yield i * i }',
      'async function* ticks() { for (const t of [1, 2]) { await null; yield t } }',
      'const got: number[] = []; for await (const t of ticks()) got.push(t);',
      'const { a, ...rest } = { a: 1, b: 2, c: 3 };',
      'const p = new Proxy({}, { get: (_t, k) => `<${String(k)}>` });',
      'const wm = new WeakMap([[Temp, "class"]]);',
      'console.log(Temp.from(212).celsius, [...take(4)].join(), got.join(), a, JSON.stringify(rest), (p as any).hi, Reflect.ownKeys({ x: 1, [Symbol.iterator]: 0 }).length, wm.get(Temp));',
    ].join('\n')), '100 0,1,4,9 1,2 1 {"b":2,"c":3} <hi> 2 class\n');
  });

  g.test('typed arrays, DataView, regex named groups, lookbehind and the v flag, Array.fromAsync, Set methods', async (ctx) => {
    assert.equal(await ctx.output([
      'const buf = new ArrayBuffer(8); new DataView(buf).setFloat64(0, Math.PI); const bytes = new Uint8Array(buf);',
      'const m = /(?<year>\\d{4})-(?<month>\\d{2})/.exec("on 2024-05-01")!;',
      'const arr = await Array.fromAsync([Promise.resolve(1), 2]);',
      'console.log(bytes[0], m.groups!.year, m.groups!.month, "price: $42".match(/(?<=\\$)\\d+/)![0], /[\\p{L}--[a-z]]/v.test("é"), arr.join(), [...new Set([1, 2, 3]).intersection(new Set([2, 3, 4]))].join());',
    ].join('\n')), '64 2024 05 42 true 1,2 2,3\n');
  });

  g.test('using / await using declarations dispose in order; Date#toString names the time zone', async (ctx) => {
    assert.equal(await ctx.output([
      '{ using r = { [Symbol.dispose]() { console.log("disposed") } }; console.log("in") }',
      'await (async () => { await using a = { async [Symbol.asyncDispose]() { console.log("async disposed") } } })();',
      'const d = new Date(0); const zone = d.toString().slice(d.toString().indexOf(" GMT"));',
      'console.log(zone === d.toTimeString().slice(8), / GMT[+-]\\d{4} \\([A-Za-z ]+\\)$/.test(zone), String(new Date(NaN)));',
    ].join('\n')), 'in\ndisposed\nasync disposed\ntrue true Invalid Date\n');
  });

  g.test('engine-specific globals: WebAssembly only on V8', async (ctx) => {
    assert.equal(await ctx.output('console.log(typeof WebAssembly, typeof InternalError, typeof Error.captureStackTrace)'),
      ctx.engine === 'v8' ? 'object undefined function\n' : 'undefined undefined function\n');
  });
});
