// Blob and File (File API). The bytes live in the guest; stream() loads the streams part.
import core from 'runjs:part/core';

const { utf8Encode, utf8Decode, registerCloneable, requirePart } = core.shared;
const blobs = new WeakMap(); // Blob → { bytes, type }

function b(blob) {
  const s = blobs.get(blob);
  if (s === undefined) throw new TypeError('Illegal invocation');
  return s;
}

function normalizeType(t) {
  const s = String(t);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return '';
  }
  return s.toLowerCase();
}

function partBytes(part, endings) {
  if (part instanceof Blob) return b(part).bytes;
  if (ArrayBuffer.isView(part)) return new Uint8Array(part.buffer, part.byteOffset, part.byteLength);
  if (part instanceof ArrayBuffer) return new Uint8Array(part);
  let s = String(part);
  if (endings === 'native') s = s.replace(/\r\n|\r/g, '\n');
  return utf8Encode(s);
}

/** Blob contents, for the platform (Body, FormData). */
export function blobBytes(blob) {
  return b(blob).bytes;
}

export class Blob {
  constructor(blobParts = undefined, options = undefined) {
    if (blobParts !== undefined && (typeof blobParts !== 'object' || blobParts === null || typeof blobParts[Symbol.iterator] !== 'function')) {
      throw new TypeError("Failed to construct 'Blob': The provided value cannot be converted to a sequence.");
    }
    const endings = options?.endings === undefined ? 'transparent' : String(options.endings);
    if (endings !== 'transparent' && endings !== 'native') {
      throw new TypeError(`Failed to construct 'Blob': The provided value '${endings}' is not a valid enum value of type EndingType.`);
    }
    const chunks = [];
    let size = 0;
    if (blobParts !== undefined) {
      for (const part of blobParts) {
        const bytes = partBytes(part, endings);
        chunks.push(bytes);
        size += bytes.length;
      }
    }
    const bytes = new Uint8Array(size);
    let o = 0;
    for (const c of chunks) { bytes.set(c, o); o += c.length; }
    blobs.set(this, { bytes, type: options?.type === undefined ? '' : normalizeType(options.type) });
  }
  get size() { return b(this).bytes.length; }
  get type() { return b(this).type; }
  slice(start = undefined, end = undefined, contentType = undefined) {
    const { bytes } = b(this);
    const n = bytes.length;
    const rel = (v, d) => (v === undefined ? d : v < 0 ? Math.max(n + Math.trunc(v), 0) : Math.min(Math.trunc(v), n));
    const from = rel(start === undefined ? undefined : Number(start), 0);
    const to = rel(end === undefined ? undefined : Number(end), n);
    const out = new Blob([], { type: contentType === undefined ? '' : contentType });
    b(out).bytes = bytes.slice(from, Math.max(from, to));
    return out;
  }
  async text() { return utf8Decode(b(this).bytes); }
  async arrayBuffer() { return b(this).bytes.slice().buffer; }
  async bytes() { return b(this).bytes.slice(); }
  stream() {
    const bytes = b(this).bytes;
    const { ReadableStream } = requirePart('streams').globals;
    let offset = 0;
    return new ReadableStream({
      type: 'bytes',
      pull(controller) {
        if (offset >= bytes.length) {
          controller.close();
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
    super(fileBits, options);
    const lm = options?.lastModified;
    files.set(this, { name: String(fileName), lastModified: lm === undefined ? Date.now() : Number(lm) });
  }
  get name() { return files.get(this).name; }
  get lastModified() { return files.get(this).lastModified; }
  get webkitRelativePath() { return ''; }
}
Object.defineProperty(File.prototype, Symbol.toStringTag, { value: 'File', configurable: true });

registerCloneable(Blob, (v) => (v instanceof File
  ? new File([v], v.name, { type: v.type, lastModified: v.lastModified })
  : new Blob([v], { type: v.type })));
