// node:buffer: read*/write* range errors, isAscii/isUtf8, SharedArrayBuffer, inspect, validation.
const B = () => require('node:buffer').Buffer;
const corpus = {
  'module keys': () => Object.keys(require('node:buffer')).sort(),
  'readUInt8 out of range': () => B().alloc(2).readUInt8(2),
  'readUInt16LE out of bounds': () => B().alloc(1).readUInt16LE(0),
  'readInt32BE bad offset type': () => B().alloc(4).readInt32BE('0'),
  'readInt32BE fractional offset': () => B().alloc(8).readInt32BE(1.5),
  'readBigUInt64LE': () => [B().from('0102030405060708', 'hex').readBigUInt64LE(), B().alloc(8, 255).readBigInt64BE()],
  'readBigInt64LE short': () => B().alloc(7).readBigInt64LE(),
  'readUIntBE byteLength': () => B().alloc(8).readUIntBE(0, 7),
  'readIntLE byteLength 0': () => B().alloc(8).readIntLE(0, 0),
  'readDoubleLE negative offset': () => B().alloc(8).readDoubleLE(-1),
  'readFloatBE values': () => { const b = B().alloc(4); b.writeFloatBE(1.5); return [b.readFloatBE(), b.readFloatLE()]; },
  'writeUInt8 value too big': () => B().alloc(1).writeUInt8(256),
  'writeInt8 value too small': () => B().alloc(1).writeInt8(-129),
  'writeUInt16BE returns offset': () => B().alloc(4).writeUInt16BE(0xabcd, 1),
  'writeUInt32LE out of bounds': () => B().alloc(3).writeUInt32LE(1),
  'writeIntBE byteLength 7': () => B().alloc(8).writeIntBE(1, 0, 7),
  'writeUIntLE big value': () => B().alloc(6).writeUIntLE(2 ** 48, 0, 6),
  'writeBigInt64LE not bigint': () => B().alloc(8).writeBigInt64LE(1),
  'writeBigUInt64BE negative': () => B().alloc(8).writeBigUInt64BE(-1n),
  'writeBigInt64BE range': () => B().alloc(8).writeBigInt64BE(2n ** 63n),
  'writeDoubleBE bad offset': () => B().alloc(8).writeDoubleBE(1, 1),
  'writeFloatLE non-number value': () => { const b = B().alloc(4); b.writeFloatLE('2'); return b; },
  'readUint aliases': () => [typeof B().prototype.readUint8, typeof B().prototype.writeUint32BE, typeof B().prototype.readBigUint64LE],
  'isAscii/isUtf8': () => { const { isAscii, isUtf8 } = require('node:buffer'); return [isAscii(B().from('abc')), isAscii(B().from('é')), isUtf8(B().from('é')), isUtf8(B().from([0xc3])), isUtf8(new ArrayBuffer(0)), isAscii(new Uint16Array([0x4141]))]; },
  'isUtf8 bad arg': () => require('node:buffer').isUtf8('str'),
  'isAscii bad arg': () => require('node:buffer').isAscii([1]),
  'isUtf8 detached': () => { const ab = new ArrayBuffer(4); structuredClone(ab, { transfer: [ab] }); return require('node:buffer').isUtf8(ab); },
  'from SharedArrayBuffer': () => { const s = new SharedArrayBuffer(4); const b = B().from(s, 1, 2); b[0] = 7; return [b.length, new Uint8Array(s)[1], b.buffer === s]; },
  'from SharedArrayBuffer out of range': () => B().from(new SharedArrayBuffer(4), 5),
  'from ArrayBuffer length out of range': () => B().from(new ArrayBuffer(4), 1, 4),
  'from bad type': () => B().from(1),
  'from object valueOf': () => B().from(new String('ab')),
  'from array-like': () => B().from({ length: 3, 0: 1, 1: 257, 2: -1 }),
  'alloc bad size': () => B().alloc(-1),
  'alloc size not number': () => B().alloc('5'),
  'alloc fill encoding': () => B().alloc(5, 'YQ==', 'base64'),
  'alloc bad fill': () => B().alloc(2, 'zz', 'hex'),
  'concat bad list': () => B().concat('x'),
  'concat bad element': () => B().concat([B().alloc(1), 'x']),
  'concat totalLength': () => B().concat([B().from('ab'), B().from('cd')], 3),
  'compare': () => [B().compare(B().from('a'), B().from('b')), B().from('abc').compare(B().from('b'), 0, 1, 1, 2)],
  'compare bad range': () => B().from('abc').compare(B().from('b'), 0, 5),
  'equals bad arg': () => B().alloc(1).equals('x'),
  'fill odd values': () => [B().alloc(3).fill('ab'), B().alloc(3).fill(257), B().alloc(4).fill('', 1), B().alloc(3).fill(B().from('xy'), 1)],
  'fill out of range': () => B().alloc(3).fill(0, 4),
  'fill bad encoding': () => B().alloc(3).fill('a', 'bogus'),
  'write': () => { const b = B().alloc(6); return [b.write('héllo', 1, 'latin1'), b.write('zz', 'hex'), b]; },
  'write bad offset': () => B().alloc(2).write('a', 5),
  'toString ranges': () => { const b = B().from('hello'); return [b.toString('utf8', 1, 3), b.toString('hex', -1, 100), b.toString(undefined, 2), b.toString('base64url')]; },
  'toString bad encoding': () => B().from('x').toString('nope'),
  'byteLength': () => [B().byteLength('héllo'), B().byteLength('aGk=', 'base64'), B().byteLength(new Uint16Array(3)), B().byteLength(new SharedArrayBuffer(5))],
  'byteLength bad arg': () => B().byteLength(1),
  'indexOf variants': () => { const b = B().from('abcabc'); return [b.indexOf('c', 3), b.lastIndexOf('b'), b.indexOf(99), b.includes('ca'), b.indexOf(B().from('bc'), -3), b.indexOf('6263', 0, 'hex')]; },
  'indexOf bad value': () => B().from('a').indexOf({}),
  'swap16 bad size': () => B().alloc(3).swap16(),
  'swap32': () => B().from('01020304', 'hex').swap32(),
  'copy': () => { const a = B().from('abcd'); const b = B().alloc(4); return [a.copy(b, 1, 2), b]; },
  'copy bad target': () => B().from('a').copy('x'),
  'copy negative sourceStart': () => B().from('ab').copy(B().alloc(2), 0, -1),
  'subarray and slice': () => { const b = B().from('abcdef'); return [b.subarray(1, 3), b.slice(-2), b.subarray(4, 2)]; },
  'toJSON': () => JSON.stringify(B().from('hi')),
  'inspect': () => require('node:util').inspect(B().from('hello')),
  'inspect long': () => require('node:util').inspect(B().alloc(60, 1)),
  'inspect with props': () => { const b = B().from('ab'); b.x = 1; return require('node:util').inspect(b); },
  'INSPECT_MAX_BYTES': () => require('node:buffer').INSPECT_MAX_BYTES,
  'INSPECT_MAX_BYTES setter': () => {
    const buffer = require('node:buffer');
    const util = require('node:util');
    const out = [];
    for (const v of [NaN, -1, 'x', null]) {
      try { buffer.INSPECT_MAX_BYTES = v; out.push('set'); } catch (e) { out.push(`${e.code} ${e.message}`); }
    }
    buffer.INSPECT_MAX_BYTES = 2;
    out.push(util.inspect(B().from('1234')), util.inspect(B().from('12')), util.inspect(B().from('123')));
    buffer.INSPECT_MAX_BYTES = Infinity;
    out.push(util.inspect(B().alloc(60, 1)));
    buffer.INSPECT_MAX_BYTES = 50;
    return out;
  },
  'inspect props of an empty buffer': () => { const b = B().alloc(0); b.prop = 123; b[Symbol('s')] = 'v'; return require('node:util').inspect(b); },
  'inspect props showHidden': () => { const b = B().from('ab'); Object.defineProperty(b, 'hidden', { value: 1 }); b.inspect = undefined; return [require('node:util').inspect(b), require('node:util').inspect(b, { showHidden: true })]; },
  'from a fake ArrayBuffer': () => { function AB() {} Object.setPrototypeOf(AB.prototype, ArrayBuffer.prototype); return B().from(new AB()); },
  'from objects in Node\'s order': () => [new String('ab'), new Boolean(true), { valueOf() { return null; } }, { valueOf: null }, { __proto__: null }, { __proto__: null, a: 1 }, new Number(1), { [Symbol.toPrimitive]: () => 'xy' }, { [Symbol.toPrimitive]: () => 1 }, { valueOf: () => [1, 2] }, { type: 'Buffer', data: [3, 4] }, { length: 'x' }, Object.assign(Object.create(Array.prototype, { constructor: { value: undefined } }), { 0: 1 })].map((v) => {
    try { return B().from(v); } catch (e) { return `${e.code} ${e.message}`; }
  }),
  'argument type texts': () => [-0, 'a'.repeat(27), 'a'.repeat(29), "it's", Symbol('s'), 5n, Object.create(null)].map((v) => {
    try { return B().concat(v); } catch (e) { return e.message; }
  }),
  'copyBytesFrom arguments': () => [[new Uint16Array([1, 0xffff]), 1, 5], [new Uint8Array(0)], [new Uint8Array(3), 5], [new Uint8Array(3), '1'], [new Uint8Array(3), 1.5], [new Uint8Array(3), -1], [new Uint8Array(3), 0, NaN], [new Uint8Array(3), 0, 1n], ['nope'], [new DataView(new ArrayBuffer(2))]].map((args) => {
    try { return B().copyBytesFrom(...args); } catch (e) { return `${e.code} ${e.message}`; }
  }),
  'size checks': () => {
    const { SlowBuffer, kMaxLength, constants } = require('node:buffer');
    return [kMaxLength, constants.MAX_LENGTH, ...[() => new (B())(42, 'utf8'), () => SlowBuffer(NaN), () => SlowBuffer(-1), () => SlowBuffer('1'), () => SlowBuffer(2).length, () => B()(kMaxLength + 1), () => B().alloc(kMaxLength + 1), () => B().allocUnsafeSlow(NaN)].map((f) => {
      try { return f(); } catch (e) { return `${e.name} ${e.code} ${e.message}`; }
    })];
  },
  'toString encodings and ranges': () => [[0, 1, 2], ['bogus', 2, 1], ['bogus', 5], [{ toString() { return 'hex'; } }], [undefined, 1], [null], [''], ['UTF8', '1'], [NaN], [false, 0, 3], ['ascii', '-1.99', '2.5'], ['ascii', true, {}], ['latin1', 'x', 'Infinity']].map((args) => {
    try { return B().from('abc').toString(...args); } catch (e) { return `${e.code} ${e.message}`; }
  }),
  'indexOf offsets and encodings': () => {
    const b = B().from('abcdef');
    const out = [];
    for (const n of ['a', 'bc', '', B().from('bc'), new Uint8Array([0x63]), 0x161])
      for (const o of [undefined, -1, -7, NaN, Infinity, [2], 'hex', 'ucs2', 7]) out.push([b.indexOf(n, o), b.lastIndexOf(n, o), b.includes(n, o)]);
    return out;
  },
  'indexOf errors': () => [() => B().from('ab').indexOf('', '2'), () => B().from('ab').indexOf({}), () => B().prototype.indexOf.call({}, 1), () => B().from('ab').lastIndexOf(Symbol('s'))].map((f) => {
    try { return f(); } catch (e) { return `${e.code} ${e.message}`; }
  }),
  'indexOf utf16': () => {
    const s = B().from('\u039a\u0391abc\u03a3\u03a3\u0395', 'ucs2');
    return [s.indexOf('bc', 0, 'ucs2'), s.indexOf('\u03a3', -4, 'ucs2'), s.lastIndexOf('\u03a3', undefined, 'utf16le'), s.indexOf(B().from('\u03a3', 'ucs2'), 0, 'ucs2'), B().from('aaaaa').indexOf('b', 'ucs2'), B().from('aaaa').indexOf('aaaa', 'ucs2'), B().from('abab').lastIndexOf(B().from('ba'), 3, 'ucs2')];
  },
  'species and Buffer.of': () => {
    const b = B().from([1, 2, 3, 4]);
    const show = (v) => [v.constructor.name, Object.getPrototypeOf(v) === B().prototype, B().isBuffer(v), [...v]];
    return [show(B().of(1, 2)), show(b.map((x) => x * 2)), show(b.filter((x) => x > 2)), show(b.subarray(1, 3)), show(Uint8Array.prototype.slice.call(b, 1)), B()[Symbol.species] === B(), B().of.name, B().of.length];
  },
  'from an object with a buffer': () => [B().from({ buffer: new ArrayBuffer(4) }), B().from({ buffer: new SharedArrayBuffer(4) }), B().from({ buffer: new ArrayBuffer(4), length: 2 })],
  'kMaxLength and constants': () => [typeof require('node:buffer').kMaxLength, Object.keys(require('node:buffer').constants).sort()],
  'isEncoding': () => ['utf8', 'UTF-8', 'ucs2', 'binary', 'base64url', 'nope', '', null].map((e) => B().isEncoding(e)),
  'transcode': () => require('node:buffer').transcode(B().from('é'), 'utf8', 'latin1'),
  'transcode bad encoding': () => require('node:buffer').transcode(B().from('é'), 'utf8', 'nope'),
  'atob/btoa': () => { const { atob, btoa } = require('node:buffer'); return [atob('aGk='), btoa('hi')]; },
  'atob invalid': () => require('node:buffer').atob('a'),
  'Buffer() deprecated call': () => B()(2).length,
  'SlowBuffer': () => typeof require('node:buffer').SlowBuffer,
  'alloc: a string fill with an encoding that is not a string': () => B().alloc(40, 'x', 20),
  'alloc: a string fill with a null encoding': () => B().alloc(2, 'x', null),
  'alloc: an empty Buffer fill': () => B().alloc(1, B().alloc(0)),
  'alloc: an empty Uint8Array fill': () => B().alloc(1, new Uint8Array(0)),
  'alloc: a fill that decodes to nothing': () => B().alloc(4, 'c', 'hex'),
  // Node's pool: small allocUnsafe/from buffers share one untransferable ArrayBuffer.
  'pool: small buffers share an ArrayBuffer': () => { const a = B().from('pooled'); const b = B().allocUnsafe(3); const c = B().from([1, 2]); return [B().poolSize, a.buffer === b.buffer, b.buffer === c.buffer, a.buffer.byteLength, B().alloc(3).buffer === a.buffer, B().allocUnsafeSlow(3).buffer.byteLength, B().allocUnsafe(B().poolSize / 2).buffer === a.buffer]; },
  'pool: its ArrayBuffer cannot be transferred': () => { const a = B().from('hello world'); try { structuredClone(a, { transfer: [a.buffer] }); } catch (e) { return [e.name, e.code, e.message, a.toString()]; } },
  'markAsUntransferable': () => { const { markAsUntransferable, isMarkedAsUntransferable } = require('node:worker_threads'); const ab = new ArrayBuffer(4); const before = isMarkedAsUntransferable(ab); markAsUntransferable(ab); try { new MessageChannel().port1.postMessage(ab, [ab]); } catch (e) { return [before, isMarkedAsUntransferable(ab), e.name, e.message, ab.byteLength]; } },
};
