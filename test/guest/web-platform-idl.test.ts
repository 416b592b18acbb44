// WPT-style checks (issue 20, round 3) of WebIDL shapes and QuotaExceededError: what idlharness
// and WebCryptoAPI/getRandomValues.any.js assert, written here in our own words. One pool per
// engine; every case is one script.
import assert from 'node:assert/strict';
import { guestSuite } from '../helpers/both-engines.ts';

const DESCRIBE = [
  'const d = (o, k) => { const x = Object.getOwnPropertyDescriptor(o, k); if (!x) return "missing"; return ("get" in x ? (x.set ? "accessor-rw" : "accessor-r") : (x.writable ? "value-w" : "value")) + (x.enumerable ? "-e" : "") + (x.configurable ? "-c" : ""); };',
  'const r = (f) => { try { return String(f()) } catch (e) { return `${e.constructor.name}` } };',
].join('\n');

guestSuite('web platform (WebIDL shapes, QuotaExceededError)', (g) => {
  g.test('operations and attributes are enumerable; interfaces without a constructor have length 0 and throw', async (ctx) => {
    assert.equal(await ctx.output([
      DESCRIBE,
      'console.log(d(Performance.prototype, "now"), d(Performance.prototype, "timeOrigin"), d(Performance.prototype, "toJSON"), d(Performance.prototype, "constructor"));',
      'console.log(d(AbortSignal.prototype, "reason"), d(AbortSignal.prototype, "onabort"), d(AbortSignal, "any"), d(AbortSignal, "timeout"), d(AbortSignal, "length"));',
      'console.log(d(DOMException.prototype, "code"), d(DOMException, "ABORT_ERR"), d(EventTarget.prototype, "dispatchEvent"), d(Event.prototype, "preventDefault"));',
      'console.log(d(Headers.prototype, "append"), d(URLSearchParams.prototype, "size"), d(TextDecoder.prototype, "decode"), d(Crypto.prototype, "subtle"));',
      'console.log(d(Performance.prototype, Symbol.toStringTag), d(Headers.prototype, Symbol.iterator));',
      'console.log([Performance, PerformanceEntry, PerformanceMeasure, AbortSignal, Crypto, Navigator, SubtleCrypto, CryptoKey].map((C) => C.length).join(), PerformanceMark.length, Event.length, QuotaExceededError.length);',
      'console.log(r(() => new Performance()), r(() => new AbortSignal()), r(() => new Crypto()), r(() => new Navigator()));',
    ].join('\n')), [
      'value-w-e-c accessor-r-e-c value-w-e-c value-w-c',
      'accessor-r-e-c accessor-rw-e-c value-w-e-c value-w-e-c value-c',
      'accessor-r-e-c value-e value-w-e-c value-w-e-c',
      'value-w-e-c accessor-r-e-c value-w-e-c accessor-r-e-c',
      'value-c value-w-c',
      '0,0,0,0,0,0,0,0 1 1 0',
      'TypeError TypeError TypeError TypeError',
      '',
    ].join('\n'));
  });

  g.test('performance is an EventTarget with a toJSON that carries timeOrigin', async (ctx) => {
    assert.equal(await ctx.output([
      'const j = performance.toJSON();',
      'console.log(performance instanceof EventTarget, Object.getPrototypeOf(Performance.prototype) === EventTarget.prototype, j.timeOrigin === performance.timeOrigin, typeof j.timeOrigin);',
      'let n = 0; performance.addEventListener("x", () => n++); performance.dispatchEvent(new Event("x")); console.log(n, JSON.stringify(performance) === JSON.stringify(j));',
    ].join('\n')), 'true true true number\n1 true\n');
  });

  g.test('QuotaExceededError: a DOMException subclass with quota and requested, validated as WebIDL says', async (ctx) => {
    assert.equal(await ctx.output([
      'const r = (f) => { try { return JSON.stringify(f()) } catch (e) { return `${e.constructor.name}` } };',
      'const e = new QuotaExceededError("full", { quota: 10, requested: 12.5 });',
      'console.log(e instanceof DOMException, e instanceof Error, e.name, e.code, e.message, e.quota, e.requested, Object.prototype.toString.call(e));',
      'const plain = new QuotaExceededError(); console.log(JSON.stringify([plain.message, plain.quota, plain.requested]), Object.getPrototypeOf(QuotaExceededError) === DOMException);',
      'console.log(r(() => new QuotaExceededError("m", { quota: -1 })), r(() => new QuotaExceededError("m", { requested: -0.5 })), r(() => new QuotaExceededError("m", { quota: 5, requested: 4 })), r(() => new QuotaExceededError("m", { quota: NaN })), r(() => new QuotaExceededError("m", { requested: Infinity })), r(() => new QuotaExceededError("m", 1)));',
      'console.log(r(() => new QuotaExceededError("m", { quota: 3, requested: 3 }).requested), r(() => new QuotaExceededError("m", { quota: "7" }).quota), r(() => Object.getOwnPropertyDescriptor(QuotaExceededError.prototype, "quota").get.call(new DOMException("x"))));',
    ].join('\n')), [
      'true true QuotaExceededError 22 full 10 12.5 [object QuotaExceededError]',
      '["",null,null] true',
      'RangeError RangeError RangeError TypeError TypeError TypeError',
      '3 7 TypeError',
      '',
    ].join('\n'));
  });

  g.test('getRandomValues: over 65,536 bytes throws a QuotaExceededError (quota and requested null) for every integer array', async (ctx) => {
    assert.equal(await ctx.output([
      'const names = ["Int8Array", "Int16Array", "Int32Array", "BigInt64Array", "Uint8Array", "Uint8ClampedArray", "Uint16Array", "Uint32Array", "BigUint64Array"];',
      'const out = names.map((n) => { const C = globalThis[n]; try { crypto.getRandomValues(new C(65536 / C.BYTES_PER_ELEMENT + 1)); return "no throw"; } catch (e) { return `${e.constructor === QuotaExceededError}:${e.name}:${e.quota}:${e.requested}`; } });',
      'console.log(new Set(out).size, out[0]);',
      'class Sub extends Uint16Array {} console.log(crypto.getRandomValues(new Sub(4)) instanceof Sub, crypto.getRandomValues(new Uint8Array(0)).length);',
      'try { crypto.getRandomValues(new Float64Array(65537)); } catch (e) { console.log(e.constructor === DOMException, e.name, e.code); }',
    ].join('\n')), '1 true:QuotaExceededError:null:null\ntrue 0\ntrue TypeMismatchError 17\n');
  });
});
