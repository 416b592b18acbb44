// The Body mixin (Fetch Standard) shared by Request and Response: extracting a body from what a
// script passes, and reading it back as text, JSON, bytes, a Blob or FormData.
import core from 'runjs:part/core';
import { Blob, blobBytes } from './blob.js';
import { FormData, encodeMultipart, parseMultipart } from './form-data.js';

const { utf8Encode, utf8Decode, utf8DecodeBom, parseUrlencoded, requirePart } = core.shared;
const { URLSearchParams } = core.globals;

function streams() {
  return requirePart('streams').globals;
}

/** A body: bytes (possibly empty) or a ReadableStream, plus the Content-Type it implies. */
export function extractBody(init) {
  if (init === null || init === undefined) return { bytes: null, stream: null, type: null };
  if (typeof init === 'string') return { bytes: utf8Encode(init), stream: null, type: 'text/plain;charset=UTF-8' };
  if (init instanceof URLSearchParams) return { bytes: utf8Encode(init.toString()), stream: null, type: 'application/x-www-form-urlencoded;charset=UTF-8' };
  if (init instanceof FormData) {
    const { bytes, type } = encodeMultipart(init);
    return { bytes, stream: null, type };
  }
  if (init instanceof Blob) return { bytes: blobBytes(init), stream: null, type: init.type === '' ? null : init.type };
  if (ArrayBuffer.isView(init)) return { bytes: new Uint8Array(init.buffer, init.byteOffset, init.byteLength).slice(), stream: null, type: null };
  if (init instanceof ArrayBuffer) return { bytes: new Uint8Array(init).slice(), stream: null, type: null };
  if (typeof init === 'object' && typeof init.getReader === 'function' && init instanceof streams().ReadableStream) {
    // Fetch's extract: a stream that is locked, or was ever read from (even once released), is refused.
    if (init.locked || isDisturbed(init)) throw new TypeError('Response body object should not be disturbed or locked');
    return { bytes: null, stream: init, type: null };
  }
  if (typeof init === 'object' && typeof init[Symbol.asyncIterator] === 'function') {
    return { bytes: null, stream: streams().ReadableStream.from(init), type: null };
  }
  return { bytes: utf8Encode(String(init)), stream: null, type: 'text/plain;charset=UTF-8' };
}

const bodies = new WeakMap(); // Request/Response → { bytes, stream, used }

export function setBody(target, body) {
  bodies.set(target, { bytes: body.bytes, stream: body.stream, used: false });
}

export function bodyOf(target) {
  const s = bodies.get(target);
  if (s === undefined) throw new TypeError('Illegal invocation');
  return s;
}

export function hasBody(target) {
  const s = bodyOf(target);
  return s.bytes !== null || s.stream !== null;
}

/** A stream for the body, created from its bytes on first access. */
export function bodyStream(target) {
  const s = bodyOf(target);
  if (s.stream === null && s.bytes !== null) {
    const bytes = s.bytes;
    s.stream = new (streams().ReadableStream)({
      type: 'bytes',
      start(controller) {
        if (bytes.length > 0) controller.enqueue(bytes.slice());
        controller.close();
      },
    });
    s.bytes = null;
  }
  return s.stream;
}

async function consume(target) {
  const s = bodyOf(target);
  if (s.used || (s.stream !== null && (s.stream.locked || isDisturbed(s.stream)))) throw new TypeError('Body is unusable: Body has already been read');
  s.used = true;
  if (s.stream === null) return s.bytes === null ? new Uint8Array(0) : s.bytes;
  const reader = s.stream.getReader();
  const chunks = [];
  let n = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (!ArrayBuffer.isView(value)) throw new TypeError('Received non-Uint8Array chunk');
    const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    chunks.push(bytes);
    n += bytes.length;
  }
  const out = new Uint8Array(n);
  let o = 0;
  for (const c of chunks) { out.set(c, o); o += c.length; }
  return out;
}

/** Whether a stream was ever read from (web-streams-polyfill's internal flag). */
function isDisturbed(stream) {
  return stream._disturbed === true;
}

/** Installs the Body methods on a class whose instances have `headers`. */
export function mixinBody(Cls) {
  const methods = {
    get body() { return bodyStream(this); },
    get bodyUsed() {
      const s = bodyOf(this);
      return s.used || (s.stream !== null && isDisturbed(s.stream));
    },
    async arrayBuffer() { return (await consume(this)).slice().buffer; },
    async bytes() { return (await consume(this)).slice(); },
    async text() { return utf8DecodeBom(await consume(this)); },
    async json() { return JSON.parse(utf8DecodeBom(await consume(this))); },
    async blob() {
      const bytes = await consume(this);
      return new Blob([bytes], { type: this.headers.get('content-type') ?? '' });
    },
    async formData() {
      const bytes = await consume(this);
      const type = this.headers.get('content-type') ?? '';
      if (/^multipart\/form-data/i.test(type)) return parseMultipart(bytes, type);
      if (/^application\/x-www-form-urlencoded/i.test(type)) {
        const fd = new FormData();
        for (const [k, v] of parseUrlencoded(utf8Decode(bytes))) fd.append(k, v);
        return fd;
      }
      throw new TypeError(`Failed to parse body as FormData: unsupported content type '${type}'`);
    },
  };
  for (const key of Object.keys(Object.getOwnPropertyDescriptors(methods))) {
    const d = Object.getOwnPropertyDescriptor(methods, key);
    d.enumerable = true;
    Object.defineProperty(Cls.prototype, key, d);
  }
}

/** The body for a clone: the stream is teed, bytes are shared (they are never mutated). */
export function cloneBody(target) {
  const s = bodyOf(target);
  if (s.used) throw new TypeError('Body has already been consumed');
  if (s.stream === null) return { bytes: s.bytes, stream: null };
  const [a, b] = s.stream.tee();
  s.stream = a;
  return { bytes: null, stream: b };
}
