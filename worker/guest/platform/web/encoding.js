// TextEncoder and TextDecoder (Encoding Standard). UTF-8, UTF-16LE/BE, x-user-defined and
// ISO-2022-JP's state machine (iso-2022-jp.js) decode here; the legacy single- and multi-byte
// encodings decode on the host (op encoding.decode, ICU),
// which keeps their tables out of the guest.
import { encodingForLabel } from './encoding-labels.js';
import { nodeError } from './errors.js';
import { describeType } from './microtask.js';
import { op } from './host.js';
import { BULK_MIN, hostToBytes, hostToText } from './bulk-codec.js';
import { Iso2022JpDecoder } from './iso-2022-jp.js';

const CHUNK = 8192;

/** UTF-8 bytes of a string; lone surrogates become U+FFFD. */
export function utf8Encode(input) {
  const s = String(input);
  const n = s.length;
  if (n > BULK_MIN) return hostToBytes(s, 'utf8');
  let out = new Uint8Array(n + (n >> 1) + 8);
  let o = 0;
  for (let i = 0; i < n; i++) {
    let c = s.charCodeAt(i);
    if (o + 4 > out.length) {
      const bigger = new Uint8Array(out.length * 2 + 8);
      bigger.set(out);
      out = bigger;
    }
    if (c < 0x80) { out[o++] = c; continue; }
    if (c < 0x800) {
      out[o++] = 0xc0 | (c >> 6);
      out[o++] = 0x80 | (c & 63);
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = i + 1 < n ? s.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
        out[o++] = 0xf0 | (c >> 18);
        out[o++] = 0x80 | ((c >> 12) & 63);
        out[o++] = 0x80 | ((c >> 6) & 63);
        out[o++] = 0x80 | (c & 63);
        continue;
      }
      c = 0xfffd;
    }
    out[o++] = 0xe0 | (c >> 12);
    out[o++] = 0x80 | ((c >> 6) & 63);
    out[o++] = 0x80 | (c & 63);
  }
  return out.slice(0, o);
}

/** Collects UTF-16 code units and joins them into a string in chunks. */
class StringSink {
  constructor() {
    this.parts = [];
    this.units = new Uint16Array(CHUNK);
    this.n = 0;
  }
  unit(u) {
    if (this.n === CHUNK) this.flush();
    this.units[this.n++] = u;
  }
  codePoint(cp) {
    if (cp < 0x10000) this.unit(cp);
    else {
      cp -= 0x10000;
      this.unit(0xd800 + (cp >> 10));
      this.unit(0xdc00 + (cp & 0x3ff));
    }
  }
  flush() {
    if (this.n > 0) this.parts.push(String.fromCharCode.apply(null, this.units.subarray(0, this.n)));
    this.n = 0;
  }
  text() {
    this.flush();
    return this.parts.length === 1 ? this.parts[0] : this.parts.join('');
  }
}

function invalidData(encoding) {
  return nodeError(TypeError, 'ERR_ENCODING_INVALID_ENCODED_DATA', `The encoded data was not valid for encoding ${encoding}`);
}

/** The WHATWG UTF-8 decoder, streaming. */
class Utf8Decoder {
  constructor(fatal) {
    this.fatal = fatal;
    this.needed = 0;
    this.seen = 0;
    this.cp = 0;
    this.lower = 0x80;
    this.upper = 0xbf;
  }
  error(sink) {
    if (this.fatal) throw invalidData('utf-8');
    sink.unit(0xfffd);
  }
  decode(bytes, sink, flush) {
    const n = bytes.length;
    let i = 0;
    while (i < n) {
      const b = bytes[i];
      if (this.needed === 0) {
        if (b < 0x80) {
          // ASCII run: copy it in one go.
          let j = i + 1;
          while (j < n && bytes[j] < 0x80 && j - i < CHUNK) j++;
          if (j - i > 16) {
            sink.flush();
            sink.parts.push(String.fromCharCode.apply(null, bytes.subarray(i, j)));
          } else {
            for (let k = i; k < j; k++) sink.unit(bytes[k]);
          }
          i = j;
          continue;
        }
        i++;
        if (b >= 0xc2 && b <= 0xdf) { this.needed = 1; this.cp = b & 0x1f; }
        else if (b >= 0xe0 && b <= 0xef) {
          if (b === 0xe0) this.lower = 0xa0;
          if (b === 0xed) this.upper = 0x9f;
          this.needed = 2;
          this.cp = b & 0xf;
        } else if (b >= 0xf0 && b <= 0xf4) {
          if (b === 0xf0) this.lower = 0x90;
          if (b === 0xf4) this.upper = 0x8f;
          this.needed = 3;
          this.cp = b & 0x7;
        } else this.error(sink);
        continue;
      }
      if (b < this.lower || b > this.upper) {
        this.cp = this.needed = this.seen = 0;
        this.lower = 0x80;
        this.upper = 0xbf;
        this.error(sink);
        continue; // the byte is processed again as a lead byte
      }
      i++;
      this.lower = 0x80;
      this.upper = 0xbf;
      this.cp = (this.cp << 6) | (b & 0x3f);
      if (++this.seen === this.needed) {
        sink.codePoint(this.cp);
        this.cp = this.needed = this.seen = 0;
      }
    }
    if (flush && this.needed !== 0) {
      this.cp = this.needed = this.seen = 0;
      this.lower = 0x80;
      this.upper = 0xbf;
      this.error(sink);
    }
  }
}

/** The WHATWG shared UTF-16 decoder, streaming. */
class Utf16Decoder {
  constructor(fatal, bigEndian) {
    this.fatal = fatal;
    this.be = bigEndian;
    this.leadByte = -1;
    this.leadSurrogate = -1;
    this.name = bigEndian ? 'utf-16be' : 'utf-16le';
  }
  error(sink) {
    if (this.fatal) throw invalidData(this.name);
    sink.unit(0xfffd);
  }
  decode(bytes, sink, flush) {
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i];
      if (this.leadByte < 0) { this.leadByte = b; continue; }
      const unit = this.be ? (this.leadByte << 8) | b : (b << 8) | this.leadByte;
      this.leadByte = -1;
      if (this.leadSurrogate >= 0) {
        const lead = this.leadSurrogate;
        this.leadSurrogate = -1;
        if (unit >= 0xdc00 && unit <= 0xdfff) {
          sink.unit(lead);
          sink.unit(unit);
          continue;
        }
        this.error(sink);
      }
      if (unit >= 0xd800 && unit <= 0xdbff) { this.leadSurrogate = unit; continue; }
      if (unit >= 0xdc00 && unit <= 0xdfff) { this.error(sink); continue; }
      sink.unit(unit);
    }
    if (flush && (this.leadByte >= 0 || this.leadSurrogate >= 0)) {
      this.leadByte = -1;
      this.leadSurrogate = -1;
      this.error(sink);
    }
  }
}

class UserDefinedDecoder {
  decode(bytes, sink) {
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i];
      sink.unit(b < 0x80 ? b : 0xf780 + b - 0x80);
    }
  }
}

/**
 * Legacy encodings on the host. A streaming decode keeps back the trailing bytes of an
 * incomplete character (the host reports how many) and prepends them to the next chunk.
 */
class HostDecoder {
  constructor(encoding, fatal) {
    this.encoding = encoding;
    this.fatal = fatal;
    this.pending = new Uint8Array(0);
  }
  decode(bytes, sink, flush) {
    let input = bytes;
    if (this.pending.length > 0) {
      input = new Uint8Array(this.pending.length + bytes.length);
      input.set(this.pending);
      input.set(bytes, this.pending.length);
    }
    const r = op('encoding.decode', { encoding: this.encoding, fatal: this.fatal, stream: !flush }, input);
    this.pending = r.rest > 0 ? input.slice(input.length - r.rest) : new Uint8Array(0);
    sink.flush();
    sink.parts.push(r.text);
  }
}

/**
 * decode()'s input as bytes. Node words the TypeError by the decoder it picked: its UTF-8 decoder
 * names a "list", its Latin-1 one (windows-1252) tells what it received, ICU's neither.
 */
function toBytes(input, encoding) {
  if (input === undefined) return new Uint8Array(0);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  // A brand check: the platform's captured SharedArrayBuffer is not the script's on every engine.
  if (input instanceof ArrayBuffer || Object.prototype.toString.call(input) === '[object SharedArrayBuffer]') return new Uint8Array(input);
  if (encoding === 'utf-8') throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "list" argument must be an instance of SharedArrayBuffer, ArrayBuffer or ArrayBufferView.');
  if (encoding === 'windows-1252') throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "input" argument must be an instance of ArrayBuffer or ArrayBufferView. Received ${describeType(input)}`);
  throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "input" argument must be an instance of SharedArrayBuffer, ArrayBuffer or ArrayBufferView.');
}

/** A WebIDL dictionary argument: undefined, null or an object (Node's ERR_INVALID_ARG_TYPE otherwise). */
function checkOptions(options) {
  if (options !== undefined && options !== null && typeof options !== 'object') {
    throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "options" argument must be of type object. Received ${describeType(options)}`);
  }
}

function makeDecoder(encoding, fatal) {
  switch (encoding) {
    case 'utf-8': return new Utf8Decoder(fatal);
    case 'utf-16le': return new Utf16Decoder(fatal, false);
    case 'utf-16be': return new Utf16Decoder(fatal, true);
    case 'x-user-defined': return new UserDefinedDecoder();
    case 'iso-2022-jp': return new Iso2022JpDecoder(fatal, () => invalidData('iso-2022-jp'));
    default: return new HostDecoder(encoding, fatal);
  }
}

const decoders = new WeakMap();

function dec(d) {
  const s = decoders.get(d);
  if (s === undefined) throw nodeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type TextDecoder');
  return s;
}

export class TextDecoder {
  constructor(label = 'utf-8', options = undefined) {
    const encoding = encodingForLabel(label);
    if (encoding === undefined || encoding === 'replacement') {
      // Node names the encoding a replacement label maps to (iso-2022-kr → "replacement").
      throw nodeError(RangeError, 'ERR_ENCODING_NOT_SUPPORTED', `The "${encoding ?? String(label)}" encoding is not supported`);
    }
    checkOptions(options);
    const fatal = !!options?.fatal;
    const ignoreBOM = !!options?.ignoreBOM;
    if (encoding !== 'utf-8' && encoding !== 'utf-16le' && encoding !== 'utf-16be' && encoding !== 'x-user-defined') {
      // Fail at construction, as the spec wants, if the host cannot decode this encoding.
      if (!op('encoding.supported', encoding)) throw nodeError(RangeError, 'ERR_ENCODING_NOT_SUPPORTED', `The "${String(label)}" encoding is not supported`);
    }
    decoders.set(this, { encoding, fatal, ignoreBOM, decoder: undefined, bomSeen: false });
  }
  decode(input = undefined, options = undefined) {
    const s = dec(this);
    const bytes = toBytes(input, s.encoding);
    checkOptions(options);
    const stream = !!options?.stream;
    // A whole (not streamed) non-fatal UTF-8 input of some size: the host's decoder (WHATWG too).
    if (!stream && s.decoder === undefined && s.encoding === 'utf-8' && !s.fatal && bytes.length > BULK_MIN) {
      let text = hostToText(bytes, 'utf8');
      if (!s.ignoreBOM && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      return text;
    }
    if (s.decoder === undefined) {
      s.decoder = makeDecoder(s.encoding, s.fatal);
      s.bomSeen = false;
    }
    const sink = new StringSink();
    try {
      s.decoder.decode(bytes, sink, !stream);
    } catch (e) {
      s.decoder = undefined;
      throw e;
    }
    let text = sink.text();
    if (!s.bomSeen && text.length > 0) {
      s.bomSeen = true;
      const bomAware = s.encoding === 'utf-8' || s.encoding === 'utf-16le' || s.encoding === 'utf-16be';
      if (bomAware && !s.ignoreBOM && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (!stream) s.decoder = undefined;
    return text;
  }
  get encoding() { return dec(this).encoding; }
  get fatal() { return dec(this).fatal; }
  get ignoreBOM() { return dec(this).ignoreBOM; }
  // util.inspect as Node shows a decoder: its class's name and the three attributes (Node
  // inspects them with default options), the decoder itself past the depth limit.
  [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
    const s = dec(this);
    if (typeof depth === 'number' && depth < 0) return this;
    const name = Object.getPrototypeOf(this)?.constructor?.name || 'TextDecoder';
    return `${name} ${inspect({ encoding: s.encoding, fatal: s.fatal, ignoreBOM: s.ignoreBOM })}`;
  }
}
Object.defineProperty(TextDecoder.prototype, Symbol.toStringTag, { value: 'TextDecoder', configurable: true });

export class TextEncoder {
  // WebIDL's brand check, with Node's error: the methods refuse a receiver that is not a TextEncoder.
  #brand = true;
  static #check(self) {
    if (self === null || typeof self !== 'object' || !(#brand in self)) throw nodeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type TextEncoder');
  }
  get encoding() { TextEncoder.#check(this); return 'utf-8'; }
  // util.inspect as Node shows an encoder: a plain object with its encoding.
  [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
    TextEncoder.#check(this);
    if (typeof depth === 'number' && depth < 0) return this;
    return inspect({ encoding: 'utf-8' }, options);
  }
  encode(input = '') {
    TextEncoder.#check(this);
    return utf8Encode(input);
  }
  encodeInto(source, destination) {
    TextEncoder.#check(this);
    if (!(destination instanceof Uint8Array)) {
      throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "dest" argument must be an instance of Uint8Array. Received ${describeType(destination)}`);
    }
    const s = String(source);
    let read = 0;
    let written = 0;
    const cap = destination.length;
    for (let i = 0; i < s.length; i++) {
      let c = s.charCodeAt(i);
      let units = 1;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
        const d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) { c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00); units = 2; }
      }
      if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
      const size = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
      if (written + size > cap) break;
      if (size === 1) destination[written] = c;
      else if (size === 2) { destination[written] = 0xc0 | (c >> 6); destination[written + 1] = 0x80 | (c & 63); }
      else if (size === 3) {
        destination[written] = 0xe0 | (c >> 12);
        destination[written + 1] = 0x80 | ((c >> 6) & 63);
        destination[written + 2] = 0x80 | (c & 63);
      } else {
        destination[written] = 0xf0 | (c >> 18);
        destination[written + 1] = 0x80 | ((c >> 12) & 63);
        destination[written + 2] = 0x80 | ((c >> 6) & 63);
        destination[written + 3] = 0x80 | (c & 63);
      }
      written += size;
      read += units;
      i += units - 1;
    }
    return { read, written };
  }
}
Object.defineProperty(TextEncoder.prototype, Symbol.toStringTag, { value: 'TextEncoder', configurable: true });

/** UTF-8 decode with replacement (what URL, Blob.text() and friends use). */
/** The Encoding Standard's "UTF-8 decode": a leading byte order mark is dropped (Body and Blob text). */
export function utf8DecodeBom(bytes) {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return utf8Decode(bom ? bytes.subarray(3) : bytes);
}

export function utf8Decode(bytes) {
  if (bytes.length > BULK_MIN) return hostToText(bytes, 'utf8');
  const sink = new StringSink();
  new Utf8Decoder(false).decode(bytes, sink, true);
  return sink.text();
}
