// Console formatting is the prelude's, so both engines print the same bytes for every kind of
// value (one guest, two engines).
import assert from 'node:assert/strict';
import { guestSuite } from '../helpers/both-engines.ts';

guestSuite('console formatting', (g) => {
  g.test('primitives, objects, arrays, Maps, Sets and dates', async (ctx) => {
    assert.equal(await ctx.output([
      'console.log("s", 1, 1.5, -0, NaN, Infinity, true, null, undefined, 10n, Symbol("k"));',
      'console.log({ a: 1, b: [1, "x", { c: null }] }, [1, [2, [3]]]);',
      'console.log(new Map([["k", { v: 1 }]]), new Set(["a", 2]), new Date(Date.UTC(2020, 1, 29, 12)));',
      'console.log(function named() {}, () => 0, class K {}, { f() {} });',
    ].join('\n')), [
      's 1 1.5 0 NaN Infinity true null undefined 10n Symbol(k)',
      '{"a":1,"b":[1,"x",{"c":null}]} [1,[2,[3]]]',
      '{"[Map]":[["k",{"v":1}]]} {"[Set]":["a",2]} "2020-02-29T12:00:00.000Z"',
      '[Function: named] [Function (anonymous)] [Function: K] {"f":"[Function: f]"}',
      '',
    ].join('\n'));
  });

  g.test('prefixes per method, cycles, typed arrays and class instances', async (ctx) => {
    assert.equal(await ctx.output([
      'const c: any = { n: 1 }; c.self = c;',
      'class P { x = 1; #hidden = 2; get y() { return 3 } }',
      'console.info(c); console.warn(new P()); console.error(new Uint8Array([1, 2])); console.debug([undefined, () => 1]);',
    ].join('\n')), [
      '[INFO] {"n":1,"self":"[Circular]"}',
      '[WARN] {"x":1}',
      '[ERROR] {"0":1,"1":2}',
      '[null,"[Function (anonymous)]"]',
      '',
    ].join('\n'));
  });

  g.test('errors print their name and message first', async (ctx) => {
    const out = await ctx.output('class MyError extends Error { name = "MyError" }\nconsole.log(new TypeError("bad type")); console.log(new MyError("mine"))');
    const lines = out.split('\n').filter((l) => !l.startsWith('    at '));
    assert.deepEqual(lines, ['TypeError: bad type', 'MyError: mine', '']);
  });
});

guestSuite('console against hostile values', (g) => {
  g.test('a revoked Proxy and a throwing getPrototypeOf trap print instead of throwing', async (ctx) => {
    const out = await ctx.output("const { proxy, revoke } = Proxy.revocable({}, {}); revoke(); console.log('a', proxy);\nconsole.log('b', new Proxy({}, { getPrototypeOf() { throw new Error('no') } })); 1");
    const lines = out.split('\n').filter((l) => !l.startsWith('    at '));
    assert.equal(lines.length, 3);
    assert.match(lines[0]!, /^a \[Unserializable: TypeError: /);
    assert.equal(lines[1], 'b [Unserializable: Error: no');
  });

  g.test('a function whose name getter throws prints as anonymous', async (ctx) => {
    const out = await ctx.output("const f = function () {}; Object.defineProperty(f, 'name', { get() { throw new Error('n') } }); console.log(f, [f]); 1");
    assert.equal(out, '[Function (anonymous)] ["[Function (anonymous)]"]\n');
  });

  g.test('a setter on Array.prototype[0] does not eat console arguments', async (ctx) => {
    const out = await ctx.output("Object.defineProperty(Array.prototype, '0', { set(v) {}, configurable: true }); console.log('a', 'b'); console.log({ m: new Map([[1, 2]]), s: new Set([3]) }); 1");
    assert.equal(out, 'a b\n{"m":{"[Map]":[[1,2]]},"s":{"[Set]":[3]}}\n');
  });

  g.test('repeated (not circular) references print in full; cycles as [Circular]', async (ctx) => {
    const out = await ctx.output('const s = { k: 1 }; const a: any = { n: 1, p: [s, s] }; a.self = a; a.list = [a, { b: a }]; console.log(a); 1');
    assert.equal(out, '{"n":1,"p":[{"k":1},{"k":1}],"self":"[Circular]","list":["[Circular]",{"b":"[Circular]"}]}\n');
  });

  // A line longer than any write may be is dropped by the host (the output goes on), so the
  // prelude stops building it: logging a 10-million-element array (WPT console-log-large-array)
  // must not run the heap out building tens of MB of JSON, nor list a huge typed array's keys.
  g.test('a line longer than the output cap is not built: it is dropped with a notice and the output goes on, no out-of-memory', async (ctx) => {
    const dropped = (n: number): string => `[runjs] output line dropped: it is longer than the limit of ${n} bytes per execution (--max-output-bytes)\n`;
    const truncated = (n: number): string => `[runjs] output truncated: the limit of ${n} bytes per execution was reached (--max-output-bytes)\n`;
    const big = 'console.log("before"); console.log(new Array(1_000_000).fill("x")); console.log(new Uint8Array(10_000_000)); console.log("after"); 1';
    assert.equal(await ctx.output(big, { heapMemoryMaxMb: 64 }), 'before\n' + dropped(1 << 20) + dropped(1 << 20) + 'after\n');
    // Found too long only while walking it (many small arrays), past the host's answer.
    const nested = 'console.log("a"); console.log({ rows: Array.from({ length: 4000 }, () => new Array(50).fill(1)) }); console.log("b"); 1';
    assert.equal(await ctx.output(nested, { maxOutputBytes: 200_000 }), 'a\n' + dropped(200_000) + 'b\n');
    // A string too long for any write is dropped the same way; a line that only crosses the cap ends the output.
    const plain = 'console.log("x".repeat(300)); console.log("y".repeat(60)); console.log("z".repeat(60)); console.log("never"); 1';
    assert.equal(await ctx.output(plain, { maxOutputBytes: 200 }), dropped(200) + 'y'.repeat(60) + '\n' + truncated(200));
    // Lines exactly as long as the cap are printed whole (the count is a lower bound, never more).
    const u = JSON.stringify(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [i, i % 7])));
    assert.equal(await ctx.output('const u = new Uint8Array(20_000); for (let i = 0; i < u.length; i++) u[i] = i % 7; console.log(u); 1', { maxOutputBytes: u.length + 1 }), `${u}\n`);
    const strs = JSON.stringify([new Array(30_000).fill('ab'), { k: new Array(100).fill('') }]);
    assert.equal(await ctx.output('console.log([new Array(30_000).fill("ab"), { k: new Array(100).fill("") }]); 1', { maxOutputBytes: strs.length + 1 }), `${strs}\n`);
    // Long lines that fit are printed whole.
    const fits = 'const a = Array.from({ length: 100_000 }, (_, i) => i % 10); console.log("x", a, "y"); console.log(JSON.stringify(a).length); 1';
    const out = await ctx.output(fits);
    assert.equal(out, `x ${JSON.stringify(Array.from({ length: 100_000 }, (_, i) => i % 10))} y\n200001\n`);
  });
});
