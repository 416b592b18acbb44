// WHATWG Streams behaviour the Web Platform Tests check (issue 20, round 5) beyond what the
// polyfill gives: the standard's interface shapes, ReadableStream.from's argument type, and the
// 'owning' ReadableStream type (enqueue with a transfer list, a tee that clones).
import assert from 'node:assert/strict';
import { guestSuite } from '../helpers/both-engines.ts';

const PROBE = 'const r = (f) => { try { return String(f()) } catch (e) { return `${e.constructor.name}` } };';

guestSuite('web platform (WPT streams)', (g) => {
  g.test('interface shapes: the writable controller has signal and error() only; the async iterator prototype has no own @@asyncIterator', async (ctx) => {
    assert.equal(await ctx.output([
      'let wc; new WritableStream({ start(c) { wc = c; } });',
      'const p = Object.getPrototypeOf(wc);',
      'console.log(Object.getOwnPropertyNames(p).sort().join(), "abortReason" in wc, wc.signal instanceof AbortSignal);',
      'const it = new ReadableStream().values(); const ip = Object.getPrototypeOf(it);',
      'console.log(Reflect.ownKeys(ip).map(String).join(), typeof it[Symbol.asyncIterator], it[Symbol.asyncIterator]() === it);',
    ].join('\n')), 'constructor,error,signal false true\nnext,return function true\n');
  });

  g.test('ReadableStream.from: a value that is not an object (a string too) is a TypeError; iterables and async iterables are read', async (ctx) => {
    assert.equal(await ctx.output([
      PROBE,
      'console.log(["ab", 0, null, undefined, Symbol(), true].map((v) => r(() => ReadableStream.from(v))).join());',
      'const got = [];',
      'for await (const x of ReadableStream.from(["a", Promise.resolve("b")])) got.push(x);',
      'for await (const x of ReadableStream.from((async function* () { yield "c"; })())) got.push(x);',
      'for await (const x of ReadableStream.from(new Set(["d"]))) got.push(x);',
      'console.log(got.join(), ReadableStream.from.length, ReadableStream.from.name, Object.hasOwn(ReadableStream.from, "prototype"), JSON.stringify(Object.getOwnPropertyDescriptor(ReadableStream, "from"), (k, v) => k === "value" ? typeof v : v));',
    ].join('\n')), 'TypeError,TypeError,TypeError,TypeError,TypeError,TypeError\na,b,c,d 1 from false {"value":"function","writable":true,"enumerable":true,"configurable":true}\n');
  });

  g.test("ReadableStream type 'owning': enqueue(chunk, { transfer }) stores a clone and detaches what it lists; other types refuse a transfer list", async (ctx) => {
    assert.equal(await ctx.output([
      PROBE,
      'const buffer = new Uint8Array([1, 2, 3]).buffer; buffer.tag = 1;',
      'let c; const rs = new ReadableStream({ type: "owning", start(ctl) { c = ctl; } });',
      'c.enqueue(buffer, { transfer: [buffer] }); c.enqueue({ n: 1 }); c.enqueue("s", { transfer: [] });',
      'console.log(c instanceof ReadableStreamDefaultController, buffer.byteLength, buffer.tag, c.enqueue.length);',
      'const reader = rs.getReader(); const a = await reader.read(); const b = await reader.read(); const s = await reader.read();',
      'console.log(a.value === buffer, a.value.byteLength, a.value.tag, [...new Uint8Array(a.value)].join(), JSON.stringify(b.value), s.value);',
      'let d; new ReadableStream({ start(ctl) { d = ctl; } });',
      'const other = new ArrayBuffer(4);',
      'console.log(r(() => d.enqueue(other, { transfer: [other] })), other.byteLength, r(() => d.enqueue(1, { get transfer() { throw new RangeError("x"); } })), r(() => d.enqueue(1, 5)), r(() => d.enqueue(1, { transfer: [1] })));',
      'let e; const failing = new ReadableStream({ type: "owning", start(ctl) { e = ctl; } });',
      'console.log(r(() => e.enqueue(() => 1)), await failing.getReader().read().then(() => "read", (err) => err.name));',
      'console.log(r(() => new ReadableStream({ type: "own" })), r(() => new ReadableStream({ type: "Owning" })));',
    ].join('\n')), [
      'true 0 1 0',
      'false 3 undefined 1,2,3 {"n":1} s',
      'TypeError 4 RangeError TypeError TypeError',
      'DOMException DataCloneError',
      'TypeError TypeError',
      '',
    ].join('\n'));
  });

  g.test("ReadableStream type 'owning': tee() gives the second branch a clone; a chunk that cannot be cloned errors both branches and cancels the source", async (ctx) => {
    assert.equal(await ctx.output([
      'const obj = { n: 1 };',
      'const [b1, b2] = new ReadableStream({ type: "owning", start(c) { c.enqueue(obj); c.close(); } }).tee();',
      'const x1 = await b1.getReader().read(); const x2 = await b2.getReader().read();',
      'console.log(x1.value === obj, x1.value === x2.value, JSON.stringify(x1.value), JSON.stringify(x2.value));',
      'const { port1 } = new MessageChannel(); let cancelled;',
      'const src = new ReadableStream({ type: "owning", start(c) { c.enqueue({ port1 }, { transfer: [port1] }); }, cancel(reason) { cancelled = reason.name; } });',
      'const [c1, c2] = src.tee();',
      'const why = await c2.getReader().read().then(() => "read", (e) => e.name);',
      'const why1 = await c1.getReader().read().then(() => "read", (e) => e.name);',
      'console.log(why, why1, cancelled);',
      'const [d1, d2] = new ReadableStream({ start(c) { c.enqueue(obj); c.close(); } }).tee();',
      'console.log((await d1.getReader().read()).value === obj, (await d2.getReader().read()).value === obj);',
    ].join('\n')), 'false false {"n":1} {"n":1}\nDataCloneError DataCloneError DataCloneError\ntrue true\n');
  });
});
