// WHATWG streams: web-streams-polyfill (the reference implementation's port), plus
// TextEncoderStream/TextDecoderStream and CompressionStream/DecompressionStream. Compression
// runs on the host, one host zlib stream per guest stream (ops zlib.stream*), chunk by chunk.
import {
  ReadableStream, ReadableStreamDefaultReader, ReadableStreamBYOBReader, ReadableStreamBYOBRequest,
  ReadableStreamDefaultController, ReadableByteStreamController, WritableStream, WritableStreamDefaultWriter,
  WritableStreamDefaultController, TransformStream, TransformStreamDefaultController, ByteLengthQueuingStrategy,
  CountQueuingStrategy,
} from 'web-streams-polyfill';
import core from 'runjs:part/core';
import { registerStreamTransfers } from './streams-transfer.js';
import { installStreamInspect } from './streams-inspect.js';

const { op, opAsync } = core.shared;
const { TextEncoder, TextDecoder } = core.globals;

// A WebIDL async iterator's prototype inherits from %AsyncIteratorPrototype% (the polyfill gives
// it a look-alike of its own), so `values()` iterators are async iterators by prototype too.
Object.setPrototypeOf(
  Object.getPrototypeOf(ReadableStream.prototype.values.call(new ReadableStream())),
  Object.getPrototypeOf(Object.getPrototypeOf(async function* () {}).prototype),
);
// WebIDL's async iterator prototype has own next() and return() only: @@asyncIterator comes from
// %AsyncIteratorPrototype% (its parent now), as on Node.
delete Object.getPrototypeOf(ReadableStream.prototype.values.call(new ReadableStream()))[Symbol.asyncIterator];

// The standard's WritableStreamDefaultController has `signal` and `error()` only: `abortReason`
// was dropped from the standard (2022) and Node never had it; the polyfill keeps the
// getter, which WPT's controller-prototype checks see. Its internals read `_abortReason`.
delete WritableStreamDefaultController.prototype.abortReason;

// ReadableStream.from(asyncIterable) takes a WebIDL async_sequence<any>: a value that is not an
// object (a string, too, though strings are iterable) is a TypeError before any iterator lookup.
{
  const from = ReadableStream.from;
  Object.defineProperty(ReadableStream, 'from', {
    value: {
      from(asyncIterable) {
        if ((typeof asyncIterable !== 'object' && typeof asyncIterable !== 'function') || asyncIterable === null) {
          throw new TypeError('ReadableStream.from: the argument must be an async iterable or iterable object');
        }
        return from.call(this, asyncIterable);
      },
    }.from,
    writable: true, enumerable: true, configurable: true,
  });
}

// A brand check: the platform's captured SharedArrayBuffer is not the script's on every engine.
const isShared = (buffer) => Object.prototype.toString.call(buffer) === '[object SharedArrayBuffer]';
const isDetached = (buffer) => buffer.detached === true;

/**
 * The bytes of a BufferSource chunk. `allowShared` is WebIDL's [AllowShared] (TextDecoderStream
 * decodes views over a SharedArrayBuffer; the compression streams refuse them). A detached buffer
 * holds no bytes.
 */
function bytesOf(chunk, what, allowShared = false) {
  if (ArrayBuffer.isView(chunk) && (allowShared || !isShared(chunk.buffer))) {
    return isDetached(chunk.buffer) ? new Uint8Array(0) : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  }
  if (chunk instanceof ArrayBuffer || (allowShared && isShared(chunk))) return isDetached(chunk) ? new Uint8Array(0) : new Uint8Array(chunk);
  throw new TypeError(`The "chunk" argument of ${what} must be an ArrayBuffer or ArrayBufferView`);
}

/**
 * A stream's state, or the TypeError Node's classes give a receiver that is not one of theirs
 * (their getters read the private #handle or #transform), so brand checks fail as WebIDL wants.
 */
function own(map, self, member) {
  const s = map.get(self);
  if (s === undefined) throw new TypeError(`Cannot read private member ${member} from an object whose class did not declare it`);
  return s;
}

const textEncoderStreams = new WeakMap();
export class TextEncoderStream {
  constructor() {
    let pendingHigh = '';
    const encoder = new TextEncoder();
    const transform = new TransformStream({
      transform(chunk, controller) {
        let s = pendingHigh + String(chunk);
        pendingHigh = '';
        const last = s.charCodeAt(s.length - 1);
        if (last >= 0xd800 && last <= 0xdbff) {
          pendingHigh = s[s.length - 1];
          s = s.slice(0, -1);
        }
        if (s.length > 0) controller.enqueue(encoder.encode(s));
      },
      flush(controller) {
        if (pendingHigh !== '') controller.enqueue(new Uint8Array([0xef, 0xbf, 0xbd]));
      },
    });
    textEncoderStreams.set(this, transform);
  }
  get encoding() { own(textEncoderStreams, this, '#handle'); return 'utf-8'; }
  get readable() { return own(textEncoderStreams, this, '#transform').readable; }
  get writable() { return own(textEncoderStreams, this, '#transform').writable; }
}
Object.defineProperty(TextEncoderStream.prototype, Symbol.toStringTag, { value: 'TextEncoderStream', configurable: true });

const textDecoderStreams = new WeakMap();
export class TextDecoderStream {
  constructor(label = 'utf-8', options = undefined) {
    const decoder = new TextDecoder(label, options);
    const transform = new TransformStream({
      transform(chunk, controller) {
        const text = decoder.decode(bytesOf(chunk, 'TextDecoderStream', true), { stream: true });
        if (text !== '') controller.enqueue(text);
      },
      flush(controller) {
        const text = decoder.decode();
        if (text !== '') controller.enqueue(text);
      },
    });
    textDecoderStreams.set(this, { decoder, transform });
  }
  get encoding() { return own(textDecoderStreams, this, '#handle').decoder.encoding; }
  get fatal() { return own(textDecoderStreams, this, '#handle').decoder.fatal; }
  get ignoreBOM() { return own(textDecoderStreams, this, '#handle').decoder.ignoreBOM; }
  get readable() { return own(textDecoderStreams, this, '#transform').transform.readable; }
  get writable() { return own(textDecoderStreams, this, '#transform').transform.writable; }
}
Object.defineProperty(TextDecoderStream.prototype, Symbol.toStringTag, { value: 'TextDecoderStream', configurable: true });

const FORMATS = {
  gzip: ['gzip', 'gunzip'],
  deflate: ['deflate', 'inflate'],
  'deflate-raw': ['deflateRaw', 'inflateRaw'],
  brotli: ['brotliCompress', 'brotliDecompress'],
};

/**
 * A TransformStream over a host zlib stream (ops zlib.stream*): each chunk's output comes back as
 * soon as the host produced it. An error the host reports after some output (data after the end
 * of a compressed stream in the same chunk) errors the stream after that output is enqueued.
 */
function codecStream(format, decompress, className) {
  const codecs = FORMATS[String(format)];
  if (codecs === undefined) {
    throw new TypeError(`Failed to construct '${className}': Unsupported compression format: '${String(format)}'`);
  }
  let id;
  const open = () => (id ??= op('zlib.streamOpen', { codec: codecs[decompress ? 1 : 0] }));
  const deliver = (answer, controller) => {
    if (answer.bytes.length > 0) controller.enqueue(answer.bytes);
    if (answer.error !== undefined) throw new TypeError(`${className}: ${answer.error}`);
  };
  return new TransformStream({
    async transform(chunk, controller) {
      const bytes = bytesOf(chunk, className).slice();
      deliver(await opAsync('zlib.streamWrite', { id: open() }, bytes), controller);
    },
    async flush(controller) {
      deliver(await opAsync('zlib.streamEnd', { id: open() }), controller);
    },
  });
}

const compressionStreams = new WeakMap();
export class CompressionStream {
  constructor(format) {
    compressionStreams.set(this, codecStream(format, false, 'CompressionStream'));
  }
  get readable() { return own(compressionStreams, this, '#transform').readable; }
  get writable() { return own(compressionStreams, this, '#transform').writable; }
}
Object.defineProperty(CompressionStream.prototype, Symbol.toStringTag, { value: 'CompressionStream', configurable: true });

export class DecompressionStream {
  constructor(format) {
    compressionStreams.set(this, codecStream(format, true, 'DecompressionStream'));
  }
  get readable() { return own(compressionStreams, this, '#transform').readable; }
  get writable() { return own(compressionStreams, this, '#transform').writable; }
}
Object.defineProperty(DecompressionStream.prototype, Symbol.toStringTag, { value: 'DecompressionStream', configurable: true });

registerStreamTransfers({ ReadableStream, WritableStream, TransformStream });
installStreamInspect({ ReadableStream, WritableStream, TransformStream, ReadableByteStreamController, TextEncoderStream, TextDecoderStream, CompressionStream, DecompressionStream });

export const globals = {
  ReadableStream, ReadableStreamDefaultReader, ReadableStreamBYOBReader, ReadableStreamBYOBRequest,
  ReadableStreamDefaultController, ReadableByteStreamController, WritableStream, WritableStreamDefaultWriter,
  WritableStreamDefaultController, TransformStream, TransformStreamDefaultController, ByteLengthQueuingStrategy,
  CountQueuingStrategy, TextEncoderStream, TextDecoderStream, CompressionStream, DecompressionStream,
};
export const modules = { 'stream/web': { ...globals } };
