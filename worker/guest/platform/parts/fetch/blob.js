// Blob and File (File API). The bytes live in the guest; stream() loads the streams part.
import core from 'runjs:part/core';

const { utf8Encode, utf8DecodeBom, registerCloneable, requirePart } = core.shared;
const blobs = new WeakMap(); // Blob → { bytes, type }
const FILE = Symbol('file'); // File's call of the Blob constructor

function b(blob) {
  const s = blobs.get(blob);
  if (s === undefined) throw new TypeError('Illegal invocation');
  return s;
}

// ToString (WebIDL DOMString/USVString): a Symbol is a TypeError, unlike String(symbol).
const toStr = (v) => `${v}`;

function normalizeType(t) {
  const s = toStr(t);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return '';
  }
  return s.toLowerCase();
}

// The WebIDL conversions of the constructors' arguments, left to right: the sequence first (its
// @@iterator read once, each element converted as it is reached: a Blob, a BufferSource, else
// ToString), then the options dictionary (undefined, null or an object; its members read once,
// in lexicographic order).
function convertParts(blobParts, what) {
  if (blobParts === undefined) return [];
  const method = typeof blobParts === 'object' && blobParts !== null || typeof blobParts === 'function' ? blobParts[Symbol.iterator] : undefined;
  if (typeof method !== 'function') throw new TypeError(`Failed to construct '${what}': The provided value cannot be converted to a sequence.`);
  const parts = [];
  const it = method.call(blobParts);
  for (;;) {
    const step = it.next();
    if (step.done) break;
    const part = step.value;
    parts.push(part instanceof Blob || ArrayBuffer.isView(part) || part instanceof ArrayBuffer ? part : toStr(part));
  }
  return parts;
}

function dictionary(options, what) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' && typeof options !== 'function') {
    throw new TypeError(`Failed to construct '${what}': The provided value is not of type '${what === 'File' ? 'FilePropertyBag' : 'BlobPropertyBag'}'.`);
  }
  return options;
}

function convertOptions(o, what) {
  const e = o.endings;
  const endings = e === undefined ? 'transparent' : toStr(e);
  if (endings !== 'transparent' && endings !== 'native') {
    throw new TypeError(`Failed to construct '${what}': The provided value '${endings}' is not a valid enum value of type EndingType.`);
  }
  const t = o.type;
  return { endings, type: t === undefined ? '' : normalizeType(t) };
}

function partBytes(part, endings) {
  if (part instanceof Blob) return b(part).bytes;
  if (ArrayBuffer.isView(part)) return new Uint8Array(part.buffer, part.byteOffset, part.byteLength);
  if (part instanceof ArrayBuffer) return new Uint8Array(part);
  return utf8Encode(endings === 'native' ? part.replace(/\r\n|\r/g, '\n') : part);
}

function init(blob, parts, { endings, type }) {
  const chunks = parts.map((part) => partBytes(part, endings));
  let size = 0;
  for (const c of chunks) size += c.length;
  const bytes = new Uint8Array(size);
  let o = 0;
  for (const c of chunks) { bytes.set(c, o); o += c.length; }
  blobs.set(blob, { bytes, type });
}

/** Blob contents, for the platform (Body, FormData). */
export function blobBytes(blob) {
  return b(blob).bytes;
}

/** WebIDL's [Clamp] long long conversion of a number. */
function clampLongLong(x) {
  if (Number.isNaN(x)) return 0;
  const c = Math.min(Math.max(x, -(2 ** 63)), 2 ** 63 - 1);
  const f = Math.floor(c);
  const diff = c - f;
  if (diff > 0.5 || (diff === 0.5 && f % 2 !== 0)) return f + 1 === 0 ? 0 : f + 1;
  return f === 0 ? 0 : f;
}

export class Blob {
  constructor(blobParts = undefined, options = undefined) {
    if (blobParts === FILE) return; // File converts its own arguments, then fills the Blob in
    const parts = convertParts(blobParts, 'Blob');
    init(this, parts, convertOptions(dictionary(options, 'Blob'), 'Blob'));
  }
  get size() { return b(this).bytes.length; }
  get type() { return b(this).type; }
  // util.inspect as Node shows a Blob (and a File, which adds its name and lastModified).
  [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
    if (typeof depth === 'number' && depth < 0) return this;
    const opts = { ...options, depth: options.depth == null ? null : options.depth - 1 };
    const file = files.get(this);
    const shown = file === undefined ? { size: this.size, type: this.type } : { size: this.size, type: this.type, name: file.name, lastModified: file.lastModified };
    return `${file === undefined ? 'Blob' : 'File'} ${inspect(shown, opts)}`;
  }
  slice(start = undefined, end = undefined, contentType = undefined) {
    const { bytes } = b(this);
    const n = bytes.length;
    // start and end are [Clamp] long longs (NaN is 0, infinities clamp to the range, fractions
    // round to the nearest integer, ties to even), relative to the end when negative.
    const rel = (v, d) => {
      if (v === undefined) return d;
      const i = clampLongLong(Number(v));
      return i < 0 ? Math.max(n + i, 0) : Math.min(i, n);
    };
    const from = rel(start, 0);
    const to = rel(end, n);
    const out = new Blob([], { type: contentType === undefined ? '' : toStr(contentType) });
    b(out).bytes = bytes.slice(from, Math.max(from, to));
    return out;
  }
  async text() { return utf8DecodeBom(b(this).bytes); }
  async arrayBuffer() { return b(this).bytes.slice().buffer; }
  async bytes() { return b(this).bytes.slice(); }
  stream() {
    const bytes = b(this).bytes;
    const { ReadableStream } = requirePart('streams').globals;
    let offset = 0;
    return new ReadableStream({
      type: 'bytes',
      pull(controller) {
        // A pending BYOB read is filled in place; at the end it must be answered with respond(0),
        // or it would never settle (close() alone does not complete a pending pull-into).
        const request = controller.byobRequest;
        if (offset >= bytes.length) {
          controller.close();
          request?.respond(0);
          return;
        }
        if (request) {
          const view = request.view;
          const n = Math.min(view.byteLength, bytes.length - offset);
          new Uint8Array(view.buffer, view.byteOffset, n).set(bytes.subarray(offset, offset + n));
          offset += n;
          request.respond(n);
          return;
        }
        const end = Math.min(bytes.length, offset + 65536);
        controller.enqueue(bytes.slice(offset, end));
        offset = end;
      },
    });
  }
}
Object.defineProperty(Blob.prototype, Symbol.toStringTag, { value: 'Blob', configurable: true });

const files = new WeakMap();
export class File extends Blob {
  constructor(fileBits, fileName, options = undefined) {
    if (arguments.length < 2) throw new TypeError(`Failed to construct 'File': 2 arguments required, but only ${arguments.length} present.`);
    const parts = convertParts(fileBits, 'File');
    const name = toStr(fileName);
    const o = dictionary(options, 'File');
    const blobOptions = convertOptions(o, 'File');
    const lm = o.lastModified;
    // lastModified is a long long: NaN and infinities become 0, fractions are truncated.
    const n = lm === undefined ? Date.now() : Number(lm);
    super(FILE);
    init(this, parts, blobOptions);
    files.set(this, { name, lastModified: Number.isFinite(n) ? Math.trunc(n) || 0 : 0 });
  }
  get name() { return files.get(this).name; }
  get lastModified() { return files.get(this).lastModified; }
  get webkitRelativePath() { return ''; }
}
Object.defineProperty(File.prototype, Symbol.toStringTag, { value: 'File', configurable: true });

registerCloneable(Blob, (v) => (v instanceof File
  ? new File([v], v.name, { type: v.type, lastModified: v.lastModified })
  : new Blob([v], { type: v.type })));
