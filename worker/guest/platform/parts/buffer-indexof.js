// Buffer#indexOf, #lastIndexOf and #includes as Node's lib/buffer.js and src/node_buffer.cc do
// them: the offset conversions (a string offset is the encoding; NaN searches everything), how
// an offset outside the buffer is clamped (IndexOfOffset), an empty needle found at the clamped
// offset, any Uint8Array as a needle, and UTF-16 needles matched on 2-byte boundaries.
import core from 'runjs:part/core';

const { nodeError, invalidArgType } = core.shared;

const ENCODINGS = {
  utf8: 'utf8', 'utf-8': 'utf8', ucs2: 'utf16le', 'ucs-2': 'utf16le', utf16le: 'utf16le', 'utf-16le': 'utf16le',
  latin1: 'latin1', binary: 'latin1', base64: 'base64', base64url: 'base64url', hex: 'hex', ascii: 'ascii',
};

/** Node's IndexOfOffset: where a search starts, or -1 when it cannot match. */
function startOffset(length, offset, needleLength, forward) {
  if (offset < 0) {
    if (offset + length >= 0) return length + offset;
    return forward || needleLength === 0 ? 0 : -1;
  }
  if (offset + needleLength <= length) return offset;
  if (needleLength === 0) return length;
  return forward ? -1 : length - 1;
}

/** First (or last) index >= (or <=) `start` where `needle` occurs in `hay`, in units of `step` bytes. */
function search(hay, hayLength, needle, start, forward, step) {
  const units = Math.floor(hayLength / step);
  const n = needle.length / step;
  const at = (i) => {
    for (let j = 0; j < needle.length; j++) if (hay[i * step + j] !== needle[j]) return false;
    return true;
  };
  let i = Math.floor(start / step);
  if (forward) {
    for (; i + n <= units; i++) if (at(i)) return i * step;
  } else {
    if (i > units - n) i = units - n;
    for (; i >= 0; i--) if (at(i)) return i * step;
  }
  return -1;
}

function indexOfBytes(buffer, needle, offset, forward, step) {
  const length = buffer.length;
  const start = startOffset(length, offset, needle.length, forward);
  if (needle.length === 0) return start;
  if (length === 0 || start <= -1) return -1;
  if ((forward && needle.length + start > length) || needle.length > length) return -1;
  if (step === 2 && (length < 2 || needle.length < 2)) return -1;
  return search(buffer, length, needle, start, forward, step);
}

function bidirectionalIndexOf(Buffer, buffer, value, byteOffset, encoding, forward) {
  if (!(buffer instanceof Uint8Array)) throw invalidArgType('buffer', 'an instance of Buffer, TypedArray, or DataView', buffer);
  if (typeof byteOffset === 'string') {
    encoding = byteOffset;
    byteOffset = undefined;
  } else if (byteOffset > 0x7fffffff) byteOffset = 0x7fffffff;
  else if (byteOffset < -0x80000000) byteOffset = -0x80000000;
  byteOffset = +byteOffset;
  if (Number.isNaN(byteOffset)) byteOffset = forward ? 0 : buffer.length;
  byteOffset = Math.trunc(byteOffset);
  if (typeof value === 'number') {
    const byte = (value >>> 0) & 0xff;
    const start = startOffset(buffer.length, byteOffset, 1, forward);
    if (start <= -1 || buffer.length === 0) return -1;
    return forward ? Uint8Array.prototype.indexOf.call(buffer, byte, start) : Uint8Array.prototype.lastIndexOf.call(buffer, byte, start);
  }
  const enc = encoding === undefined ? 'utf8' : ENCODINGS[`${encoding}`.toLowerCase()];
  if (typeof value === 'string') {
    if (enc === undefined) throw nodeError(TypeError, 'ERR_UNKNOWN_ENCODING', `Unknown encoding: ${encoding}`);
    return indexOfBytes(buffer, Buffer.from(value, enc), byteOffset, forward, enc === 'utf16le' ? 2 : 1);
  }
  if (value instanceof Uint8Array) return indexOfBytes(buffer, value, byteOffset, forward, enc === 'utf16le' ? 2 : 1);
  throw invalidArgType('value', 'one of type number or string or an instance of Buffer or Uint8Array', value);
}

export function installIndexOf(Buffer) {
  const define = (name, value) => Object.defineProperty(Buffer.prototype, name, { value, writable: true, configurable: true, enumerable: true });
  define('indexOf', function indexOf(value, byteOffset, encoding) { return bidirectionalIndexOf(Buffer, this, value, byteOffset, encoding, true); });
  define('lastIndexOf', function lastIndexOf(value, byteOffset, encoding) { return bidirectionalIndexOf(Buffer, this, value, byteOffset, encoding, false); });
  define('includes', function includes(value, byteOffset, encoding) { return this.indexOf(value, byteOffset, encoding) !== -1; });
}
