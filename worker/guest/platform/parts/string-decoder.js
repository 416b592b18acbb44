// node:string_decoder, written for runjs after Node 24's decoder (src/string_decoder.cc): the same
// buffering of incomplete characters, so output, `lastChar`, `lastNeed` and `lastTotal` match
// Node's for every encoding (including 'base64url') and every way of splitting the input.
import core from 'runjs:part/core';

const { nodeError, invalidArgType } = core.shared;

const kNativeDecoder = Symbol('kNativeDecoder');
// Layout of the 7-byte state, as in Node: 4 bytes of an incomplete character, then the missing
// and buffered byte counts, then the encoding's number.
const kMissingBytes = 4;
const kBufferedBytes = 5;
const kEncodingField = 6;
// Node's `enum encoding` numbers (src/api/encoding.cc).
const ENCODINGS = ['ascii', 'utf8', 'base64', 'utf16le', 'latin1', 'hex', 'buffer', 'base64url'];
const ASCII = 0, UTF8 = 1, BASE64 = 2, UCS2 = 3, LATIN1 = 4, HEX = 5, BASE64URL = 7;

let BufferClass;

function normalizeEncoding(enc) {
  if (enc === undefined || enc === null || enc === '') return 'utf8';
  switch (String(enc).toLowerCase()) {
    case 'utf8': case 'utf-8': return 'utf8';
    case 'ucs2': case 'ucs-2': case 'utf16le': case 'utf-16le': return 'utf16le';
    case 'latin1': case 'binary': return 'latin1';
    case 'base64': return 'base64';
    case 'base64url': return 'base64url';
    case 'hex': return 'hex';
    case 'ascii': return 'ascii';
    default: throw nodeError(TypeError, 'ERR_UNKNOWN_ENCODING', `Unknown encoding: ${String(enc)}`);
  }
}

function makeString(bytes, start, end, encoding) {
  return BufferClass.prototype.toString.call(bytes, ENCODINGS[encoding], start, end);
}

function decode(state, bytes) {
  const encoding = state[kEncodingField];
  if (encoding === ASCII || encoding === HEX || encoding === LATIN1) return makeString(bytes, 0, bytes.length, encoding);
  let start = 0;
  let prepend = '';
  if (state[kMissingBytes] > 0) {
    if (encoding === UTF8) {
      // A byte that should continue the buffered character but does not ends it: the buffered
      // bytes are decoded as they are, and the byte starts a new character.
      for (let i = 0; i < bytes.length && i < state[kMissingBytes]; i++) {
        if ((bytes[i] & 0xc0) !== 0x80) {
          state[kMissingBytes] = 0;
          state.set(bytes.subarray(0, i), state[kBufferedBytes]);
          state[kBufferedBytes] += i;
          start = i;
          break;
        }
      }
    }
    const found = Math.min(bytes.length - start, state[kMissingBytes]);
    state.set(bytes.subarray(start, start + found), state[kBufferedBytes]);
    start += found;
    state[kMissingBytes] -= found;
    state[kBufferedBytes] += found;
    if (state[kMissingBytes] === 0) {
      prepend = makeString(state, 0, state[kBufferedBytes], encoding);
      state[kBufferedBytes] = 0;
    }
  }
  let end = bytes.length;
  if (end === start) return prepend;
  if (encoding === UTF8 && bytes[end - 1] & 0x80) {
    // Ended on a non-ASCII byte: find where its character starts and keep it for the next chunk.
    for (let i = end - 1; ; i--) {
      state[kBufferedBytes]++;
      if ((bytes[i] & 0xc0) === 0x80) {
        if (state[kBufferedBytes] >= 4 || i === start) {
          state[kBufferedBytes] = 0;
          break;
        }
      } else {
        if ((bytes[i] & 0xe0) === 0xc0) state[kMissingBytes] = 2;
        else if ((bytes[i] & 0xf0) === 0xe0) state[kMissingBytes] = 3;
        else if ((bytes[i] & 0xf8) === 0xf0) state[kMissingBytes] = 4;
        else {
          state[kBufferedBytes] = 0;
          break;
        }
        if (state[kBufferedBytes] >= state[kMissingBytes]) {
          state[kMissingBytes] = 0;
          state[kBufferedBytes] = 0;
        }
        state[kMissingBytes] -= state[kBufferedBytes];
        break;
      }
    }
  } else if (encoding === UCS2) {
    if ((end - start) % 2 === 1) {
      state[kBufferedBytes] = 1;
      state[kMissingBytes] = 1;
    } else if ((bytes[end - 1] & 0xfc) === 0xd8) {
      state[kBufferedBytes] = 2;
      state[kMissingBytes] = 2;
    }
  } else if (encoding === BASE64 || encoding === BASE64URL) {
    state[kBufferedBytes] = (end - start) % 3;
    if (state[kBufferedBytes] > 0) state[kMissingBytes] = 3 - state[kBufferedBytes];
  }
  if (state[kBufferedBytes] > 0) {
    end -= state[kBufferedBytes];
    state.set(bytes.subarray(end, end + state[kBufferedBytes]), 0);
  }
  return prepend + (end > start ? makeString(bytes, start, end, encoding) : '');
}

function flush(state) {
  const encoding = state[kEncodingField];
  if (encoding === UCS2 && state[kBufferedBytes] % 2 === 1) {
    // A single trailing byte is dropped.
    state[kMissingBytes]--;
    state[kBufferedBytes]--;
  }
  if (state[kBufferedBytes] === 0) return '';
  const out = makeString(state, 0, state[kBufferedBytes], encoding);
  state[kMissingBytes] = 0;
  state[kBufferedBytes] = 0;
  return out;
}

function decoderState(self) {
  const state = self?.[kNativeDecoder];
  if (state === undefined) throw nodeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type StringDecoder');
  return state;
}

export function StringDecoder(encoding) {
  this.encoding = normalizeEncoding(encoding);
  this[kNativeDecoder] = BufferClass.alloc(7);
  this[kNativeDecoder][kEncodingField] = ENCODINGS.indexOf(this.encoding);
}

StringDecoder.prototype.write = function write(buf) {
  if (typeof buf === 'string') return buf;
  if (!ArrayBuffer.isView(buf)) throw invalidArgType('buf', 'an instance of Buffer, TypedArray, or DataView', buf);
  const state = decoderState(this);
  return decode(state, BufferClass.from(buf.buffer, buf.byteOffset, buf.byteLength));
};

StringDecoder.prototype.end = function end(buf) {
  let ret = '';
  if (buf !== undefined) ret = this.write(buf);
  const state = decoderState(this);
  if (state[kBufferedBytes] > 0) ret += flush(state);
  return ret;
};

/** Node's internal `text(buf, offset)`: decodes from `offset` with no character pending. */
StringDecoder.prototype.text = function text(buf, offset) {
  const state = decoderState(this);
  state[kMissingBytes] = 0;
  state[kBufferedBytes] = 0;
  return this.write(buf.slice(offset));
};

Object.defineProperties(StringDecoder.prototype, {
  lastChar: { configurable: true, enumerable: true, get() { return decoderState(this).subarray(0, kMissingBytes); } },
  lastNeed: { configurable: true, enumerable: true, get() { return decoderState(this)[kMissingBytes]; } },
  lastTotal: { configurable: true, enumerable: true, get() { const s = decoderState(this); return s[kBufferedBytes] + s[kMissingBytes]; } },
});

/** The module object; `Buffer` is passed in by the buffer part that owns it. */
export function stringDecoderModule(Buffer) {
  BufferClass = Buffer;
  return { StringDecoder };
}
