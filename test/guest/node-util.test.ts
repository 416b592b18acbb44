// node:util and node:assert (issue 7): util.format/inspect compared with the host's Node over a
// corpus, the rest of util, and assert's checks and messages.
import assert from 'node:assert/strict';
import nodeUtil from 'node:util';
import nodeAssertLegacy from 'node:assert';
import { guestSuite } from '../helpers/both-engines.ts';
import { guestJson } from '../helpers/guest-json.ts';

/** Values built the same way on both sides (source text evaluated by indirect eval in the sandbox and here, so function sources match). */
const VALUES_SOURCE = `[0, -0, 1.5, NaN, Infinity, -1n, 'str', "it's", 'a"b\\'c', 'multi\\nline', '', true, null, undefined, Symbol('s'),
 [], [1, 2, 3], new Array(5), [1, , 3], Array.from({ length: 120 }, (_, i) => i), 'x'.repeat(200), { a: 1, 'b-c': 2, 3: 4 }, {}, Object.create(null),
 { nested: { deeper: { deepest: { bottom: 1 } } } }, new Map(), new Map([['k', { v: 1 }]]), new Set(), new Set([1, [2]]),
 new Date(0), /re/gi, function named() {}, () => {}, async function af() {}, function* gen() {}, class K {},
 new Uint8Array([1, 2]), new Float64Array(2), new Boolean(true), new Number(3), new String('bx'),
 { get g() { return 1 }, set s(v) {} }, { [Symbol('k')]: 1 }, [[[[['deep']]]]], { a: [{ b: { c: {} } }] }, new (class Foo {})(),
 Object.assign(Object.create({ inherited: 1 }), { own: 2 }), { toString() { return 'custom' } }, [undefined, null], { u: undefined }, 'ü€😀', '\\u0000\\u001f',
 Array.from({ length: 30 }, (_, i) => 'item' + i), { longKeyNameNumberOne: 'a long string value here', longKeyNameNumberTwo: 'another long string value', k3: [1, 2, 3] }]`;
const FORMATS = ['%s', '%d', '%i', '%f', '%j', '%o', '%O', '%c', '%%', 'plain', '%s:%s', '%x', '%s %d %i %f %j %o %O %%'];

function formatCorpus(values: unknown[], format: (...a: unknown[]) => string, inspect: (v: unknown, o?: object) => string): string[] {
  const out: string[] = [];
  const attempt = (fn: () => string) => {
    try {
      out.push(fn());
    } catch (e) {
      // Only the error's class: engines word their own TypeErrors differently.
      out.push(`throws ${(e as Error).name}`);
    }
  };
  for (const v of values) {
    // %o shows a function's own properties, which differ between engines (V8's sloppy functions
    // own `arguments` and `caller`; QuickJS's do not): not a platform difference.
    for (const f of FORMATS) attempt(() => (typeof v === 'function' && f.includes('%o') ? 'skipped' : format(f, v, v)));
    attempt(() => inspect(v));
    attempt(() => inspect(v, { depth: 0 }));
    attempt(() => inspect(v, { compact: false, breakLength: 40 }));
    attempt(() => format(v, 'extra', 7));
  }
  return out;
}

guestSuite('node:util and node:assert', (g) => {
  g.test('differential: util.format and util.inspect over a corpus of values and options match Node', async (ctx) => {
    const guest = await guestJson<string[]>(ctx, `import('node:util');\n${formatCorpus.toString()}\nconst FORMATS = ${JSON.stringify(FORMATS)};\nconst util = require('node:util');\nreturn formatCorpus((0, eval)(${JSON.stringify(VALUES_SOURCE)}), util.format, util.inspect);`);
    // eslint-disable-next-line no-eval
    const values = (0, eval)(VALUES_SOURCE) as unknown[];
    const host = formatCorpus(values, nodeUtil.format, nodeUtil.inspect);
    assert.equal(guest.length, host.length);
    for (let i = 0; i < host.length; i++) assert.equal(guest[i], host[i], `case ${i}`);
  });

  g.test('promisify, callbackify, types, isDeepStrictEqual, inherits, TextEncoder', async (ctx) => {
    assert.equal(await ctx.output([
      'import util, { promisify, types } from "node:util";',
      'const cbFn = (a, cb) => setTimeout(() => (a < 0 ? cb(new Error("neg")) : cb(null, a * 2)), 1);',
      'console.log(await promisify(cbFn)(21)); try { await promisify(cbFn)(-1) } catch (e) { console.log(e.message) }',
      'util.callbackify(async (x) => x + 1)(1, (err, v) => console.log("cb", err, v));',
      'await new Promise((r) => setTimeout(r, 5));',
      'console.log(types.isPromise(Promise.resolve()), types.isDate(new Date()), types.isRegExp(/x/), types.isMap(new Map()), types.isUint8Array(new Uint8Array()), types.isAsyncFunction(async () => {}), types.isGeneratorFunction(function* () {}), types.isBoxedPrimitive(new String("")), types.isNativeError(new TypeError()), types.isArrayBuffer(new ArrayBuffer(1)));',
      'console.log(util.isDeepStrictEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), util.isDeepStrictEqual([1], ["1"]), util.isDeepStrictEqual(new Set([{ a: 1 }]), new Set([{ a: 1 }])), util.isDeepStrictEqual(-0, 0), util.isDeepStrictEqual(NaN, NaN));',
      'function A() {} function B() {} util.inherits(A, B); console.log(new A() instanceof B, A.super_ === B);',
      'console.log(util.TextEncoder === TextEncoder, util.stripVTControlCharacters("\\u001b[31mred\\u001b[0m"), util.inspect("x", { colors: false }));',
    ].join('\n')), [
      '42', 'neg', 'cb null 2',
      'true true true true true true true true true true',
      'true false true false true',
      'true true',
      'true red \'x\'',
      '',
    ].join('\n'));
  });

  g.test('assert: passing checks are silent; failures carry Node\'s messages, codes and operators', async (ctx) => {
    const cases = [
      'assert.equal(1, 2)', 'assert.strictEqual(1, 2)', 'assert.strictEqual("a", "b")', 'assert.notStrictEqual(1, 1)', 'assert.notEqual(1, "1")',
      'assert.deepStrictEqual({ a: 1, b: [1, 2] }, { a: 1, b: [1, 3] })', 'assert.deepEqual({ a: 1 }, { a: 2 })', 'assert(false, "custom msg")',
      'assert.throws(() => {})', 'assert.throws(() => { throw new Error("x") }, /y/)', 'assert.match("abc", /x/)', 'assert.fail()', 'assert.fail("boom")',
      'assert.notDeepStrictEqual({ a: 1 }, { a: 1 })', 'assert.strictEqual({ a: 1 }, { a: 1 })', 'assert.ifError(new Error("e"))',
      'assert.doesNotThrow(() => { throw new Error("z") })', 'assert.strict.equal(1, "1")', 'assert.ok(0)',
    ];
    const guest = await guestJson<unknown[]>(ctx, `const assert = require('node:assert');\nconst out = [];\n${cases.map((c) => `try { ${c}; out.push('no throw') } catch (e) { out.push([e.name, e.code, e.message, e.operator, e.generatedMessage, e instanceof assert.AssertionError]) }`).join('\n')}\nassert.ok(1); assert.deepStrictEqual(new Map([[1, { a: [1] }]]), new Map([[1, { a: [1] }]])); assert.throws(() => { throw new TypeError('t') }, TypeError); await assert.rejects(Promise.reject(new Error('r')), { message: 'r' }); assert.throws(() => { throw new Error('m') }, { name: 'Error', message: /m/ });\nreturn out;`);
    const expected = cases.map((c) => {
      // eslint-disable-next-line no-new-func
      try { new Function('assert', c)(nodeAssertLegacy); return 'no throw'; } catch (e) {
        const err = e as { name: string; code: string; message: string; operator: string; generatedMessage: boolean };
        return [err.name, err.code, err.message, err.operator, err.generatedMessage, true];
      }
    });
    // Node reads the call's source for a falsy assert.ok(); runjs shows the value instead.
    (expected[expected.length - 1] as unknown[])[2] = 'The expression evaluated to a falsy value:\n\n  assert.ok(0)\n';
    assert.deepEqual(guest, expected);
  });

  g.test('inspect of a deep circular structure: as Node below the output budget, and within the default heap above it', async (ctx) => {
    const build = 'const chain = (n) => { let last = {}; const obj = last; for (let i = 0; i < n; i++) { last.next = { circular: obj, last, obj: { a: 1, b: 2, c: true } }; last = last.next; obj[i] = last; } return obj; };';
    // 30 levels: under runjs's budget (2 ** 21 characters per level), so Node's text.
    const small = (inspect: (v: unknown, o: object) => string, chain: (n: number) => unknown): [number, string, string] => {
      const s = inspect(chain(30), { depth: Infinity });
      return [s.length, s.slice(0, 300), s.slice(-300)];
    };
    const guest = await guestJson<[[number, string, string], string, boolean]>(ctx, `${build}\nconst { inspect } = require('node:util');\nconst first = (${small.toString()})(inspect, chain);\nconst big = inspect(chain(1000), { depth: Infinity });\nreturn [first, big.slice(0, 10), big.length <= 2 ** 21 * 8];`);
    // eslint-disable-next-line no-new-func
    const chain = new Function(`${build} return chain;`)() as (n: number) => unknown;
    assert.deepEqual(guest, [small(nodeUtil.inspect, chain), '<ref *1> {', true]);
  });

  g.test('inspect of a 100,000-node list at depth Infinity stops where Node\'s stack would, within the default heap', async (ctx) => {
    const code = [
      'const { inspect } = require("node:util");',
      'const list = {}; let head = list; for (let i = 0; i < 100000; i++) head = head.next = {};',
      'const out = inspect(list, { depth: Infinity });',
      'const deep = []; let d = deep; for (let i = 0; i < 998; i++) { const n = []; d.push(n); d = n; }',
      'return [out.match(/next/g).length, out.includes("[Object: Inspection interrupted prematurely. Maximum call stack size exceeded.]"), inspect(deep, { depth: Infinity }).includes("interrupted")];',
    ].join('\n');
    const [levels, interrupted, shallowInterrupted] = await guestJson<[number, boolean, boolean]>(ctx, code);
    // V8's stack would let inspect go about 8,000 levels deep (Node's: about 930): runjs stops at
    // 1,000. QuickJS's smaller stack overflows first, as Node's does.
    if (ctx.engine === 'v8') assert.equal(levels, 1000);
    else assert.ok(levels > 100 && levels < 1000, String(levels));
    assert.equal(interrupted, true);
    assert.equal(shallowInterrupted, ctx.engine === 'quickjs');
  });

  g.test('assert.ok quotes its call as the script was submitted, also when the script was transformed', async (ctx) => {
    // `1 < 2 > 0` sends the script through esbuild, which rewrites `undefined` to `void 0`, folds
    // constants and splits statements onto lines of its own; Node reads the file as written.
    const out = await ctx.output([
      'const assert = require("node:assert");',
      'const a = assert;',
      'const r = [];',
      'const t = (f) => { try { f(); } catch (e) { r.push(e.message.split("\\n")[2]); } };',
      't(() => {',
      '    assert(true); assert(null, undefined);',
      '});',
      't(() => {',
      '    a(',
      '      (() => "string")() === 123 instanceof Buffer',
      '    );',
      '});',
      't(() => assert(typeof 123n === "string"));',
      't(() => assert["ok"](0));',
      't(() => new Function("assert", "assert(1 === 2);")(assert));',
      't(() => eval("assert.ok(1 === 2);"));',
      'console.log(JSON.stringify(r));',
      'const x = 1 < 2 > 0;',
    ].join('\n'));
    // Eval'd code has no text runjs can read: the value is shown (Node shows the eval'd source).
    assert.equal(out, `${JSON.stringify(['  assert(null, undefined)', '  a(', '  assert(typeof 123n === "string")', '  assert["ok"](0)', '  assert.ok(false)', '  assert.ok(false)'])}\n`);
  });
});
