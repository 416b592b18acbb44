// A run's result — the awaited last expression, or export default — serialises the same way on
// both engines.
import assert from 'node:assert/strict';
import { guestSuite } from '../helpers/both-engines.ts';

guestSuite('result values', (g) => {
  const cases: [string, string][] = [
    ['1 + 1', '2'],
    ['"text"', '"text"'],
    ['({ a: [1, { b: null }], s: "x" })', '{"a":[1,{"b":null}],"s":"x"}'],
    ['[1.5, -0, NaN, Infinity]', '[1.5,0,null,null]'],
    ['12345678901234567890n', '"12345678901234567890n"'],
    ['new Map([[1, "a"]])', '{"[Map]":[[1,"a"]]}'],
    ['new Set([1, 1, 2])', '{"[Set]":[1,2]}'],
    ['new Date(0)', '"1970-01-01T00:00:00.000Z"'],
    ['Promise.resolve(Promise.resolve(7))', '7'],
    ['(async () => { await null; return { done: true } })()', '{"done":true}'],
    ['undefined', ''],
    ['const x = 5', ''],
    ['export default { via: "default" }', '{"via":"default"}'],
    ['[..."héllo wörld ✓"].length', '13'],
    ['JSON.stringify({ k: "\\u2028" })', '"{\\"k\\":\\"\u2028\\"}"'],
    ['Object.groupBy([1, 2, 3, 4], (n) => (n % 2 ? "odd" : "even"))', '{"odd":[1,3],"even":[2,4]}'],
    ['[3, 1, 2].toSorted().with(0, 9).at(-1)', '3'],
    ['"abc".replaceAll("b", "B").padEnd(5, ".")', '"aBc.."'],
    ['structuredLike({ a: 1 })\nfunction structuredLike(o: object) { return JSON.parse(JSON.stringify(o)) }', '{"a":1}'],
  ];
  for (const [code, result] of cases) {
    g.test(`${code.split('\n')[0]} → ${result === '' ? '(empty)' : result}`, async (ctx) => {
      assert.deepEqual((await ctx.run(code)).outcome, { status: 'completed', result });
    });
  }
});
