// Node core module groups measured against Node's own tests (issue 20): string_decoder, buffer's
// argument checks, querystring and events. Each case is one function run in the sandbox and on
// the host's Node 24 (the oracle); the two results must be equal.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { guestSuite, type GuestContext } from '../helpers/both-engines.ts';

type Req = (name: string) => any; // eslint-disable-line @typescript-eslint/no-explicit-any
type Case = (require: Req) => unknown;  // may return a promise

const hostRequire = createRequire(import.meta.url);

/** Runs `fn` in the guest and on the host and asserts that both return the same JSON. */
async function sameAsNode(ctx: GuestContext, fn: Case): Promise<void> {
  // The result is the output's last line (warnings, which Node writes to stderr, come before it).
  const output = await ctx.output(`const __result = await (${fn.toString()})(require);\nconsole.log(JSON.stringify(__result));`, { timeoutMs: 30_000 });
  const guest = JSON.parse(output.trimEnd().split('\n').at(-1)!);
  const host = JSON.parse(JSON.stringify(await fn(hostRequire)));
  assert.deepEqual(guest, host);
}

function stringDecoderCases(require: Req): unknown {
  const { StringDecoder } = require('node:string_decoder');
  const out: unknown[] = [];
  const state = (d: any) => `${d.lastNeed}/${d.lastTotal}/${d.lastChar.toString('hex')}`;
  const splits = (len: number, start = 0, seq: number[][] = []): number[][][] => {
    if (start === len) return [seq];
    let all: number[][][] = [];
    for (let end = len; end > start; end--) all = all.concat(splits(len, end, seq.concat([[start, end]])));
    return all;
  };
  const inputs = ['C9B5A941', 'E2', 'E241', 'CCCCB8', 'F0B841', 'F1CCB8', 'F0FB00', 'CCE2B8B8', 'E2B8CCB8', 'E2FBCC01', 'EDA0B5EDB08D', 'CCB8CDB9', 'F4908080', 'E0809F41', '41F2', 'C0AF', 'F5', '3DD84DDC', 'F09F988041'];
  for (const encoding of ['utf8', 'utf16le', 'base64', 'base64url', 'hex', 'latin1', 'ascii']) {
    for (const hex of inputs) {
      const bytes = Buffer.from(hex, 'hex');
      for (const split of splits(bytes.length)) {
        const d = new StringDecoder(encoding);
        let text = '';
        const states = [];
        for (const [a, z] of split) {
          text += d.write(bytes.subarray(a, z));
          states.push(state(d));
        }
        text += d.end();
        out.push([encoding, hex, JSON.stringify(split), text, states.join(' '), state(d)]);
      }
    }
  }
  const d = new StringDecoder('utf8');
  out.push(d.write('str'), d.end('x'), d.end(Buffer.from('e282', 'hex')), d.write(new Uint16Array([0x4142])), d.write(new DataView(new Uint8Array([0x43]).buffer)));
  out.push(Object.keys(d), require('node:util').inspect(d));
  const t = new StringDecoder('utf8');
  t.write(Buffer.from('e2', 'hex'));
  out.push(t.text(Buffer.from('41e282ac', 'hex'), 1), t.lastNeed);
  for (const bad of [1, null, {}, [1]]) {
    try {
      d.write(bad);
    } catch (e: any) {
      out.push([e.name, e.code, e.message]);
    }
  }
  for (const enc of ['UTF8', 'ucs2', 'UCS-2', 'binary', 'Latin1', 'utf-16le', 'base64URL', 'HEX', '', null, undefined, 'raw', 0, false, 'utf16']) {
    try {
      out.push(new StringDecoder(enc).encoding);
    } catch (e: any) {
      out.push([e.name, e.code, e.message]);
    }
  }
  try {
    StringDecoder.prototype.write.call({}, Buffer.from('a'));
  } catch (e: any) {
    out.push([e.name, e.code, e.message]);
  }
  return out;
}

function bufferCases(require: Req): unknown {
  const { Buffer } = require('node:buffer');
  const buffer = require('node:buffer');
  const attempt = (f: () => unknown) => {
    try {
      const r = f();
      return typeof r === 'bigint' ? `${r}n` : r;
    } catch (e: any) {
      return [e.name, e.code, e.message];
    }
  };
  const b = Buffer.alloc(5);
  const out: unknown[] = [];
  out.push(attempt(() => b.readUInt8('1')), attempt(() => b.readUInt8(5)), attempt(() => b.readUInt32LE(2)), attempt(() => b.readUInt8(1.5)), attempt(() => b.readInt16BE(-1)));
  out.push(attempt(() => b.writeUInt8(256, 0)), attempt(() => b.writeUInt8(1, 5)), attempt(() => b.writeUInt32LE(-1)), attempt(() => b.writeInt32BE(2 ** 31)), attempt(() => b.writeUIntLE(2 ** 48, 0, 6)));
  out.push(attempt(() => b.readUIntLE(0, 7)), attempt(() => b.readUIntLE(0)), attempt(() => b.readIntBE(undefined, 2)), attempt(() => Buffer.alloc(2).readDoubleLE(0)), attempt(() => b.writeDoubleLE(1, 0)));
  out.push(attempt(() => b.readBigUInt64LE(0)), attempt(() => Buffer.alloc(8).writeBigInt64LE(2n ** 63n)), attempt(() => Buffer.alloc(8).writeBigUInt64BE(-1n)));
  out.push(attempt(() => buffer.isAscii('x')), attempt(() => buffer.isUtf8(new DataView(new ArrayBuffer(1)))), attempt(() => buffer.isUtf8(new ArrayBuffer(1))));
  const sab = new SharedArrayBuffer(4); const fs = Buffer.from(sab); fs[0] = 7; out.push(new Uint8Array(sab)[0], attempt(() => Buffer.from(sab, 1, 2).length), attempt(() => Buffer.from(sab, 5)));
  out.push(attempt(() => Buffer.alloc(-1)), attempt(() => Buffer.alloc('5')), attempt(() => Buffer.from(5)), attempt(() => Buffer.from({})), attempt(() => Buffer.alloc(2, 'x', 'bogus')), attempt(() => b.toString('bogus')), attempt(() => Buffer.byteLength(5)));
  out.push(attempt(() => b.fill('a', 0, 10)), attempt(() => b.fill('a', -1)), attempt(() => b.fill('a', 'x')), attempt(() => b.fill('zz', 'hex')), attempt(() => Buffer.concat([1])), attempt(() => Buffer.concat('x')), attempt(() => Buffer.compare(1, b)), attempt(() => b.compare(b, -1)), attempt(() => b.copy(1)), attempt(() => b.copy(b, -1)));
  out.push(attempt(() => b.write(1)), attempt(() => b.write('a', 10)), attempt(() => b.write('a', 0, 10).toString()), attempt(() => b.indexOf({})), attempt(() => b.slice('1').length), attempt(() => b.swap16()), attempt(() => b.toString('utf8', -1, 100)), attempt(() => Buffer.allocUnsafe(2 ** 53)));
  out.push(attempt(() => b.writeUInt16LE(1, '0')), attempt(() => b.writeFloatBE(1, 4)), attempt(() => b.writeUInt8(1.5, 0)), attempt(() => b.writeUInt8(-0, 0)), attempt(() => b.readUInt8(-0)), attempt(() => b.readUInt8(NaN)), attempt(() => b.readUInt8(Infinity)), attempt(() => b.readUInt8(2 ** 40)));
  out.push(attempt(() => Buffer.isEncoding('BASE64URL')), attempt(() => Buffer.from('a', 'bogus')), attempt(() => b.equals(1)), attempt(() => b.toJSON().type), attempt(() => Buffer.copyBytesFrom(1)));
  return out;
}

async function eventsCases(require: Req): Promise<unknown> {
  const EventEmitter = require('node:events');
  const { once, addAbortListener, setMaxListeners, getMaxListeners } = EventEmitter;
  const attempt = (f: () => unknown) => {
    try {
      const r = f();
      return r === undefined ? 'undefined' : typeof r === 'object' ? Object.keys(r as object) : r;
    } catch (e: any) {
      return [e.name, e.code, e.message];
    }
  };
  const rejected = async (p: Promise<unknown>) => {
    try {
      return await p;
    } catch (e: any) {
      return [e.name, e.code, e.message, e.cause];
    }
  };
  const out: unknown[] = [];
  const e = new EventEmitter();
  out.push(attempt(() => e.on('x', 1)), attempt(() => e.once('x', null)), attempt(() => e.prependListener('x', {})), attempt(() => e.prependOnceListener('x', 'f')), attempt(() => e.removeListener('x', 1)), attempt(() => e.off('x')));
  out.push(attempt(() => e.setMaxListeners(-1)), attempt(() => e.setMaxListeners('1')), attempt(() => setMaxListeners(-1)), attempt(() => { EventEmitter.defaultMaxListeners = -1; }), attempt(() => { EventEmitter.defaultMaxListeners = 'x'; }));
  out.push(attempt(() => addAbortListener(1, () => {})), attempt(() => addAbortListener(undefined, () => {})), attempt(() => addAbortListener(new AbortController().signal, 1)), typeof addAbortListener(new AbortController().signal, () => {})[Symbol.dispose]);
  const ac0 = new AbortController();
  let called = 0;
  addAbortListener(ac0.signal, () => called++)[Symbol.dispose]();
  ac0.abort();
  out.push(called, attempt(() => getMaxListeners(e)), attempt(() => new EventEmitter({ captureRejections: 1 })), attempt(() => { EventEmitter.captureRejections = 1; }));
  out.push(EventEmitter.captureRejections, String(EventEmitter.captureRejectionSymbol), String(EventEmitter.errorMonitor), EventEmitter.usingDomains);
  // Warnings reach process.on('warning') (the run's output shows them too, as Node's stderr does).
  const warnings: unknown[] = [];
  const onWarning = (w: any) => warnings.push([w.name, w.message, w.emitter === e2, w.type, w.count]);
  process.on('warning', onWarning);
  const e2 = new EventEmitter();
  e2.setMaxListeners(1);
  for (let i = 0; i < 3; i++) e2.on('a', () => {});
  const e3 = new EventEmitter();
  for (let i = 0; i < 11; i++) e3.on(Symbol('s'), () => {});
  for (let i = 0; i < 11; i++) e3.on('sym', () => {});
  class Custom extends EventEmitter {}
  const e4 = new Custom();
  e4.setMaxListeners(2);
  for (let i = 0; i < 3; i++) e4.on('c', () => {});
  process.emitWarning('plain');
  process.emitWarning('typed', 'CustomWarning', 'CODE1');
  process.emitWarning('with options', { type: 'OptWarning', code: 'CODE2', detail: 'more' });
  out.push(attempt(() => process.emitWarning(1 as unknown as string)));
  await new Promise((r) => setTimeout(r, 5));
  process.removeListener('warning', onWarning);
  out.push(warnings);
  // captureRejections: the rejection becomes an 'error' event, or goes to Symbol.for('nodejs.rejection').
  const captured: unknown[] = [];
  const e5 = new EventEmitter({ captureRejections: true });
  e5.on('ev', async () => { throw new Error('kaboom'); });
  e5.on('error', (err: Error) => captured.push(['captured', err.message]));
  e5.emit('ev');
  const e6 = new EventEmitter({ captureRejections: true });
  e6[Symbol.for('nodejs.rejection')] = (err: Error, ev: string, ...args: unknown[]) => captured.push(['rejection', err.message, ev, args]);
  e6.on('ev', async () => { throw new Error('k2'); });
  e6.emit('ev', 1, 2);
  EventEmitter.captureRejections = true;
  const e7 = new EventEmitter();
  EventEmitter.captureRejections = false;
  e7.on('ev', () => Promise.reject(new Error('k3')));
  e7.on('error', (err: Error) => captured.push(['default', err.message]));
  e7.emit('ev');
  await new Promise((r) => setTimeout(r, 5));
  out.push(captured);
  // events.once with options and a signal.
  const ac = new AbortController();
  const p = once(e, 'never', { signal: ac.signal });
  ac.abort();
  out.push(await rejected(p).then((r: any) => [r[0], r[1], r[2], r[3]?.name]));
  out.push(await rejected(once(e, 'x', { signal: 1 })), await rejected(once(e, 'x', 1)), await rejected(once(e, 'x', null)));
  const ee = new EventEmitter();
  setTimeout(() => ee.emit('error', new Error('bad')), 1);
  out.push(await rejected(once(ee, 'x')).then((r: any) => r[2]));
  const ac2 = new AbortController();
  const ee2 = new EventEmitter();
  const p2 = once(ee2, 'y', { signal: ac2.signal });
  out.push(ee2.listenerCount('y'), ee2.listenerCount('error'));
  ee2.emit('y', 5);
  out.push(await p2, ee2.listenerCount('y'), ee2.listenerCount('error'));
  const ac3 = new AbortController();
  ac3.abort('why');
  out.push(await rejected(once(ee2, 'y', { signal: ac3.signal })));
  // listenerCount(type, listener), the emitter's own symbols in inspect, max listeners of EventTargets.
  const util = require('node:util');
  const e8 = new EventEmitter();
  const f = () => {};
  e8.on('x', f);
  e8.on('x', () => {});
  e8.once('x', f);
  out.push(e8.listenerCount('x'), e8.listenerCount('x', f), util.inspect(new EventEmitter()), util.inspect(e8, { depth: 0 }));
  const et = new EventTarget();
  et.addEventListener('foo', f);
  et.addEventListener('foo', () => {});
  et.addEventListener('foo', f);
  const ac4 = new AbortController();
  ac4.signal.addEventListener('abort', f);
  out.push(EventEmitter.getEventListeners(et, 'foo').length, EventEmitter.getEventListeners(et, 'foo')[0] === f, EventEmitter.getEventListeners(et, 'bar').length, EventEmitter.getEventListeners(ac4.signal, 'abort').length);
  out.push(getMaxListeners(et), attempt(() => setMaxListeners(1, et)), getMaxListeners(et), attempt(() => setMaxListeners(5, {})));
  return out;
}

function querystringCases(require: Req): unknown {
  const qs = require('node:querystring');
  const attempt = (f: () => any) => {
    try {
      const r = f();
      return r && typeof r === 'object' ? JSON.stringify([Object.getPrototypeOf(r) === null, r]) : r;
    } catch (e: any) {
      return [e.name, e.code, e.message];
    }
  };
  const out: unknown[] = [];
  for (const s of ['a b', 'ü€😀', '\ud800', '\udc00x', 'a\ud83d', "!'()*-._~", '%', 1, null, undefined, {}, [1, 2], 10n, { toString() { return 'ts' } }]) out.push(attempt(() => qs.escape(s)));
  for (const s of ['%', '%zz', '%4', '%41', '%C3%BC', '%E0%A4%A', 'a+b', '%FF', '%u0041', '%%41', '%e2%82%ac']) out.push(attempt(() => qs.unescape(s)), attempt(() => qs.unescape(s, true)), attempt(() => Array.from(qs.unescapeBuffer(s))), attempt(() => Array.from(qs.unescapeBuffer(s, true))));
  const parses = [['a=1&b=2&a=3'], ['a&b=&=c&&d=1=2'], ['a[]=1&a[]=2'], ['  a = 1 '], ['a=%zz&b=%41%'], ['a+b=c+d'], ['a=1;b=2', ';', ':'], ['a:1;b:2', ';', ':'], ['aXYb=1XYc=2', 'XY'], ['a==b', '', '=='], ['a=1&b=2&c=3', null, null, { maxKeys: 2 }], ['a=1&b=2&c=3', null, null, { maxKeys: 0 }], ['a=1&b=2&c=3', null, null, { maxKeys: -1 }], ['a=1&b=2', null, null, { maxKeys: '1' }],
    ['a=%41&b=x', null, null, { decodeURIComponent: (s: string) => s.toUpperCase() }], ['a=%41', null, null, { decodeURIComponent: () => { throw new Error('x') } }], ['__proto__=1&constructor=2&hasOwnProperty=3'], ['a=1&&&&b=2'], ['&'], ['='], ['=&='], [1], [''], ['a=%F0%9F%98%80'], ['a=1&a=2&a=3'], ['%3D=%26'], ['a=b=c'], ['a=1&b=2', 1, 2], ['a1b2c', 1, 2]];
  for (const p of parses) out.push(attempt(() => qs.parse(...(p as [string]))));
  const strs = [[{ a: 1, b: 'x y', c: [1, 2], d: true, e: null, f: undefined, g: NaN, h: Infinity, i: {}, j: 10n, k: [], l: Symbol('s') }], [{ a: [[1, 2], { x: 1 }] }], [{ a: 1, b: 2 }, ';', ':'], [{ 'ü': '€' }], [{ a: 1 }, null, null, { encodeURIComponent: (s: string) => `<${s}>` }], ['str'], [null], [[1, 2]], [{ a: -0, b: 1e21, c: 1.5 }], [{ '': '' }], [{ a: '\ud800' }], [Object.create({ inherited: 1 }, { own: { value: 2, enumerable: true } })], [{ a: 1, b: [], c: 3 }]];
  for (const s of strs) out.push(attempt(() => qs.stringify(...(s as [object]))));
  out.push(qs.encode === qs.stringify, qs.decode === qs.parse, Object.keys(qs).sort().join(','));
  const out2: unknown[] = [];
  out2.push(attempt(() => qs.parse('a+b=c+d&e=%zz+f', null, null, { decodeURIComponent: (s: string) => s })), attempt(() => qs.parse('a=\ud800%&b=x')), attempt(() => qs.parse('a=1&b=2', null, null, { maxKeys: '1' })));
  const prev = qs.unescape; qs.unescape = (s: string) => s.replace(/o/g, '_'); out2.push(attempt(() => qs.parse('foo=bor+x'))); qs.unescape = prev;
  const prevE = qs.escape; qs.escape = (s: string) => `[${s}]`; out2.push(attempt(() => qs.stringify({ a: '', b: 1 }))); qs.escape = prevE;
  out2.push(attempt(() => qs.stringify({ a: 2n ** 70n, b: 1e21, c: -1e21, d: [], e: [''] })), attempt(() => qs.escape(`${String.fromCharCode(0xD801)}test`)), attempt(() => qs.escape({ test: 5, toString: () => 'test', valueOf: () => 10 })), attempt(() => qs.escape({ toString: 5, valueOf: () => 'test' })));
  return [out, out2];
}

function bufferConversionCases(require: Req): unknown {
  const { Buffer } = require('node:buffer');
  const attempt = (f: () => unknown) => {
    try {
      return f();
    } catch (e: any) {
      return [e.name, e.code, e.message];
    }
  };
  const b = Buffer.from('abcdef');
  const out: unknown[] = [];
  out.push(attempt(() => b.toString(null as unknown as BufferEncoding)), attempt(() => b.toString(undefined)), attempt(() => b.toString('' as BufferEncoding)), attempt(() => b.toString('ascii', '1' as unknown as number, '3' as unknown as number)), attempt(() => b.toString('ascii', 1.5, 3.9)), attempt(() => b.toString('ascii', -Infinity, Infinity)), attempt(() => b.toString('ascii', true as unknown as number, 3)), attempt(() => b.toString('ascii', 0, true as unknown as number)), attempt(() => b.toString('ascii', NaN, 2)), attempt(() => b.toString('ascii', 0, NaN)), attempt(() => b.toString('ascii', '-1' as unknown as number, '3' as unknown as number)), attempt(() => b.toString(1 as unknown as BufferEncoding)), attempt(() => b.toString('latin1', 2 ** 53)), attempt(() => b.toString('utf8', 0, -1)));
  out.push(attempt(() => Buffer.byteLength('abc', 'bogus' as BufferEncoding)), attempt(() => Buffer.byteLength(new DataView(new ArrayBuffer(3)))), attempt(() => Buffer.byteLength(new SharedArrayBuffer(4))), attempt(() => Buffer.byteLength('\u00e9', 'latin1')), attempt(() => Buffer.byteLength('aGVsbG8', 'base64')));
  out.push(require('node:util').inspect(Buffer.from('hello world, this is a long buffer with many bytes in it for inspecting')), require('node:util').inspect(Buffer.alloc(0)), attempt(() => Buffer.isEncoding(null)), attempt(() => Buffer.isEncoding('')), attempt(() => b.slice(2, 1).length), attempt(() => b.subarray('1' as unknown as number, '3' as unknown as number).toString()));
  out.push(attempt(() => b.indexOf('c', '1')), attempt(() => b.indexOf('c', null as unknown as number)), attempt(() => b.indexOf('c', {} as number)), attempt(() => b.lastIndexOf('c', -10)), attempt(() => b.includes(99, 3)), attempt(() => b.indexOf(Buffer.from('cd'), -4)), attempt(() => b.indexOf('', 10)), attempt(() => b.indexOf(99.9)), attempt(() => b.indexOf(355)), attempt(() => b.indexOf('c', 0, 'bogus' as BufferEncoding)));
  out.push(attempt(() => Buffer.from('abc').toJSON()), attempt(() => JSON.stringify(Buffer.from([1]))), attempt(() => Buffer.from(new Uint16Array([1, 256])).length), attempt(() => Buffer.from([257, -1, 1.9, '3'] as number[]).join()), attempt(() => Buffer.from({ length: 2, 0: 5, 1: 6 } as unknown as number[]).join()), attempt(() => Buffer.from({ type: 'Buffer', data: [1, 2] } as unknown as number[]).join()), attempt(() => Buffer.from(new String('xy') as string).toString()), attempt(() => Buffer.alloc(3, 'abcd').toString()), attempt(() => Buffer.alloc(3, 0x101).join()), attempt(() => Buffer.alloc(3, '').join()));
  out.push(attempt(() => b.swap16().toString()), attempt(() => Buffer.from('abcd').swap32().toString()), attempt(() => Buffer.from('abcdefgh').swap64().toString()), attempt(() => b.toLocaleString === b.toString), attempt(() => Buffer.poolSize), attempt(() => b.parent === b.buffer), attempt(() => typeof b.offset));
  return out;
}

guestSuite('node core modules against Node 24', (g) => {
  g.test('string_decoder: every encoding (base64url too), every split of tricky input, lastChar/lastNeed/lastTotal, end(), errors', async (ctx) => {
    await sameAsNode(ctx, stringDecoderCases);
  });

  g.test('buffer: Node\'s argument errors (read*/write*, alloc, from, concat, compare, copy, fill, write, isAscii/isUtf8), Buffer.from(SharedArrayBuffer)', async (ctx) => {
    await sameAsNode(ctx, bufferCases);
  });

  g.test('buffer: toString encodings and ranges, byteLength of views and SharedArrayBuffers, indexOf offsets, from/alloc of odd values, swap*, inspect', async (ctx) => {
    await sameAsNode(ctx, bufferConversionCases);
  });

  // Node warns once per process, so the host (this test process) cannot be the oracle here.
  g.test('buffer: Buffer() warns DEP0005 and SlowBuffer() DEP0030, once each, through process.emitWarning', async (ctx) => {
    const output = await ctx.output(`const seen = [];
process.on('warning', (w) => seen.push([w.name, w.code, w.message]));
Buffer.of(1, 2);
Buffer(1);
new Buffer('x');
const { SlowBuffer } = require('node:buffer');
SlowBuffer(1);
SlowBuffer(2);
// Uint8Array methods make buffers through Buffer[Symbol.species] (FastBuffer): no further warning.
Buffer.of(1).map((x) => x).subarray(0);
await new Promise((resolve) => setTimeout(resolve, 10));
console.log(JSON.stringify(seen));`);
    const lines = output.trimEnd().split('\n');
    assert.deepEqual(JSON.parse(lines.at(-1)!), [
      ['DeprecationWarning', 'DEP0005', 'Buffer() is deprecated due to security and usability issues. Please use the Buffer.alloc(), Buffer.allocUnsafe(), or Buffer.from() methods instead.'],
      ['DeprecationWarning', 'DEP0030', 'SlowBuffer() is deprecated. Please use Buffer.allocUnsafeSlow()'],
    ]);
    assert.deepEqual(lines.slice(0, -1), [
      '[WARN] (runjs) [DEP0005] DeprecationWarning: Buffer() is deprecated due to security and usability issues. Please use the Buffer.alloc(), Buffer.allocUnsafe(), or Buffer.from() methods instead.',
      '[WARN] (runjs) [DEP0030] DeprecationWarning: SlowBuffer() is deprecated. Please use Buffer.allocUnsafeSlow()',
    ]);
  });

  g.test('events: Node\'s argument errors, MaxListenersExceededWarning through process.emitWarning, captureRejections, addAbortListener, once with options', async (ctx) => {
    await sameAsNode(ctx, eventsCases);
  });

  g.test('querystring: escape/unescape edge cases (surrogates, malformed escapes), parse with separators, maxKeys and decoders, stringify of odd values', async (ctx) => {
    await sameAsNode(ctx, querystringCases);
  });
});
