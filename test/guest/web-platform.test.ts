// Web globals (issue 7): events, AbortController/AbortSignal, DOMException, structuredClone,
// queueMicrotask, performance, navigator, self, crypto (random values and subtle).
import assert from 'node:assert/strict';
import { guestSuite } from '../helpers/both-engines.ts';

guestSuite('web platform globals', (g) => {
  g.test('Event, CustomEvent and EventTarget: listeners, options, once, signal, handleEvent, stopImmediatePropagation', async (ctx) => {
    assert.equal(await ctx.output([
      'const t = new EventTarget(); const log = [];',
      'const ac = new AbortController();',
      't.addEventListener("x", (e) => log.push("a:" + e.type + ":" + (e.target === t) + ":" + e.eventPhase));',
      't.addEventListener("x", { handleEvent(e) { log.push("b:" + (e.currentTarget === t)) } });',
      't.addEventListener("x", () => log.push("once"), { once: true });',
      't.addEventListener("x", () => log.push("signal"), { signal: ac.signal });',
      'console.log(t.dispatchEvent(new Event("x")), log.join(" ")); log.length = 0; ac.abort();',
      't.dispatchEvent(new Event("x")); console.log(log.join(" ")); log.length = 0;',
      'const stop = new EventTarget(); stop.addEventListener("y", (e) => { e.stopImmediatePropagation(); log.push(1) }); stop.addEventListener("y", () => log.push(2));',
      'stop.dispatchEvent(new Event("y")); console.log(log.join());',
      'const c = new CustomEvent("c", { detail: { n: 1 }, cancelable: true }); const ct = new EventTarget();',
      'ct.addEventListener("c", (e) => e.preventDefault()); console.log(ct.dispatchEvent(c), c.defaultPrevented, c.detail.n, c instanceof Event);',
      'const pass = new Event("p", { cancelable: true }); const pt = new EventTarget(); pt.addEventListener("p", (e) => e.preventDefault(), { passive: true }); console.log(pt.dispatchEvent(pass));',
      'try { new Event() } catch (e) { console.log(e.name) }',
      'console.log(Event.AT_TARGET, new Event("z").eventPhase, new Event("z").isTrusted, typeof new Event("z").timeStamp);',
    ].join('\n')), [
      'true a:x:true:2 b:true once signal',
      'a:x:true:2 b:true',
      '1',
      'false true 1 true',
      'true',
      'TypeError',
      '2 0 false number',
      '',
    ].join('\n'));
  });

  g.test('an exception in a listener ends the run as uncaught, as in Node', async (ctx) => {
    const res = await ctx.run('const t = new EventTarget(); t.addEventListener("x", () => { throw new RangeError("boom") }); t.dispatchEvent(new Event("x")); console.log("after")');
    assert.equal(res.outcome.status, 'failed');
    assert.match(res.outcome.status === 'failed' ? res.outcome.error : '', /^Uncaught RangeError: boom/);
  });

  g.test('AbortController, AbortSignal.abort/timeout/any, throwIfAborted, DOMException', async (ctx) => {
    assert.equal(await ctx.output([
      'const ac = new AbortController(); const s = ac.signal; let fired = 0; s.onabort = () => fired++; s.addEventListener("abort", () => fired++);',
      'ac.abort(); ac.abort(); console.log(s.aborted, fired, s.reason instanceof DOMException, s.reason.name, s.reason.message, s.reason.code);',
      'try { s.throwIfAborted() } catch (e) { console.log("threw", e.name) }',
      'const custom = AbortSignal.abort("why"); console.log(custom.aborted, custom.reason);',
      'const t = AbortSignal.timeout(5); await new Promise((r) => t.addEventListener("abort", r)); console.log(t.reason.name, t.reason.message);',
      'const a = new AbortController(); const b = new AbortController(); const any = AbortSignal.any([a.signal, b.signal]);',
      'any.onabort = () => console.log("any aborted", any.reason); b.abort("B"); a.abort("A");',
      'console.log(AbortSignal.any([AbortSignal.abort(1)]).reason);',
      'try { new AbortSignal() } catch (e) { console.log(e.name) }',
      'const d = new DOMException("m", "DataCloneError"); console.log(d.name, d.message, d.code, d instanceof Error, DOMException.ABORT_ERR, Object.prototype.toString.call(d));',
      'const unused = AbortSignal.timeout(60000); console.log("pending timeout does not keep the run alive", unused.aborted);',
    ].join('\n')), [
      'true 2 true AbortError This operation was aborted 20',
      'threw AbortError',
      'true why',
      'TimeoutError The operation was aborted due to timeout',
      'any aborted B',
      '1',
      'TypeError',
      'DataCloneError m 25 true 20 [object DOMException]',
      'pending timeout does not keep the run alive false',
      '',
    ].join('\n'));
  });

  g.test('structuredClone: graphs, types, transfer, and DataCloneError', async (ctx) => {
    assert.equal(await ctx.output([
      'const o = { d: new Date(0), r: /x/gi, m: new Map([[1, new Set(["a"])]]), u8: new Uint8Array([1, 2]), big: 10n, n: new Number(3), e: new RangeError("bad") };',
      'o.self = o; const c = structuredClone(o);',
      'console.log(c !== o, c.self === c, c.d.getTime(), c.r.flags, c.m.get(1).has("a"), c.u8[1], c.big, typeof c.n, c.e instanceof RangeError, c.e.message);',
      'class K { constructor() { this.v = 1 } } const k = structuredClone(new K()); console.log(k instanceof K, k.v);',
      'const buf = new ArrayBuffer(4); const moved = structuredClone(buf, { transfer: [buf] }); console.log(moved.byteLength, buf.byteLength);',
      'for (const bad of [() => 1, Symbol("s"), new WeakMap(), Promise.resolve()]) { try { structuredClone(bad) } catch (e) { console.log(e.name, e instanceof DOMException) } }',
      'const b = structuredClone(new Blob(["hi"], { type: "text/plain" })); console.log(b.type, await b.text());',
    ].join('\n')), [
      'true true 0 gi true 2 10n object true bad',
      'false 1',
      '4 0',
      'DataCloneError true', 'DataCloneError true', 'DataCloneError true', 'DataCloneError true',
      'text/plain hi',
      '',
    ].join('\n'));
  });

  g.test('queueMicrotask, setImmediate, performance, navigator, self, global, reportError', async (ctx) => {
    assert.equal(await ctx.output([
      'const order = []; setTimeout(() => order.push("timeout"), 0); setImmediate(() => order.push("immediate")); queueMicrotask(() => order.push("micro")); Promise.resolve().then(() => order.push("promise"));',
      'order.push("sync"); await new Promise((r) => setTimeout(r, 10)); console.log(order.join());',
      'const id = setImmediate(() => console.log("never")); clearImmediate(id);',
      'const t0 = performance.now(); await new Promise((r) => setTimeout(r, 20)); const dt = performance.now() - t0; console.log(dt >= 15 && dt < 1000, performance.timeOrigin > 1.6e12, typeof performance.toJSON().timeOrigin);',
      'performance.mark("a"); performance.mark("b"); const m = performance.measure("ab", "a", "b"); console.log(m.entryType, m.duration >= 0, performance.getEntriesByType("mark").length);',
      'console.log(navigator.userAgent, navigator.language, navigator.hardwareConcurrency, self === globalThis, global === globalThis);',
      'try { queueMicrotask(1) } catch (e) { console.log(e.name) }',
    ].join('\n')), [
      'sync,micro,promise,timeout,immediate',
      'true true number',
      'measure true 2',
      'runjs/0.1.0 en-US 1 true true',
      'TypeError',
      '',
    ].join('\n'));
  });

  g.test('crypto: getRandomValues, randomUUID, subtle.digest and HMAC, plus AES-GCM, ECDSA, PBKDF2 and key export', async (ctx) => {
    assert.equal(await ctx.output([
      'const a = crypto.getRandomValues(new Uint32Array(4)); console.log(a.length, a.some((x) => x !== 0));',
      'try { crypto.getRandomValues(new Float32Array(1)) } catch (e) { console.log(e.name) } try { crypto.getRandomValues(new Uint8Array(65537)) } catch (e) { console.log(e.name) }',
      'console.log(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(crypto.randomUUID()), crypto.randomUUID() !== crypto.randomUUID());',
      'const hex = (b) => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, "0")).join("");',
      'const enc = new TextEncoder();',
      'for (const alg of ["SHA-1", "SHA-256", "SHA-384", "SHA-512"]) console.log(alg, hex(await crypto.subtle.digest(alg, enc.encode("abc"))).slice(0, 16));',
      'const key = await crypto.subtle.importKey("raw", enc.encode("key"), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);',
      'const sig = await crypto.subtle.sign("HMAC", key, enc.encode("The quick brown fox jumps over the lazy dog"));',
      'console.log(hex(sig), await crypto.subtle.verify("HMAC", key, sig, enc.encode("x")), key.type, key.extractable, key.usages.join());',
      'try { await crypto.subtle.exportKey("raw", key) } catch (e) { console.log(e.name) }',
      'const aes = await crypto.subtle.importKey("raw", new Uint8Array(16), "AES-GCM", true, ["encrypt", "decrypt"]);',
      'const ct = await crypto.subtle.encrypt({ name: "AES-GCM", iv: new Uint8Array(12) }, aes, enc.encode("hi"));',
      'console.log(hex(ct), new TextDecoder().decode(await crypto.subtle.decrypt({ name: "AES-GCM", iv: new Uint8Array(12) }, aes, ct)));',
      'const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);',
      'const es = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, pair.privateKey, enc.encode("m"));',
      'console.log(pair.publicKey.type, await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, pair.publicKey, es, enc.encode("m")), (await crypto.subtle.exportKey("jwk", pair.publicKey)).crv);',
      'const base = await crypto.subtle.importKey("raw", enc.encode("password"), "PBKDF2", false, ["deriveBits"]);',
      'console.log(hex(await crypto.subtle.deriveBits({ name: "PBKDF2", salt: enc.encode("salt"), iterations: 1, hash: "SHA-1" }, base, 160)));',
      'try { await crypto.subtle.digest("MD5", enc.encode("x")) } catch (e) { console.log(e instanceof DOMException, e.name) }',
      'console.log(Object.prototype.toString.call(crypto.subtle), crypto.subtle instanceof SubtleCrypto, key instanceof CryptoKey);',
    ].join('\n')), [
      '4 true',
      'TypeMismatchError', 'QuotaExceededError',
      'true true',
      'SHA-1 a9993e364706816a', 'SHA-256 ba7816bf8f01cfea', 'SHA-384 cb00753f45a35e8b', 'SHA-512 ddaf35a193617aba',
      'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8 false secret false sign,verify',
      'InvalidAccessError',
      '6be1e33a8eca511a295273c9ded20879c6d8 hi',
      'public true P-256',
      '0c60c80f961f0e71f3a9b524af6012062fe037a6',
      'true NotSupportedError',
      '[object SubtleCrypto] true true',
      '',
    ].join('\n'));
  });

  g.test('crypto.subtle goes past digest and HMAC: RSA-OAEP, RSA-PSS, Ed25519, ECDH, X25519, HKDF deriveKey, AES-KW wrap/unwrap', async (ctx) => {
    assert.equal(await ctx.output([
      'const enc = new TextEncoder(); const s = crypto.subtle;',
      'const rsa = await s.generateKey({ name: "RSA-OAEP", modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }, true, ["encrypt", "decrypt"]);',
      'console.log(new TextDecoder().decode(await s.decrypt({ name: "RSA-OAEP" }, rsa.privateKey, await s.encrypt({ name: "RSA-OAEP" }, rsa.publicKey, enc.encode("rsa")))), Array.from(rsa.publicKey.algorithm.publicExponent).join());',
      'const pss = await s.generateKey({ name: "RSA-PSS", modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }, true, ["sign", "verify"]);',
      'const pub = await s.importKey("spki", await s.exportKey("spki", pss.publicKey), { name: "RSA-PSS", hash: "SHA-256" }, true, ["verify"]);',
      'console.log("pss", await s.verify({ name: "RSA-PSS", saltLength: 32 }, pub, await s.sign({ name: "RSA-PSS", saltLength: 32 }, pss.privateKey, enc.encode("x")), enc.encode("x")));',
      'const ed = await s.generateKey({ name: "Ed25519" }, true, ["sign", "verify"]); console.log("ed25519", await s.verify("Ed25519", ed.publicKey, await s.sign("Ed25519", ed.privateKey, enc.encode("m")), enc.encode("m")));',
      'const a = await s.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]); const b = await s.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);',
      'const ab = new Uint8Array(await s.deriveBits({ name: "ECDH", public: b.publicKey }, a.privateKey, 256)); const ba = new Uint8Array(await s.deriveBits({ name: "ECDH", public: a.publicKey }, b.privateKey, 256)); console.log("ecdh", ab.join() === ba.join());',
      'const x = await s.generateKey({ name: "X25519" }, true, ["deriveBits"]); console.log("x25519", (await s.deriveBits({ name: "X25519", public: x.publicKey }, x.privateKey, 256)).byteLength);',
      'const ikm = await s.importKey("raw", enc.encode("ikm"), "HKDF", false, ["deriveKey"]);',
      'const derived = await s.deriveKey({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(8), info: new Uint8Array(0) }, ikm, { name: "AES-GCM", length: 128 }, true, ["encrypt"]); console.log("hkdf", derived.algorithm.name, derived.algorithm.length);',
      'const kw = await s.generateKey({ name: "AES-KW", length: 128 }, true, ["wrapKey", "unwrapKey"]); const wrapped = await s.wrapKey("raw", derived, kw, "AES-KW");',
      'const back = await s.unwrapKey("raw", wrapped, kw, "AES-KW", "AES-GCM", true, ["encrypt"]); console.log("kw", wrapped.byteLength, new Uint8Array(await s.exportKey("raw", back)).join() === new Uint8Array(await s.exportKey("raw", derived)).join());',
    ].join('\n')), 'rsa 1,0,1\npss true\ned25519 true\necdh true\nx25519 32\nhkdf AES-GCM 128\nkw 24 true\n');
  });
  g.test('MessageEvent, ErrorEvent, CloseEvent and PromiseRejectionEvent construct and dispatch', async (ctx) => {
    assert.equal(await ctx.output([
      'const t = new EventTarget(); t.addEventListener("message", (e) => console.log(e.type, e.data.x, e.origin, e.ports.length, e instanceof Event, Object.prototype.toString.call(e)));',
      't.dispatchEvent(new MessageEvent("message", { data: { x: 1 }, origin: "o" }));',
      'const er = new ErrorEvent("error", { message: "m", lineno: 3, error: new Error("x") }); console.log(er.message, er.lineno, er.colno, er.error.message, er.filename === "");',
      'const c = new CloseEvent("close", { code: 1000, reason: "bye", wasClean: true }); console.log(c.code, c.reason, c.wasClean);',
      'const p = Promise.resolve(1); const pr = new PromiseRejectionEvent("unhandledrejection", { promise: p, reason: "r" }); console.log(pr.promise === p, pr.reason);',
      'try { new PromiseRejectionEvent("x", {}) } catch (e) { console.log(e.name) }',
      'console.log(MessageEvent.name, Object.getOwnPropertyDescriptor(globalThis, "ErrorEvent").enumerable);',
    ].join('\n')), 'message 1 o 0 true [object MessageEvent]\nm 3 0 x true\n1000 bye true\ntrue r\nTypeError\nMessageEvent false\n');
  });
  g.test('argument errors carry Node\'s codes and texts (queueMicrotask, atob, btoa, structuredClone)', async (ctx) => {
    assert.equal(await ctx.output('for (const f of [() => queueMicrotask(1), () => atob(), () => btoa(), () => structuredClone()]) { try { f() } catch (e) { console.log(e.name, e.code, e.message) } }'), [
      'TypeError ERR_INVALID_ARG_TYPE The "callback" argument must be of type function. Received type number (1)',
      'TypeError ERR_MISSING_ARGS The "input" argument must be specified',
      'TypeError ERR_MISSING_ARGS The "input" argument must be specified',
      'TypeError ERR_MISSING_ARGS The "The value argument must be specified" argument must be specified',
      '',
    ].join('\n'));
  });
});
