// Web platform behaviour the Web Platform Tests check (issue 20): Headers validation and
// iteration, Blob/File argument conversion and slicing, performance as an EventTarget, trusted
// abort events and AbortSignal.any, getRandomValues and digest errors, the console namespace.
// Expectations are the specs' and agree with Node 24 where Node follows the spec.
import assert from 'node:assert/strict';
import { guestSuite } from '../helpers/both-engines.ts';

const PROBE = 'const r = (f) => { try { return JSON.stringify(f()) } catch (e) { return `${e.constructor.name}:${e.name}` } };';

guestSuite('web platform (WPT groups)', (g) => {
  g.test('Headers: null init, invalid names and values throw; whitespace is trimmed; iteration is live and sorted', async (ctx) => {
    assert.equal(await ctx.output([
      PROBE,
      'console.log(r(() => new Headers(null)), r(() => new Headers("abc")), r(() => new Headers([["a"]])));',
      'console.log(r(() => new Headers([["a", "x\\0y"]])), r(() => new Headers({ a: "x\\ry" })), r(() => new Headers({ a: "x\\ny" })));',
      'console.log(r(() => new Headers({ "a b": "x" })), r(() => new Headers({ "": "x" })), r(() => new Headers({ a: "\\u20ac" })), r(() => new Headers().append("a", Symbol())));',
      'const h = new Headers(); h.append("a", " \\t x \\n"); h.set("n", null); console.log(JSON.stringify(h.get("a")), h.get("n"), h.get("A"));',
      'const c = new Headers([["Set-Cookie", "a=1"], ["set-cookie", "b=2"], ["B", "x"], ["a", "y"], ["b", "z"]]);',
      'console.log(JSON.stringify([...c]), JSON.stringify(c.getSetCookie()), c.get("set-cookie"), JSON.stringify([...c.keys()]));',
      'const live = new Headers({ a: "1", b: "2", c: "3" }); const seen = []; for (const [k] of live) { seen.push(k); if (k === "a") live.delete("b"); }',
      'const it = live.entries(); console.log(seen.join(), Object.prototype.toString.call(it), it.next().value.join("="), typeof it[Symbol.iterator]);',
    ].join('\n')), [
      'TypeError:TypeError TypeError:TypeError TypeError:TypeError',
      'TypeError:TypeError TypeError:TypeError TypeError:TypeError',
      'TypeError:TypeError TypeError:TypeError TypeError:TypeError TypeError:TypeError',
      '"x" null x',
      '[["a","y"],["b","x, z"],["set-cookie","a=1"],["set-cookie","b=2"]] ["a=1","b=2"] a=1, b=2 ["a","b","set-cookie","set-cookie"]',
      'a,c [object Headers Iterator] a=1 function',
      '',
    ].join('\n'));
  });

  g.test('Headers: a record init reads own keys, then each descriptor and value in turn; an iterator follows set-cookie changes', async (ctx) => {
    assert.equal(await ctx.output([
      'const log = []; const target = { a: "1", b: "2" }; Object.defineProperty(target, "c", { value: "3", enumerable: false });',
      'const p = new Proxy(target, { getPrototypeOf(t) { log.push("getPrototypeOf"); return Reflect.getPrototypeOf(t) }, ownKeys(t) { log.push("ownKeys"); return Reflect.ownKeys(t) }, getOwnPropertyDescriptor(t, k) { log.push("gopd:" + String(k)); return Reflect.getOwnPropertyDescriptor(t, k) }, get(t, k) { log.push("get:" + String(k)); return Reflect.get(t, k) } });',
      'const h = new Headers(p); console.log(log.join(), JSON.stringify([...h]));',
      'try { new Headers({ [Symbol()]: "x" }) } catch (e) { console.log(e.name) }',
      'const hs = new Headers([["fizz", "buzz"], ["X-Header", "test"]]); const it = hs[Symbol.iterator](); const out = [it.next().value.join("=")];',
      'hs.append("Set-Cookie", "a=b"); out.push(it.next().value.join("=")); hs.append("Accept", "text/html"); out.push(it.next().value.join("="), it.next().value.join("="));',
      'hs.append("set-cookie", "c=d"); out.push(it.next().value.join("="), it.next().done); console.log(out.join());',
    ].join('\n')), [
      'get:Symbol(Symbol.iterator),ownKeys,gopd:a,get:a,gopd:b,get:b,gopd:c [["a","1"],["b","2"]]',
      'TypeError',
      'fizz=buzz,set-cookie=a=b,set-cookie=a=b,x-header=test,x-header=test,true',
      '',
    ].join('\n'));
  });

  g.test('Blob: arguments converted left to right, options read once in order, type normalized, slice edges, stream ends', async (ctx) => {
    assert.equal(await ctx.output([
      PROBE,
      'const log = []; const parts = { get [Symbol.iterator]() { log.push("iterator"); return function* () { yield { toString() { log.push("part"); return "ab" } } } } };',
      'const b = new Blob(parts, { get endings() { log.push("endings"); return { toString() { log.push("endings:str"); return "native" } } }, get type() { log.push("type"); return "TEXT/Plain" } });',
      'console.log(log.join(), b.size, b.type);',
      'console.log(r(() => new Blob([{ toString() { throw new RangeError("x") } }], { get type() { throw new Error("no") } })));',
      'for (const bad of [null, 1, "abc", {}, { 0: "a", length: 1 }, new Date()]) log.push(r(() => new Blob(bad))); console.log(log.slice(5).join());',
      'for (const bad of [123, true, "abc"]) console.log(r(() => new Blob([], bad)), r(() => new File([], "n", bad)));',
      'console.log(new Blob(["x"], null).size, new Blob(["x"], /re/).size, new Blob(["x"], () => 0).size, r(() => new Blob([], { endings: "foo" })));',
      'console.log(JSON.stringify(["", "a", "A", "\\u00e5", " image/gif ", "\\timage/gif\\t", "image/gif;\\u007f", "\\u0130mage/gif"].map((t) => new Blob([], { type: t }).type)));',
      'console.log(new Blob(["a\\r\\nb\\rc\\n"], { endings: "native" }).size, new Blob(["a\\r\\nb"]).size, new Blob([new Uint16Array([0x4150, 0x5353])]).size, new Blob(new String("xyz")).size);',
      'const s = new Blob(["abcdef"]);',
      'const sl = [s.slice(-2), s.slice(-10, -2), s.slice(2, 1), s.slice(1.7, 3.2), s.slice(NaN, Infinity), s.slice(0, 3, "TEXT/X"), s.slice(0, 3, "\\u00e9")];',
      'console.log(JSON.stringify(await Promise.all(sl.map((x) => x.text()))), sl[5].type, JSON.stringify(sl[6].type));',
      'let n = 0; for await (const c of new Blob(["x".repeat(100000)]).stream()) n += c.length; console.log(n, JSON.stringify(await new Blob([]).stream().getReader().read()), s.slice(0, 0, null).type);',
    ].join('\n')), [
      'iterator,part,endings,endings:str,type 2 text/plain',
      'RangeError:RangeError',
      'TypeError:TypeError,TypeError:TypeError,TypeError:TypeError,TypeError:TypeError,TypeError:TypeError,TypeError:TypeError',
      'TypeError:TypeError TypeError:TypeError',
      'TypeError:TypeError TypeError:TypeError',
      'TypeError:TypeError TypeError:TypeError',
      '1 1 1 TypeError:TypeError',
      '["","a","a",""," image/gif ","","",""]',
      '6 4 4 3',
      '["ef","abcd","","c","abcdef","abc","abc"] text/x ""',
      '100000 {"done":true} null',
      '',
    ].join('\n'));
  });

  g.test('File: name by ToString, lastModified defaults to now and converts as a long long, argument order', async (ctx) => {
    assert.equal(await ctx.output([
      PROBE,
      'const f = new File(["bits"], "a/b.txt", { type: "TEXT/PLAIN" }); console.log(f.name, f.size, f.type, f instanceof Blob, Math.abs(f.lastModified - Date.now()) < 1000, Object.prototype.toString.call(f));',
      'console.log(JSON.stringify([null, undefined, 12, ""].map((n) => new File([], n).name)), r(() => new File([], Symbol())), r(() => new File([])), r(() => new File("hello", "n")));',
      'console.log(JSON.stringify([42, -1, 1.7, NaN, new Date(5), null, "12", Infinity].map((lastModified) => new File([], "n", { lastModified }).lastModified)));',
      'const log = []; new File([{ toString() { log.push("bits"); return "" } }], { toString() { log.push("name"); return "n" } }, { get endings() { log.push("endings") }, get lastModified() { log.push("lastModified") }, get type() { log.push("type") } });',
      'console.log(log.join(), new File(["bits"], "n", { name: "other" }).name);',
    ].join('\n')), [
      'a/b.txt 4 text/plain true true [object File]',
      '["null","undefined","12",""] TypeError:TypeError TypeError:TypeError TypeError:TypeError',
      '[42,-1,1,0,5,0,12,0]',
      'bits,name,endings,type,lastModified n',
      '',
    ].join('\n'));
  });

  g.test('performance is an EventTarget with toJSON', async (ctx) => {
    assert.equal(await ctx.output([
      'console.log(performance instanceof EventTarget, Object.getPrototypeOf(Performance.prototype) === EventTarget.prototype, typeof performance.addEventListener);',
      'let got = 0; performance.addEventListener("x", () => got++); performance.dispatchEvent(new Event("x"));',
      'const j = performance.toJSON(); console.log(got, typeof j.timeOrigin, j.timeOrigin === performance.timeOrigin, JSON.parse(JSON.stringify(performance)).timeOrigin === j.timeOrigin);',
      'try { new Performance() } catch (e) { console.log(e.name) }',
    ].join('\n')), ['true true function', '1 number true true', 'TypeError', ''].join('\n'));
  });

  g.test('abort: platform events are trusted; AbortSignal.any follows sources, marks every dependent before firing', async (ctx) => {
    assert.equal(await ctx.output([
      'const ac = new AbortController(); let ev; ac.signal.onabort = (e) => { ev = e }; ac.abort();',
      'const t = new EventTarget(); let mine; t.addEventListener("e", (e) => { mine = e.isTrusted }); t.dispatchEvent(new Event("e"));',
      'console.log(ev.isTrusted, ev.bubbles, ev.cancelable, ev.type, mine);',
      'const timeout = AbortSignal.timeout(1); const te = await new Promise((res) => timeout.addEventListener("abort", res)); console.log(te.isTrusted, timeout.reason.name);',
      'const src = new AbortController(); const a1 = AbortSignal.any([src.signal]); const a2 = AbortSignal.any([a1, src.signal]); const log = [];',
      'src.signal.addEventListener("abort", () => log.push("src:" + a1.aborted + ":" + a2.aborted)); a1.onabort = () => log.push("a1"); a2.onabort = () => log.push("a2");',
      'src.abort("why"); console.log(log.join(), a2.reason);',
      'const c1 = new AbortController(); const c2 = new AbortController(); const both = AbortSignal.any([c1.signal, c2.signal]); let count = 0;',
      'c1.signal.addEventListener("abort", () => c2.abort("reason 2")); both.addEventListener("abort", () => count++); c1.abort("reason 1"); console.log(count, both.reason);',
      'const p = new MessageChannel(); const m = await new Promise((res) => { p.port2.onmessage = res; p.port1.postMessage(1) }); p.port1.close(); p.port2.close(); console.log(m.isTrusted);',
      'try { AbortSignal.timeout(-1) } catch (e) { console.log(e.name) }',
    ].join('\n')), [
      'true false false abort false',
      'true TimeoutError',
      'src:true:true,a1,a2 why',
      '1 reason 1',
      'true',
      'TypeError',
      '',
    ].join('\n'));
  });

  g.test('crypto: getRandomValues quota and type errors, digest algorithm normalization', async (ctx) => {
    assert.equal(await ctx.output([
      'const err = (f) => { try { f(); return "ok" } catch (e) { return `${e instanceof DOMException}:${e.name}:${e.code}` } };',
      'console.log(err(() => crypto.getRandomValues(new Uint8Array(65537))), err(() => crypto.getRandomValues(new Uint32Array(16385))), crypto.getRandomValues(new Uint8Array(65536)).length);',
      'console.log(err(() => crypto.getRandomValues(new Float32Array(4))), err(() => crypto.getRandomValues(new Float64Array(4))), err(() => crypto.getRandomValues(new DataView(new ArrayBuffer(4)))));',
      'const d = async (alg) => { try { return (await crypto.subtle.digest(alg, new Uint8Array(1))).byteLength } catch (e) { return `${e.constructor.name}:${e.name}` } };',
      'console.log((await Promise.all(["sHa-256", { name: "sha-1" }, "SHA-384", "sha-512", "SHA-123", "MD5", "", {}, null].map(d))).join());',
    ].join('\n')), [
      'true:QuotaExceededError:22 true:QuotaExceededError:22 65536',
      'true:TypeMismatchError:17 true:TypeMismatchError:17 true:TypeMismatchError:17',
      '32,20,48,64,DOMException:NotSupportedError,DOMException:NotSupportedError,DOMException:NotSupportedError,TypeError:TypeError,DOMException:NotSupportedError',
      '',
    ].join('\n'));
  });

  g.test('console is a namespace object with the class string "console"', async (ctx) => {
    assert.equal(await ctx.output([
      'const proto = Object.getPrototypeOf(console); const tag = Object.getOwnPropertyDescriptor(console, Symbol.toStringTag);',
      'console.log(Object.prototype.toString.call(console), Object.getPrototypeOf(proto) === Object.prototype, Reflect.ownKeys(proto).length, JSON.stringify(tag));',
      'console.log(Object.getOwnPropertyDescriptor(globalThis, "console").enumerable, typeof console.table, typeof console.log);',
    ].join('\n')), [
      '[object console] true 0 {"value":"console","writable":false,"enumerable":false,"configurable":true}',
      'false function function',
      '',
    ].join('\n'));
  });

  g.test('DecompressionStream: output arrives before the writable closes; data after the end of the stream errors it after that output; compression round-trips', async (ctx) => {
    assert.equal(await ctx.output([
      "const deflate = new Uint8Array([120, 156, 75, 173, 40, 72, 77, 46, 73, 77, 81, 200, 47, 45, 41, 40, 45, 1, 0, 48, 173, 6, 36]);",
      "const out = [];",
      "for (const chunk of [deflate, new Uint8Array([...deflate, 0])]) {",
      "  const ds = new DecompressionStream('deflate');",
      "  const reader = ds.readable.getReader();",
      "  const writer = ds.writable.getWriter();",
      "  writer.write(chunk).catch(() => {});",
      "  const { value } = await reader.read();",
      "  out.push(new TextDecoder().decode(value));",
      "  if (chunk.length > deflate.length) { try { await reader.read(); out.push('no error'); } catch (e) { out.push(e.name + ': ' + e.message); } }",
      "}",
      // A brotli stream with a byte after its end: the output, then the same error (the host's
      // brotli decompressor used to accept the junk, so the second read never settled).
      "const brotli = new Uint8Array([0x21, 0x38, 0x00, 0x04, 0x65, 0x78, 0x70, 0x65, 0x63, 0x74, 0x65, 0x64, 0x20, 0x6F, 0x75, 0x74, 0x70, 0x75, 0x74, 0x03, 0]);",
      "{ const ds = new DecompressionStream('brotli'); const reader = ds.readable.getReader(); ds.writable.getWriter().write(brotli).catch(() => {});",
      "  out.push(new TextDecoder().decode((await reader.read()).value)); try { await reader.read(); out.push('no error'); } catch (e) { out.push(e.name + ': ' + e.message); } }",
      "const valid = new Uint8Array([120, 156, 75, 4, 0, 0, 98, 0, 98]);",
      "for (const chunks of [[valid, new Uint8Array(1)], [valid, valid]]) {",
      "  try { await Array.fromAsync(new Blob(chunks).stream().pipeThrough(new DecompressionStream('deflate'))); out.push('no error'); } catch (e) { out.push(e.name); }",
      "}",
      "const big = new Uint8Array(300000).map((_, i) => i % 7);",
      "const c = await new Response(new Blob([big]).stream().pipeThrough(new CompressionStream('gzip')).pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();",
      "out.push(c.byteLength, new Uint8Array(c)[299999]);",
      "try { const w = new DecompressionStream('gzip').writable.getWriter(); await w.close(); } catch (e) { out.push('empty: ' + e.name); }",
      "console.log(JSON.stringify(out));",
    ].join('\n'), { heapMemoryMaxMb: 32 }), `${JSON.stringify(['expected output', 'expected output', 'TypeError: DecompressionStream: Trailing junk found after the end of the compressed stream', 'expected output', 'TypeError: DecompressionStream: Trailing junk found after the end of the compressed stream', 'TypeError', 'TypeError', 300000, 0, 'empty: TypeError'])}\n`);
  });

  g.test('Blob.stream(): a BYOB reader is filled in place and its last read settles done', async (ctx) => {
    assert.equal(await ctx.output([
      "const r = new Blob(['abcdef']).stream().getReader({ mode: 'byob' });",
      'const out = [];',
      'let res;',
      'do { res = await r.read(new Uint8Array(4)); out.push(res.done, res.value && new TextDecoder().decode(res.value)); } while (!res.done);',
      'const chunks = [];',
      'for await (const c of new Blob([new Uint8Array(200000)]).stream()) chunks.push(c.length);',
      'console.log(JSON.stringify(out), JSON.stringify(chunks));',
    ].join('\n')), '[false,"abcd",false,"ef",true,""] [65536,65536,65536,3392]\n');
  });

  g.test('streams: a ReadableStream async iterator inherits from %AsyncIteratorPrototype%', async (ctx) => {
    assert.equal(await ctx.output([
      'const AsyncIteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf(async function* () {}).prototype);',
      'const it = new ReadableStream({ start(c) { c.enqueue(1); c.enqueue(2); c.close(); } }).values();',
      'const p = Object.getPrototypeOf(it);',
      'const got = [];',
      'for await (const x of it) got.push(x);',
      'console.log(Object.getPrototypeOf(p) === AsyncIteratorPrototype, Object.getOwnPropertyNames(p).join(), got.join());',
    ].join('\n')), 'true next,return 1,2\n');
  });
  g.test('structuredClone: resizable buffers and length-tracking views, out-of-bounds views, DOMException, Float16Array, platform objects', async (ctx) => {
    assert.equal(await ctx.output([
      PROBE,
      'const rab = new ArrayBuffer(4, { maxByteLength: 16 }); const c1 = structuredClone(rab);',
      'const t = new ArrayBuffer(4, { maxByteLength: 16 }); const c2 = structuredClone(t, { transfer: [t] });',
      'console.log(c1.resizable, c1.maxByteLength, c2.resizable, c2.maxByteLength, t.detached);',
      'const lt = structuredClone(new Uint16Array(new ArrayBuffer(4, { maxByteLength: 16 }))); lt.buffer.resize(8);',
      'const fixed = structuredClone(new Uint16Array(new ArrayBuffer(4, { maxByteLength: 16 }), 0, 2)); fixed.buffer.resize(8);',
      'const full = new ArrayBuffer(4, { maxByteLength: 4 }); new Uint8Array(full).set([1, 2, 3, 4]); const atMax = structuredClone(new Uint8Array(full));',
      'console.log(lt.length, fixed.length, atMax.buffer.maxByteLength, [...new Uint8Array(full)].join(), [...atMax].join());',
      'const oob = new ArrayBuffer(8, { maxByteLength: 16 }); const view = new Uint8Array(oob, 4, 4); const dv = new DataView(oob, 4, 4); oob.resize(4);',
      'console.log(r(() => structuredClone(view)), r(() => structuredClone(dv)));',
      'const d = structuredClone(new DOMException("boom", "AbortError"));',
      'console.log(d instanceof DOMException, d.name, d.message, d.code, structuredClone(new Float16Array([1.5, -2]))[1]);',
      'console.log(r(() => structuredClone(new Response())), r(() => structuredClone(new URL("http://a/"))), r(() => structuredClone({ h: new Headers() })), r(() => structuredClone(new (class extends EventTarget {})())));',
      'class Mine { constructor() { this.x = 1 } } console.log(r(() => structuredClone(new Mine())));',
    ].join('\n')), [
      'true 16 true 16 true',
      '4 2 4 1,2,3,4 1,2,3,4',
      'DOMException:DataCloneError DOMException:DataCloneError',
      'true AbortError boom 20 -2',
      'DOMException:DataCloneError DOMException:DataCloneError DOMException:DataCloneError DOMException:DataCloneError',
      '{"x":1}',
      '',
    ].join('\n'));
  });

  g.test('structuredClone: ReadableStream, WritableStream and TransformStream are transferable', async (ctx) => {
    assert.equal(await ctx.output([
      PROBE,
      'const out = [];',
      'const rs = new ReadableStream({ start(c) { c.enqueue("a"); c.enqueue({ x: 1 }); c.close(); } });',
      'const rt = structuredClone(rs, { transfer: [rs] }); const got = []; for await (const x of rt) got.push(x);',
      'out.push(rs.locked, Object.getPrototypeOf(rt) === ReadableStream.prototype, JSON.stringify(got));',
      'class Sub extends ReadableStream {} const sub = new Sub(); out.push(Object.getPrototypeOf(structuredClone(sub, { transfer: [sub] })) === ReadableStream.prototype);',
      'const locked = new ReadableStream(); locked.getReader(); out.push(r(() => structuredClone(locked, { transfer: [locked] })), r(() => structuredClone(new ReadableStream())));',
      'const written = []; const ws = new WritableStream({ write(c) { written.push(c) } }); const wt = structuredClone(ws, { transfer: [ws] });',
      'const w = wt.getWriter(); await w.write("x"); await w.write([1]); await w.close(); out.push(ws.locked, JSON.stringify(written));',
      'const ts = new TransformStream({ transform(c, ctl) { ctl.enqueue(c + "!") } }); const tt = structuredClone(ts, { transfer: [ts] });',
      'const tw = tt.writable.getWriter(); tw.write("a"); tw.close(); const tgot = []; for await (const x of tt.readable) tgot.push(x); out.push(tgot.join());',
      'let reason; const cs = new ReadableStream({ cancel(x) { reason = x } }); await structuredClone(cs, { transfer: [cs] }).cancel("why"); out.push(reason);',
      'const bad = new ReadableStream({ start(c) { c.enqueue(() => 1) } }); try { await structuredClone(bad, { transfer: [bad] }).getReader().read() } catch (e) { out.push(e.name) }',
      'console.log(out.join(" "));',
    ].join('\n')), 'true true ["a",{"x":1}] true DOMException:DataCloneError DOMException:DataCloneError true ["x",[1]] a! why DataCloneError\n');
  });
  g.test('Headers from a Headers with an @@iterator of its own iterates it; TextDecoderStream takes shared and detached chunks; compression refuses shared ones', async (ctx) => {
    assert.equal(await ctx.output([
      'const h = new Headers({ a: "1" }); h[Symbol.iterator] = function* () { yield ["test", "x"] };',
      'const copy = new Headers(h); console.log(copy.get("test"), copy.get("a"), new Headers(new Headers({ b: "2" })).get("b"));',
      'const dec = async (chunks) => { const out = []; const rs = new ReadableStream({ start(c) { for (const x of chunks) c.enqueue(x); c.close() } }).pipeThrough(new TextDecoderStream()); for await (const x of rs) out.push(x); return out.join("|") };',
      'const sab = new Uint8Array(new SharedArrayBuffer(3)); sab.set([0x41, 0x42, 0x43]);',
      'const b1 = new ArrayBuffer(3); const v1 = new Uint8Array(b1, 1, 1); b1.transfer(); const b2 = new ArrayBuffer(1); b2.transfer();',
      'console.log(await dec([sab]), await dec([sab.buffer]), JSON.stringify(await dec([v1, b2])), new TextDecoder().decode(sab.buffer));',
      'try { await dec([{}]) } catch (e) { console.log(e.name) }',
      'const cs = new CompressionStream("gzip"); const w = cs.writable.getWriter();',
      'const results = await Promise.allSettled([w.write(new Uint8Array(new SharedArrayBuffer(1))), cs.readable.getReader().read()]);',
      'console.log(results.map((x) => x.status + ":" + x.reason.name).join());',
    ].join('\n')), 'x null 2\nABC ABC "" ABC\nTypeError\nrejected:TypeError,rejected:TypeError\n');
  });
  g.test('URL: a query starting with a second "?" keeps it in searchParams; URLSearchParams iterates a script\'s own @@iterator; URL and URLSearchParams are not cloneable', async (ctx) => {
    assert.equal(await ctx.output([
      PROBE,
      'const u = new URL("http://example.org/file??a=b&c=d"); console.log(u.search, u.searchParams.toString(), u.searchParams.get("?a"));',
      'u.href = "http://example.org/file??x=1"; console.log(u.searchParams.toString());',
      'const p = new URLSearchParams("z=1"); p[Symbol.iterator] = function* () { yield ["a", "b"] }; const copy = new URLSearchParams(p);',
      'console.log(copy.toString(), new URLSearchParams(new URLSearchParams("q=1")).toString(), new URLSearchParams("?w=1").toString());',
      'console.log(r(() => structuredClone(new URL("about:blank"))), r(() => structuredClone(new URLSearchParams())));',
    ].join('\n')), '??a=b&c=d %3Fa=b&c=d b\n%3Fx=1\na=b q=1 w=1\nDOMException:DataCloneError DOMException:DataCloneError\n');
  });
  g.test('Blob.slice bounds are [Clamp] long longs; Blob and Body text() drop a UTF-8 byte order mark', async (ctx) => {
    assert.equal(await ctx.output([
      'const s = new Blob(["abcdef"]);',
      'console.log(await s.slice(2.5, 4.5).text(), await s.slice(3.5, 5.5).text(), await s.slice(-Infinity, -1.5).text(), await s.slice(1, 2 ** 70).text());',
      'const bom = new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]);',
      'console.log(JSON.stringify(await new Blob([bom]).text()), JSON.stringify(await new Response(bom).text()), JSON.stringify(await new Response(bom).json()), new TextDecoder().decode(bom).length, (await new Blob([bom]).arrayBuffer()).byteLength);',
    ].join('\n')), 'cd ef abcd bcdef\n"{}" "{}" {} 2 5\n');
  });
  g.test('crypto.subtle: data over a SharedArrayBuffer and a receiver that is not SubtleCrypto reject with TypeError', async (ctx) => {
    assert.equal(await ctx.output([
      'const st = async (p) => { try { const v = await p; return "AB" + v.byteLength } catch (e) { return e.constructor.name + ":" + e.name } };',
      'const d = new Uint8Array([1, 2, 3]);',
      'console.log(await st(crypto.subtle.digest("SHA-256", new Uint8Array(new SharedArrayBuffer(2)))), await st(SubtleCrypto.prototype.digest.call({}, "SHA-256", d)), await st(crypto.subtle.digest.call(crypto.subtle, "sha-1", d)));',
    ].join('\n')), 'TypeError:TypeError TypeError:TypeError AB20\n');
  });
  g.test('Event: isTrusted is an own unforgeable accessor shared by every event; initEvent needs its type; util.inspect shows an event as Node does', async (ctx) => {
    assert.equal(await ctx.output([
      PROBE,
      'const d1 = Object.getOwnPropertyDescriptor(new Event("x"), "isTrusted"); const d2 = Object.getOwnPropertyDescriptor(new CustomEvent("y"), "isTrusted");',
      'console.log(typeof d1.get, d1.get === d2.get, d1.enumerable, d1.configurable, "isTrusted" in Event.prototype, JSON.stringify(new Event("x")));',
      'console.log(r(() => new Event("x").initEvent()));',
      'const e = new Event("x", { cancelable: true }); console.log(require("util").inspect(e).replace(/timeStamp: [0-9.]+/, "timeStamp: T"));',
    ].join('\n')), [
      'function true true false false {"isTrusted":false}',
      'TypeError:TypeError',
      "Event {\n  type: 'x',\n  defaultPrevented: false,\n  cancelable: true,\n  timeStamp: T\n}",
      '',
    ].join('\n'));
  });
  // HTML's "report the exception": the global object is an event target whose `error` listeners
  // receive what a listener, a microtask callback or reportError() could not have caught.
  g.test('the global object is an EventTarget (this is globalThis); its error listeners take reported exceptions and the run goes on', async (ctx) => {
    assert.equal(await ctx.output([
      'const seen = []; const boom = new RangeError("boom");',
      'addEventListener("error", (e) => seen.push([e.constructor.name, e.type, e.message, e.error === boom, e.isTrusted, e.cancelable, e.target === globalThis].join()));',
      'const et = new EventTarget(); et.addEventListener("x", () => { throw boom }); et.addEventListener("x", () => seen.push("second"));',
      'et.dispatchEvent(new Event("x")); queueMicrotask(() => { throw boom }); await null; reportError(boom);',
      'et.addEventListener("y", { get handleEvent() { return 42 } }); et.dispatchEvent(new Event("y"));',
      'globalThis.addEventListener("z", function (e) { seen.push(String(this === globalThis && e.target === globalThis)) }); dispatchEvent(new Event("z"));',
      'console.log(seen.join("\\n"));',
      'const d = Object.getOwnPropertyDescriptor(globalThis, "addEventListener"); console.log(typeof d.value, d.enumerable, addEventListener.length, removeEventListener.length, dispatchEvent.length);',
    ].join('\n')), [
      'ErrorEvent,error,Uncaught RangeError: boom,true,true,true,true',
      'second',
      'ErrorEvent,error,Uncaught RangeError: boom,true,true,true,true',
      'ErrorEvent,error,Uncaught RangeError: boom,true,true,true,true',
      'ErrorEvent,error,Uncaught TypeError: \'handleEvent\' property of event listener should be a function,false,true,true,true',
      'true',
      'function false 2 2 1',
      '',
    ].join('\n'));
    // With no `error` listener on the global object (or one that throws), the run fails as before.
    const none = await ctx.run('const t = new EventTarget(); t.addEventListener("x", () => { throw new RangeError("boom") }); t.dispatchEvent(new Event("x"))');
    assert.equal(none.outcome.status, 'failed');
    assert.match(String(none.outcome.status === 'failed' ? none.outcome.error : ''), /^Uncaught RangeError: boom\n/);
    const nested = await ctx.run('addEventListener("error", () => { throw new TypeError("again") }); reportError(new RangeError("boom"))');
    assert.equal(nested.outcome.status, 'failed');
    assert.match(String(nested.outcome.status === 'failed' ? nested.outcome.error : ''), /^Uncaught TypeError: again\n/);
  });
  g.test('addEventListener: a signal that is not an AbortSignal throws before the callback is looked at', async (ctx) => {
    assert.equal(await ctx.output([
      PROBE,
      'const t = new EventTarget();',
      'console.log(r(() => t.addEventListener("x", null, { signal: null })), r(() => t.addEventListener("x", () => {}, { signal: 1 })), r(() => t.addEventListener("x", () => {}, { signal: undefined })));',
      'try { t.addEventListener("x", () => {}, { signal: {} }) } catch (e) { console.log(e.code, e.message) }',
    ].join('\n')), 'TypeError:TypeError TypeError:TypeError undefined\nERR_INVALID_ARG_TYPE The "options.signal" property must be an instance of AbortSignal. Received an instance of Object\n');
  });
  g.test('crypto.subtle.digest rejects an unknown algorithm name or a nameless one before any later microtask runs', async (ctx) => {
    assert.equal(await ctx.output([
      'const out = [];',
      'for (const alg of [{ name: "AES-GCM" }, "PBKDF2", {}, { name: "sHa-384" }]) {',
      '  let micro = false;',
      '  const p = crypto.subtle.digest(alg, new Uint8Array([1, 2, 3])).then((r) => `ok:${micro}:${r.byteLength}`, (e) => `${e.constructor.name}:${e.name}:${micro}:${e.message.slice(0, 28)}`);',
      '  Promise.resolve().then(() => { micro = true; });',
      '  out.push(await p);',
      '}',
      'console.log(out.join("\\n"));',
    ].join('\n')), [
      'DOMException:NotSupportedError:false:Unrecognized algorithm name',
      'DOMException:NotSupportedError:false:Unrecognized algorithm name',
      'TypeError:TypeError:false:Failed to normalize algorith',
      'ok:true:48',
      '',
    ].join('\n'));
  });

  g.test('pipeTo: an enqueue() that fulfils the pipe\'s pending read does not run the sink\'s write() inside it', async (ctx) => {
    assert.equal(await ctx.output([
      'let con; const events = [];',
      'const done = new ReadableStream({ start(c) { con = c; } }, { highWaterMark: 0 }).pipeTo(new WritableStream({ write(chunk) { events.push(`write:${chunk}`); } }));',
      'await Promise.resolve();',
      'con.enqueue("a"); events.push("enqueued"); con.close(); await done;',
      'console.log(events.join());',
    ].join('\n')), 'enqueued,write:a\n');
  });

  g.test('structuredClone: a stream listed after the TransformStream that owns it is a DataCloneError (it is locked by then)', async (ctx) => {
    assert.equal(await ctx.output([
      'const out = [];',
      'for (const pick of [(t) => [t, t.readable], (t) => [t.writable, t], (t) => [t, t.writable]]) {',
      '  const list = pick(new TransformStream());',
      '  try { structuredClone(list, { transfer: list }); out.push("cloned"); } catch (e) { out.push(`${e.constructor.name}:${e.name}:${e.message}`); }',
      '}',
      'console.log(out.join("\\n"));',
    ].join('\n')), [
      'DOMException:DataCloneError:Cannot transfer a locked ReadableStream',
      'DOMException:DataCloneError:Cannot transfer a locked TransformStream',
      'DOMException:DataCloneError:Cannot transfer a locked WritableStream',
      '',
    ].join('\n'));
  });

  g.test('structuredClone: a SharedArrayBuffer (growable too) and a view over one keep sharing its memory', async (ctx) => {
    assert.equal(await ctx.output([
      'const sab = new SharedArrayBuffer(16, { maxByteLength: 1024 });',
      'const c = structuredClone({ sab, view: new Uint8Array(sab, 4, 2) });',
      'c.view[0] = 7;',
      'console.log(Object.prototype.toString.call(c.sab), c.sab.growable, c.sab.maxByteLength, c.sab.byteLength, new Uint8Array(sab)[4], c.view.buffer === c.sab);',
    ].join('\n')), '[object SharedArrayBuffer] true 1024 16 7 true\n');
  });

  g.test('Response/Request: a stream body that was read from and released is refused (disturbed), as a locked one is', async (ctx) => {
    assert.equal(await ctx.output([
      'const s = new ReadableStream({ pull: (c) => c.enqueue(new Uint8Array([1])) }); const reader = s.getReader(); await reader.read(); reader.releaseLock();',
      'const out = [s.locked];',
      'for (const make of [() => new Response(s), () => new Request("https://example.com/", { method: "POST", body: s, duplex: "half" })]) { try { make(); out.push("made"); } catch (e) { out.push(`${e.name}: ${e.message}`); } }',
      'out.push(new Response(new ReadableStream()).bodyUsed);',
      'console.log(out.join("\\n"));',
    ].join('\n')), [
      'false',
      'TypeError: Response body object should not be disturbed or locked',
      'TypeError: Response body object should not be disturbed or locked',
      'false',
      '',
    ].join('\n'));
  });

  g.test('structuredClone: a length-tracking DataView keeps tracking its resizable buffer, a fixed one keeps its length (also at the maximum size)', async (ctx) => {
    assert.equal(await ctx.output([
      'const out = [];',
      'for (const max of [1024, 16]) {',
      '  const ab = new ArrayBuffer(16, { maxByteLength: max }); new Uint8Array(ab)[15] = 9;',
      '  const c = structuredClone({ fixed: new DataView(ab, 4, 12), track: new DataView(ab, 4), u: new Uint8Array(ab, 2) });',
      '  const fixedLength = c.fixed.byteLength; c.track.buffer.resize(8);',
      '  out.push([c.track.byteLength, c.u.length, fixedLength, new Uint8Array(ab)[15], ab.byteLength, c.fixed.buffer === c.track.buffer].join("/"));',
      '}',
      'console.log(out.join(" "));',
    ].join('\n')), '4/6/12/9/16/true 4/6/12/9/16/true\n');
  });
  g.test('crypto.subtle: algorithm members out of WebIDL range are TypeErrors with Node\'s codes; HKDF/PBKDF2 keys are not exportable before not extractable', async (ctx) => {
    assert.equal(await ctx.output([
      'const s = crypto.subtle; const st = async (p) => { try { await p; return "ok" } catch (e) { return [e.constructor.name, e.name, e.code ?? "-"].join(":") } };',
      'console.log(await st(s.generateKey({ name: "AES-CBC", length: 2 ** 32 + 128 }, false, ["encrypt"])), await st(s.generateKey({ name: "HMAC", hash: "SHA-256", length: 128 - 2 ** 32 }, false, ["sign"])), await st(s.generateKey({ name: "AES-CBC", length: 64 }, false, ["encrypt"])));',
      'console.log(await st(s.generateKey({ name: "RSA-PSS", hash: "SHA-256", modulusLength: 1024 + 2 ** 32, publicExponent: new Uint8Array([1, 0, 1]) }, false, ["sign"])), await st(s.generateKey({}, false, [])));',
      'try { await s.digest("SHA-256", "str") } catch (e) { console.log(e.code, e.message) }',
      'const hkdf = await s.importKey("raw", new Uint8Array([]), "HKDF", false, ["deriveBits"]); const pbkdf2 = await s.importKey("raw", new Uint8Array([]), "PBKDF2", false, ["deriveBits"]);',
      'const kw = await s.importKey("raw", new Uint8Array(16), "AES-KW", false, ["wrapKey"]); const aes = await s.importKey("raw", new Uint8Array(16), "AES-CBC", false, ["encrypt"]);',
      'for (const p of [s.exportKey("raw", hkdf), s.wrapKey("raw", pbkdf2, kw, "AES-KW"), s.exportKey("jwk", aes), s.wrapKey("raw", aes, kw, "AES-KW")]) { try { await p } catch (e) { console.log(e.name, e.message) } }',
    ].join('\n')), [
      'TypeError:TypeError:ERR_OUT_OF_RANGE TypeError:TypeError:ERR_OUT_OF_RANGE DOMException:OperationError:0',
      'TypeError:TypeError:ERR_OUT_OF_RANGE TypeError:TypeError:ERR_MISSING_OPTION',
      "ERR_INVALID_ARG_TYPE Failed to execute 'digest' on 'SubtleCrypto': 2nd argument is not instance of ArrayBuffer, Buffer, TypedArray, or DataView.",
      'NotSupportedError HKDF key export is not supported',
      'NotSupportedError PBKDF2 key export is not supported',
      'InvalidAccessError key is not extractable',
      'InvalidAccessError key is not extractable',
      '',
    ].join('\n'));
  });
  g.test('crypto.subtle.deriveKey: a base key with only the deriveKey usage, the derived type\'s key length (AES sizes, HMAC block size, none for HKDF/PBKDF2); derivation keys are never extractable', async (ctx) => {
    assert.equal(await ctx.output([
      'const s = crypto.subtle; const st = async (p) => { try { const k = await p; return JSON.stringify(k.algorithm) } catch (e) { return e.name + ": " + e.message } };',
      'const ec = await s.generateKey({ name: "ECDH", namedCurve: "P-256" }, false, ["deriveKey"]); const x = await s.generateKey({ name: "X25519" }, false, ["deriveKey"]);',
      'console.log(await st(s.deriveKey({ name: "ECDH", public: ec.publicKey }, ec.privateKey, "HKDF", false, ["deriveBits"])), await st(s.deriveKey({ name: "X25519", public: x.publicKey }, x.privateKey, { name: "AES-GCM", length: 128 }, false, ["encrypt"])));',
      'const pb = await s.importKey("raw", new Uint8Array(8), "PBKDF2", false, ["deriveKey"]); const P = { name: "PBKDF2", salt: new Uint8Array(4), iterations: 1, hash: "SHA-256" };',
      'for (const d of ["HKDF", { name: "AES-CBC", length: 100 }, { name: "Ed25519" }, { name: "HMAC", hash: "sha-512" }]) console.log(await st(s.deriveKey(P, pb, d, false, ["sign"])));',
      'console.log(await st(s.importKey("raw", new Uint8Array(8), "hkdf", true, ["sign"])), await st(s.importKey("jwk", { kty: "oct", k: "AAAA" }, "PBKDF2", true, ["deriveBits"])));',
    ].join('\n')), [
      '{"name":"HKDF"} {"name":"AES-GCM","length":128}',
      'OperationError: length cannot be null',
      'OperationError: AES key length must be 128, 192, or 256 bits',
      'NotSupportedError: Unrecognized algorithm name',
      '{"name":"HMAC","length":1024,"hash":{"name":"SHA-512"}}',
      'SyntaxError: HKDF keys are not extractable SyntaxError: PBKDF2 keys are not extractable',
      '',
    ].join('\n'));
  });
  g.test('TextEncoder/TextDecoder refuse receivers that are not theirs (ERR_INVALID_THIS), decode() checks its options and words bad input per decoder as Node does; stream getters brand-check', async (ctx) => {
    assert.equal(await ctx.output([
      'const e = (f) => { try { return String(f()) } catch (x) { return `${x.code}: ${x.message}` } };',
      'console.log(e(() => TextEncoder.prototype.encode.call({}, "a")), "|", e(() => Object.getOwnPropertyDescriptor(TextDecoder.prototype, "fatal").get.call(new TextEncoder())));',
      'for (const enc of ["utf-8", "latin1", "utf-16le"]) console.log(e(() => new TextDecoder(enc).decode("abc")));',
      'console.log(e(() => new TextDecoder().decode(new Uint8Array([65]), 5)), "|", e(() => new TextDecoder().decode(new Uint8Array([65]), null)), "|", e(() => new TextDecoder("iso-2022-kr")));',
      'console.log(e(() => Object.getOwnPropertyDescriptor(TextEncoderStream.prototype, "encoding").get.call({})), "|", e(() => Object.getOwnPropertyDescriptor(CompressionStream.prototype, "readable").get.call({})));',
    ].join('\n')), [
      'ERR_INVALID_THIS: Value of "this" must be of type TextEncoder | ERR_INVALID_THIS: Value of "this" must be of type TextDecoder',
      'ERR_INVALID_ARG_TYPE: The "list" argument must be an instance of SharedArrayBuffer, ArrayBuffer or ArrayBufferView.',
      'ERR_INVALID_ARG_TYPE: The "input" argument must be an instance of ArrayBuffer or ArrayBufferView. Received type string (\'abc\')',
      'ERR_INVALID_ARG_TYPE: The "input" argument must be an instance of SharedArrayBuffer, ArrayBuffer or ArrayBufferView.',
      'ERR_INVALID_ARG_TYPE: The "options" argument must be of type object. Received type number (5) | A | ERR_ENCODING_NOT_SUPPORTED: The "replacement" encoding is not supported',
      'undefined: Cannot read private member #handle from an object whose class did not declare it | undefined: Cannot read private member #transform from an object whose class did not declare it',
      '',
    ].join('\n'));
  });
  g.test('crypto.subtle methods reject too few arguments (ERR_MISSING_ARGS) and usages that are not a sequence; getRandomValues() needs its argument', async (ctx) => {
    assert.equal(await ctx.output([
      'const s = crypto.subtle; const st = async (p) => { try { await p; return "ok" } catch (e) { return `${e.constructor.name} ${e.code}: ${e.message}` } };',
      'console.log(await st(s.digest()), "|", await st(s.unwrapKey("raw", new Uint8Array(8), undefined, "AES-KW", "AES-GCM", true)));',
      'console.log(await st(s.generateKey({ name: "AES-CBC", length: 128 }, true, 5)), "|", await st(s.importKey("raw", new Uint8Array(16), "AES-CBC", true, "encrypt")));',
      'try { crypto.getRandomValues() } catch (e) { console.log(e.code, e.message) }',
      'for (const f of [() => Object.getOwnPropertyDescriptor(Crypto.prototype, "subtle").get.call({}), () => Crypto.prototype.randomUUID.call({}), () => new Crypto()]) { try { f() } catch (e) { console.log(e.code, e.message) } }',
    ].join('\n')), [
      "TypeError ERR_MISSING_ARGS: Failed to execute 'digest' on 'SubtleCrypto': 2 arguments required, but only 0 present. | TypeError ERR_MISSING_ARGS: Failed to execute 'unwrapKey' on 'SubtleCrypto': 7 arguments required, but only 6 present.",
      "TypeError ERR_INVALID_ARG_TYPE: Failed to execute 'generateKey' on 'SubtleCrypto': 3rd argument cannot be converted to sequence. | TypeError ERR_INVALID_ARG_TYPE: Failed to execute 'importKey' on 'SubtleCrypto': 5th argument cannot be converted to sequence.",
      "ERR_MISSING_ARGS Failed to execute 'getRandomValues' on 'Crypto': 1 argument required, but only 0 present.",
      'ERR_INVALID_THIS Value of "this" must be of type Crypto',
      'ERR_INVALID_THIS Value of "this" must be of type Crypto',
      'ERR_ILLEGAL_CONSTRUCTOR Illegal constructor',
      '',
    ].join('\n'));
  });
  g.test('URL: parses of (input, base) pairs that differ only in where a NUL sits are not mixed up by the parse cache', async (ctx) => {
    assert.equal(await ctx.output([
      'console.log(new URL("y", "http://a/\\u0000x").href, new URL("x\\u0000y", "http://a/").href, URL.canParse("x\\u0000y", "http://a/"));',
    ].join('\n')), 'http://a/y http://a/x%00y true\n');
  });
  g.test('TextDecoder iso-2022-jp: the escape-sequence state machine of the Encoding Standard, kept across streamed chunks', async (ctx) => {
    assert.equal(await ctx.output([
      'const d = (bytes, fatal = false) => { try { return JSON.stringify(new TextDecoder("iso-2022-jp", { fatal }).decode(new Uint8Array(bytes))) } catch (e) { return e.code } };',
      'console.log(d([0x1b, 0x24]), d([0x50, 0x1b, 0x24]), d([0x1b, 0x28, 0x49, 0x0d, 0x0e, 0x0f, 0x10]), d([0x1b, 0x24, 0x40, 0x1b, 0x24, 0x40]), d([0x1b, 0x28, 0x42, 0x1b, 0x28, 0x42, 0x50]));',
      'console.log(d([0x1b, 0x28, 0x4a, 0x5c, 0x7e]), d([0x1b, 0x28, 0x49, 0x31]), d([0x1b, 0x24, 0x42, 0x30, 0x21, 0x1b, 0x28, 0x42, 0x41]), d([0x1b, 0x24, 0x42, 0x30, 0x1b]), d([0x1b, 0x24], true));',
      'const td = new TextDecoder("iso-2022-jp"); let s = ""; for (const b of [0x1b, 0x24, 0x42, 0x30, 0x21, 0x30, 0x22, 0x1b, 0x28, 0x42, 0x41]) s += td.decode(new Uint8Array([b]), { stream: true }); console.log(JSON.stringify(s + td.decode()));',
    ].join('\n')), [
      '"\uFFFD$" "P\uFFFD$" "\uFFFD\uFFFD\uFFFD\uFFFD" "\uFFFD" "\uFFFDP"',
      '"¥‾" "ｱ" "亜A" "\uFFFD\uFFFD" ERR_ENCODING_INVALID_ENCODED_DATA',
      '"亜唖A"',
      '',
    ].join('\n'));
  });
  g.test('util.inspect shows TextEncoder, TextDecoder (and a subclass) and CryptoKey as Node does', async (ctx) => {
    assert.equal(await ctx.output([
      'import util from "node:util";',
      'class D extends TextDecoder {}',
      'console.log(util.inspect(new TextEncoder()), "|", util.inspect(new TextDecoder("latin1", { fatal: true })), "|", util.inspect(new D("utf-16be", { ignoreBOM: true })));',
      'console.log(Object.getOwnPropertyNames(TextDecoder.prototype).join(), Object.getOwnPropertyNames(Crypto.prototype).join());',
      'const key = await crypto.subtle.importKey("raw", new Uint8Array(16), "AES-GCM", true, ["encrypt"]); console.log(util.inspect(key, { breakLength: Infinity }), "|", util.inspect({ key }, { depth: 0 }));',
    ].join('\n')), [
      "{ encoding: 'utf-8' } | TextDecoder { encoding: 'windows-1252', fatal: true, ignoreBOM: false } | D { encoding: 'utf-16be', fatal: false, ignoreBOM: true }",
      'constructor,decode,encoding,fatal,ignoreBOM constructor,subtle,getRandomValues,randomUUID',
      "CryptoKey { type: 'secret', extractable: true, algorithm: { name: 'AES-GCM', length: 128 }, usages: [ 'encrypt' ] } | { key: CryptoKey {} }",
      '',
    ].join('\n'));
  });
  g.test('util.inspect shows web streams as Node does (state, not the implementation\'s fields)', async (ctx) => {
    assert.equal(await ctx.output([
      'import util from "node:util";',
      'const rs = new ReadableStream({ type: "bytes" }); rs.getReader(); const ws = new WritableStream(); await ws.close();',
      'const o = { breakLength: Infinity };',
      'console.log(util.inspect([rs, new ReadableStream({ start(c) { c.error(new Error("x")) } }), ws], o));',
      'console.log(util.inspect(new TransformStream(), o));',
      'console.log(util.inspect(new TextDecoderStream("latin1"), o), "|", util.inspect(new CompressionStream("gzip"), { depth: 0, breakLength: Infinity }));',
    ].join('\n')), [
      "[ ReadableStream { locked: true, state: 'readable', supportsBYOB: true }, ReadableStream { locked: false, state: 'errored', supportsBYOB: false }, WritableStream { locked: false, state: 'closed' } ]",
      "TransformStream { readable: ReadableStream { locked: false, state: 'readable', supportsBYOB: false }, writable: WritableStream { locked: false, state: 'writable' }, backpressure: true }",
      "TextDecoderStream { encoding: 'windows-1252', fatal: false, ignoreBOM: false, readable: ReadableStream { locked: false, state: 'readable', supportsBYOB: false }, writable: WritableStream { locked: false, state: 'writable' } } | CompressionStream [Object]",
      '',
    ].join('\n'));
  });
  g.test('util.inspect shows Blob, File, AbortSignal and AbortController as Node does', async (ctx) => {
    assert.equal(await ctx.output([
      'import util from "node:util";',
      'const o = { breakLength: Infinity };',
      'console.log(util.inspect(new Blob(["ab"], { type: "text/plain" }), o), "|", util.inspect(new File(["x"], "f.txt", { lastModified: 42 }), o));',
      'console.log(util.inspect(new AbortController(), o), "|", util.inspect(AbortSignal.abort(), o));',
    ].join('\n')), [
      "Blob { size: 2, type: 'text/plain' } | File { size: 1, type: '', name: 'f.txt', lastModified: 42 }",
      'AbortController { signal: AbortSignal { aborted: false } } | AbortSignal { aborted: true }',
      '',
    ].join('\n'));
  });
  g.test('crypto, navigator and performance are enumerable accessors of the global as in Node (crypto\'s getter checks its receiver); the globals Node lists in Object.keys are enumerable', async (ctx) => {
    assert.equal(await ctx.output([
      'const d = (k) => { const x = Object.getOwnPropertyDescriptor(globalThis, k); return [typeof x.get, x.get.name, typeof x.set, x.enumerable, x.configurable].join(); };',
      'console.log(d("crypto"), "|", d("navigator"), "|", d("performance"));',
      'console.log(Object.keys(globalThis).filter((k) => ["crypto", "navigator", "performance", "atob", "btoa", "fetch", "global", "queueMicrotask", "structuredClone", "setImmediate", "clearImmediate", "URL", "self", "Buffer"].includes(k)).sort().join());',
      'const get = Object.getOwnPropertyDescriptor(globalThis, "crypto").get;',
      'try { get.call({}); } catch (e) { console.log(e.name, e.code, e.message); }',
      'console.log(get.call(undefined) === crypto, get.call(globalThis) === crypto, Object.getOwnPropertyDescriptor(globalThis, "navigator").get.call({}) === navigator);',
      'let threw = false; try { globalThis.crypto = 1; } catch (e) { threw = e instanceof TypeError; } console.log(threw, typeof crypto.getRandomValues);',
      'globalThis.performance = 5; console.log(JSON.stringify(Object.getOwnPropertyDescriptor(globalThis, "performance")));',
    ].join('\n')), [
      'function,get crypto,undefined,true,true | function,get navigator,undefined,true,true | function,get performance,function,true,true',
      'atob,btoa,clearImmediate,crypto,fetch,global,navigator,performance,queueMicrotask,setImmediate,structuredClone',
      'TypeError ERR_INVALID_THIS Value of "this" must be of type nullish or must be the global object',
      'true true true',
      'true function',
      '{"value":5,"writable":true,"enumerable":true,"configurable":true}',
      '',
    ].join('\n'));
  });
  g.test('new new F(a)() constructs what new F(a) returns, also after the transpiler (QuickJS parsed it as new (new F(a)()))', async (ctx) => {
    assert.equal(await ctx.output([
      'class K { constructor() { this.k = 1; } }',
      'function Outer(a) { return class { constructor() { this.made = a; } }; }',
      'const isConstructor = (o) => { try { new (new Proxy(o, { construct: () => ({}) })); return true; } catch { return false; } };',
      'const viaTrap = new (new Proxy(K, { construct: () => ({ viaTrap: 1 }) }))();',
      'console.log(JSON.stringify([viaTrap, new new Outer(7)(), isConstructor(K), isConstructor(URL), isConstructor(() => 0)]));',
      'const typed: number = 1; console.log(typed);',
    ].join('\n')), [
      '[{"viaTrap":1},{"made":7},true,true,false]',
      '1',
      '',
    ].join('\n'));
  });
  g.test('promise jobs wait for the synchronous code that first uses a web global or requires a builtin module (V8 loaded its part on the host mid-run, which drained them)', async (ctx) => {
    assert.equal(await ctx.output([
      'const log = [];',
      'Promise.resolve().then(() => log.push("job"));',
      'log.push("a"); new URLSearchParams("a=b"); log.push("b"); new TextEncoder(); new Blob(["x"]); log.push("c");',
      'const h = new Headers(); structuredClone(1); new ReadableStream(); Buffer.from("x"); void crypto.subtle; console.count("k"); require("node:util"); require("querystring"); log.push("d");',
      'console.log(log.join());',
      'await null;',
      'console.log(log.join());',
      'let ran = false; Promise.resolve().then(() => { ran = true; }); const G = globalThis["Compression" + "Stream"]; console.log(typeof G, ran);',
    ].join('\n')), [
      'k: 1',
      'a,b,c,d',
      'a,b,c,d,job',
      'function false',
      '',
    ].join('\n'));
  });
});
