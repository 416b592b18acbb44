// The guest platform's own guarantees (issue 7): internals unreachable, builtins captured before
// user code (overwriting them does not break the platform), lazy parts, Web IDL-shaped globals.
import assert from 'node:assert/strict';
import { guestSuite } from '../helpers/both-engines.ts';

const GLOBALS = ['URL', 'URLSearchParams', 'URLPattern', 'TextEncoder', 'TextDecoder', 'Event', 'EventTarget', 'CustomEvent', 'DOMException', 'AbortController',
  'AbortSignal', 'Blob', 'File', 'FormData', 'Headers', 'Request', 'Response', 'ReadableStream', 'WritableStream', 'TransformStream',
  'TextEncoderStream', 'TextDecoderStream', 'CompressionStream', 'DecompressionStream', 'ByteLengthQueuingStrategy', 'CountQueuingStrategy',
  'Buffer', 'Crypto', 'SubtleCrypto', 'CryptoKey', 'Performance', 'Navigator'];

guestSuite('guest platform internals', (g) => {
  g.test('internals stay unreachable; the builtin registry only hands out module objects', async (ctx) => {
    assert.equal(await ctx.output([
      'const names = Object.getOwnPropertyNames(globalThis).filter((n) => /runjs|__/.test(n));',
      'const builtin = globalThis[Symbol.for("runjs.builtin")];',
      'console.log(JSON.stringify(names), typeof __runjs_internal, typeof __runjs_P, typeof builtin, builtin("node:path") === require("path"));',
      'try { builtin("no-such-module") } catch (e) { console.log(e.code) }',
      'console.log(Object.getOwnPropertySymbols(globalThis).map(String).filter((s) => s.includes("runjs")).join());',
      // The dynamic-import helper: it too hands out only module namespaces (and import.meta).
      'const imp = globalThis[Symbol.for("runjs.import")];',
      'console.log(typeof imp, (await imp("node:path")).default === require("path"), Object.keys(imp.meta).join());',
    ].join('\n')), '[] undefined undefined function true\nERR_UNKNOWN_BUILTIN_MODULE\nSymbol(runjs.import),Symbol(runjs.builtin)\nfunction true url,filename,dirname,resolve\n');
  });

  g.test('overwriting builtins before first use does not break streams, URL, encoding, Buffer, events or crypto', async (ctx) => {
    assert.equal(await ctx.output([
      'const keep = { log: console.log };',
      'Array.prototype.push = function () { throw new Error("no push") };',
      'Array.prototype.slice = function () { throw new Error("no slice") };',
      'Array.prototype.map = function () { throw new Error("no map") };',
      'String.prototype.slice = function () { throw new Error("no slice") };',
      'String.prototype.charCodeAt = function () { return 0 };',
      'Map.prototype.set = function () { throw new Error("no set") };',
      'Map.prototype.get = function () { throw new Error("no get") };',
      'WeakMap.prototype.get = function () { throw new Error("no weak get") };',
      'Promise.prototype.then = function () { throw new Error("no then") };',
      'JSON.parse = () => { throw new Error("no parse") }; JSON.stringify = () => "hijacked";',
      'Object.keys = () => { throw new Error("no keys") }; Object.defineProperty = () => { throw new Error("no defineProperty") };',
      'Function.prototype.call = function () { throw new Error("no call") }; Function.prototype.apply = function () { throw new Error("no apply") };',
      'globalThis.Uint8Array = function () { throw new Error("no Uint8Array") };',
      'const rs = new ReadableStream({ start(c) { c.enqueue("a"); c.enqueue("b"); c.close() } });',
      'const reader = rs.getReader(); const parts = []; for (;;) { const r = await reader.read(); if (r.done) break; parts[parts.length] = r.value } keep.log(parts.join(""));',
      'const u = new URL("https://x.y/p?q=1"); keep.log(u.searchParams.get("q"), u.href);',
      'keep.log(new TextDecoder().decode(new TextEncoder().encode("héllo")));',
      'keep.log(Buffer.from("héllo").toString("base64"), structuredClone({ a: [1] }).a[0]);',
      'const { EventEmitter } = require("events"); const e = new EventEmitter(); e.on("x", (v) => keep.log("event", v)); e.emit("x", 1);',
      'keep.log((await crypto.subtle.digest("SHA-1", new TextEncoder().encode("x"))).byteLength, crypto.randomUUID().length);',
    ].join('\n')), 'ab\n1 https://x.y/p?q=1\nhéllo\naMOpbGxv 1\nevent 1\n20 36\n');
  });

  g.test('descriptor fields planted on Object.prototype do not break the platform parts that load later', async (ctx) => {
    assert.equal(await ctx.output([
      'Object.prototype.polluted = 1; Object.prototype.get = 1; Object.prototype.set = 1; Object.prototype.value = 1;',
      'Object.prototype.writable = true; Object.prototype.enumerable = true; Object.prototype.configurable = false;',
      'const zlib = require("node:zlib"), nodeCrypto = require("node:crypto"), stream = require("node:stream");',
      'const util = require("node:util"), events = require("node:events"), { Buffer: B } = require("node:buffer");',
      'console.log(zlib.gunzipSync(zlib.gzipSync("abc")).toString(), nodeCrypto.createHash("sha256").update("x").digest("hex").slice(0, 8));',
      'console.log(await stream.Readable.from(["a", "b"]).toArray().then((a) => a.join("")), util.format("%s=%d", "n", 1), util.inspect({ a: 1 }));',
      'const e = new events.EventEmitter(); e.once("x", (v) => console.log("event", v)); e.emit("x", 2); console.log(B.from("hi").toString("hex"));',
      'const r = new Request("https://example.com/a", { method: "POST", body: "hi", headers: { "x-a": "1" } });',
      'console.log(r.method, r.headers.get("x-a"), await r.text(), new Headers({ b: "2" }).get("b"));',
      'const res = new Response("ok", { status: 201 }); console.log(res.status, await res.text(), (await Response.json({ a: 1 }).json()).a);',
      'console.log(new URL("https://x.y/p?q=1").searchParams.get("q"), typeof ReadableStream, typeof (await import("node:path")).join);',
    ].join('\n')), 'abc 2d711642\nab n=1 { a: 1 }\nevent 2\n6869\nPOST 1 hi 2\n201 ok 1\n1 function function\n');
  });

  g.test('builtins overwritten before the first require of util or assert do not reach them (inherited methods and species too)', async (ctx) => {
    assert.equal(await ctx.output([
      'const keep = { log: console.log };',
      'const value = { a: [1, 2], m: new Map([[1, { b: "x" }]]), s: new Set([3]), u: new Uint8Array(2) };',
      'const pwn = (what) => function () { throw new Error("pwn " + what) };',
      'Array.prototype.push = pwn("push"); Array.prototype.forEach = pwn("forEach"); Array.prototype.join = pwn("join");',
      'Function.prototype.bind = pwn("bind"); Function.prototype.call = pwn("call");',
      'Reflect.defineProperty = pwn("rdp"); Reflect.ownKeys = pwn("ownKeys"); Object.setPrototypeOf = pwn("setPrototypeOf");',
      'Map.prototype.get = pwn("get"); Map.prototype.set = pwn("set"); Set.prototype.add = pwn("add");',
      'Object.defineProperty(Array, Symbol.species, { get: pwn("species") });',
      'Object.getPrototypeOf(""[Symbol.iterator]()).next = pwn("next");',
      'Uint8Array.prototype.set = pwn("u8 set"); Uint8Array.prototype.subarray = pwn("subarray");',
      'const util = require("util");',
      'keep.log(util.inspect(value, { breakLength: Infinity }));',
      'keep.log(util.format("%s %d %o", "a", 2, [1]), util.inspect("a\\nb"));',
      'try { require("assert").deepStrictEqual({ a: 1 }, { a: 2 }) } catch (e) { keep.log(e.name, e.code, e.message.split("\\n")[0]) }',
      'keep.log(Buffer.concat([Buffer.from("a"), Buffer.from("bc")]).toString());',
    ].join('\n')), [
      "{ a: [ 1, 2 ], m: Map(1) { 1 => { b: 'x' } }, s: Set(1) { 3 }, u: Uint8Array(2) [ 0, 0 ] }",
      "a 2 [ 1, [length]: 1 ] 'a\\nb'",
      'AssertionError ERR_ASSERTION Expected values to be strictly deep-equal:',
      'abc',
      '',
    ].join('\n'));
  });

  g.test('replacing the array iterator, %ArrayIteratorPrototype%.next or Map iteration does not break URL, Buffer, encoding, structuredClone, streams', async (ctx) => {
    assert.equal(await ctx.output([
      'const keep = { log: console.log };',
      'const pwn = (what) => function () { throw new Error("pwn " + what) };',
      'const m = new Map([[1, 2]]); const arrayIterator = Array.prototype[Symbol.iterator]; const ArrayIteratorProto = Object.getPrototypeOf([][Symbol.iterator]()); const next = ArrayIteratorProto.next;',
      'const fns = [() => new URL("http://a/b?x=1&y=2").searchParams.get("y"), () => [...new URLSearchParams("a=1&b=2").keys()].length, () => Buffer.from("hi").toString("hex"),',
      '  () => new TextEncoder().encode("ab").length, () => structuredClone({ a: [1, 2], m }).m.get(1), () => require("stream").Readable.name];',
      'Array.prototype[Symbol.iterator] = pwn("iterator"); ArrayIteratorProto.next = pwn("next");',
      'Map.prototype[Symbol.iterator] = pwn("map iterator"); Map.prototype.entries = pwn("entries");',
      'const out = []; for (let i = 0; i < fns.length; i++) { try { out[i] = fns[i]() } catch (e) { out[i] = e.message } }',
      'Array.prototype[Symbol.iterator] = arrayIterator; ArrayIteratorProto.next = next; // the script\'s own completion is destructured',
      'keep.log(out.join(" "));',
    ].join('\n')), '2 2 6869 2 2 Readable\n');
  });

  g.test('big parts load on first use; asking for a global\'s descriptor is a use, so it is the Web IDL data property', async (ctx) => {
    assert.equal(await ctx.output([
      'const before = Object.getOwnPropertyDescriptor(globalThis, "ReadableStream");',
      'const rs = ReadableStream; const after = Reflect.getOwnPropertyDescriptor(globalThis, "ReadableStream");',
      'console.log(typeof before.get, typeof after.get, before.value === rs, after.value === rs, after.enumerable, after.writable, after.configurable);',
      'globalThis.Headers = 42; console.log(Headers, Object.getOwnPropertyDescriptor(globalThis, "Headers").value);',
      // The replacements look like the builtins they stand for, and leave other objects alone.
      'console.log(Object.getOwnPropertyDescriptor.name, Object.getOwnPropertyDescriptor.length, Reflect.getOwnPropertyDescriptor.name, "prototype" in Object.getOwnPropertyDescriptor);',
      'const o = { get x() { return 1; } }; console.log(typeof Object.getOwnPropertyDescriptor(o, "x").get, Object.getOwnPropertyDescriptor(globalThis, "nope"));',
      // A script's own accessor on a global's name is not replaced.
      'Object.defineProperty(globalThis, "Blob", { get() { return 7; }, configurable: true }); console.log(typeof Object.getOwnPropertyDescriptor(globalThis, "Blob").get, Blob);',
    ].join('\n')), 'undefined undefined true true false true true\n42 42\ngetOwnPropertyDescriptor 2 getOwnPropertyDescriptor false\nfunction undefined\nfunction 7\n');
  });

  g.test('globals are Web IDL-shaped: right names, not enumerable, toStringTag', async (ctx) => {
    const out = await ctx.output([
      `const names = ${JSON.stringify(GLOBALS)};`,
      'const wrong = names.filter((n) => typeof globalThis[n] !== "function" || globalThis[n].name !== n);',
      'const enumerable = names.filter((n) => Object.getOwnPropertyDescriptor(globalThis, n).enumerable);',
      'console.log(JSON.stringify(wrong), JSON.stringify(enumerable), Object.prototype.toString.call(new Headers()), String(new URL("http://a")));',
    ].join('\n'));
    assert.equal(out, '[] [] [object Headers] http://a/\n');
  });
});
