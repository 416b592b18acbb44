// node:zlib: one-shot (de)compression on the host (op zlib.process, Node's zlib), in the sync,
// callback and stream forms. The stream classes collect their input and process it at the end.
import core from 'runjs:part/core';
import bufferPart from 'runjs:part/buffer';
import streamPart from 'runjs:part/stream';

const { op, invalidArgType } = core.shared;
const { Buffer } = bufferPart.globals;
const { Transform } = streamPart.modules.stream;

const CODECS = ['gzip', 'gunzip', 'deflate', 'inflate', 'deflateRaw', 'inflateRaw', 'unzip', 'brotliCompress', 'brotliDecompress'];
let constantsCache;

function toBytes(input, name = 'buffer') {
  if (typeof input === 'string') return Buffer.from(input);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  throw invalidArgType(name, 'of type string or an instance of Buffer, TypedArray, DataView, or ArrayBuffer', input);
}

function run(codec, input, options) {
  const out = op('zlib.process', { codec, options: options ?? {} }, toBytes(input));
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

class ZlibStream extends Transform {
  constructor(codec, options) {
    super(options);
    this._codec = codec;
    this._options = options;
    this._chunks = [];
  }
  _transform(chunk, encoding, callback) {
    this._chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);
    callback();
  }
  _flush(callback) {
    try {
      callback(null, run(this._codec, Buffer.concat(this._chunks), this._options));
    } catch (e) {
      callback(e);
    }
  }
}

const zlib = {
  get constants() {
    constantsCache ??= op('zlib.constants');
    return constantsCache;
  },
  crc32(data, value = 0) {
    const bytes = toBytes(data, 'data');
    let crc = ~value >>> 0;
    for (let i = 0; i < bytes.length; i++) {
      crc ^= bytes[i];
      for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
    }
    return ~crc >>> 0;
  },
};
const capital = (s) => s[0].toUpperCase() + s.slice(1);
for (const codec of CODECS) {
  zlib[`${codec}Sync`] = (input, options = undefined) => run(codec, input, options);
  zlib[codec] = (input, options, callback) => {
    const cb = typeof options === 'function' ? options : callback;
    const opts = typeof options === 'function' ? undefined : options;
    if (typeof cb !== 'function') throw invalidArgType('callback', 'of type function', cb);
    let result;
    let error = null;
    try {
      result = run(codec, input, opts);
    } catch (e) {
      error = e;
    }
    queueMicrotask(() => (error ? cb(error) : cb(null, result)));
  };
  const Cls = { [capital(codec)]: class extends ZlibStream { constructor(options) { super(codec, options); } } }[capital(codec)];
  zlib[capital(codec)] = Cls;
  zlib[`create${capital(codec)}`] = (options = undefined) => new Cls(options);
}

export const modules = { zlib };
export const globals = {};
