// FormData (XMLHttpRequest Standard) and its multipart/form-data encoding and parsing.
import core from 'runjs:part/core';
import { Blob, File, blobBytes } from './blob.js';

const { utf8Encode, utf8Decode, randomBytes } = core.shared;
const lists = new WeakMap();

function l(fd) {
  const v = lists.get(fd);
  if (v === undefined) throw new TypeError('Illegal invocation');
  return v;
}

function usv(v) {
  const s = String(v);
  return typeof s.toWellFormed === 'function' ? s.toWellFormed() : s;
}

function entry(name, value, filename, method) {
  if (value instanceof Blob) {
    if (!(value instanceof File) || filename !== undefined) {
      value = new File([value], filename === undefined ? (value instanceof File ? value.name : 'blob') : usv(filename), { type: value.type, lastModified: value instanceof File ? value.lastModified : undefined });
    }
    return [usv(name), value];
  }
  if (filename !== undefined) throw new TypeError(`Failed to execute '${method}' on 'FormData': parameter 2 is not of type 'Blob'.`);
  return [usv(name), usv(value)];
}

export class FormData {
  constructor(form = undefined) {
    if (form !== undefined) throw new TypeError("Failed to construct 'FormData': parameter 1 is not of type 'HTMLFormElement'.");
    lists.set(this, []);
  }
  append(name, value, filename = undefined) {
    if (arguments.length < 2) throw new TypeError(`Failed to execute 'append' on 'FormData': 2 arguments required, but only ${arguments.length} present.`);
    l(this).push(entry(name, value, filename, 'append'));
  }
  delete(name) {
    const list = l(this);
    const n = usv(name);
    for (let i = list.length - 1; i >= 0; i--) if (list[i][0] === n) list.splice(i, 1);
  }
  get(name) {
    const n = usv(name);
    for (const [k, v] of l(this)) if (k === n) return v;
    return null;
  }
  getAll(name) {
    const n = usv(name);
    return l(this).filter(([k]) => k === n).map(([, v]) => v);
  }
  has(name) {
    const n = usv(name);
    return l(this).some(([k]) => k === n);
  }
  set(name, value, filename = undefined) {
    if (arguments.length < 2) throw new TypeError(`Failed to execute 'set' on 'FormData': 2 arguments required, but only ${arguments.length} present.`);
    const e = entry(name, value, filename, 'set');
    const list = l(this);
    const i = list.findIndex(([k]) => k === e[0]);
    if (i < 0) { list.push(e); return; }
    list[i] = e;
    for (let j = list.length - 1; j > i; j--) if (list[j][0] === e[0]) list.splice(j, 1);
  }
  forEach(callback, thisArg = undefined) {
    for (const [k, v] of l(this).slice()) callback.call(thisArg, v, k, this);
  }
  *entries() {
    const list = l(this);
    for (let i = 0; i < list.length; i++) yield [list[i][0], list[i][1]];
  }
  *keys() { for (const [k] of this.entries()) yield k; }
  *values() { for (const [, v] of this.entries()) yield v; }
  [Symbol.iterator]() { return this.entries(); }
}
Object.defineProperty(FormData.prototype, Symbol.toStringTag, { value: 'FormData', configurable: true });

const escapeName = (s) => s.replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/"/g, '%22');

/** multipart/form-data body of `fd`: { bytes, type }. */
export function encodeMultipart(fd) {
  const boundary = `----runjs${Array.from(randomBytes(12), (x) => x.toString(16).padStart(2, '0')).join('')}`;
  const chunks = [];
  for (const [name, value] of l(fd)) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(name)}"`;
    if (typeof value === 'string') {
      chunks.push(utf8Encode(`${head}\r\n\r\n`), utf8Encode(value.replace(/\r(?!\n)|(?<!\r)\n/g, '\r\n')), utf8Encode('\r\n'));
    } else {
      head += `; filename="${escapeName(value.name)}"\r\nContent-Type: ${value.type || 'application/octet-stream'}\r\n\r\n`;
      chunks.push(utf8Encode(head), blobBytes(value), utf8Encode('\r\n'));
    }
  }
  chunks.push(utf8Encode(`--${boundary}--\r\n`));
  let n = 0;
  for (const c of chunks) n += c.length;
  const bytes = new Uint8Array(n);
  let o = 0;
  for (const c of chunks) { bytes.set(c, o); o += c.length; }
  return { bytes, type: `multipart/form-data; boundary=${boundary}` };
}

function indexOf(hay, needle, from) {
  outer: for (let i = from; i <= hay.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

function param(header, key) {
  const m = new RegExp(`;\\s*${key}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(header) ?? new RegExp(`;\\s*${key}=([^;\\s]*)`, 'i').exec(header);
  return m === null ? undefined : m[1].replace(/%22/g, '"').replace(/%0D/g, '\r').replace(/%0A/g, '\n');
}

/** Parses a multipart/form-data body into a FormData (throws TypeError when malformed). */
export function parseMultipart(bytes, contentType) {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (boundary === null) throw new TypeError('Failed to parse body as FormData: missing boundary');
  const delimiter = utf8Encode(`--${boundary[1] ?? boundary[2]}`);
  const fd = new FormData();
  let pos = indexOf(bytes, delimiter, 0);
  if (pos < 0) throw new TypeError('Failed to parse body as FormData');
  for (;;) {
    pos += delimiter.length;
    if (bytes[pos] === 0x2d && bytes[pos + 1] === 0x2d) return fd;
    if (bytes[pos] === 0x0d && bytes[pos + 1] === 0x0a) pos += 2;
    const headerEnd = indexOf(bytes, utf8Encode('\r\n\r\n'), pos);
    if (headerEnd < 0) throw new TypeError('Failed to parse body as FormData');
    const headers = utf8Decode(bytes.subarray(pos, headerEnd)).split('\r\n');
    const next = indexOf(bytes, delimiter, headerEnd + 4);
    if (next < 0) throw new TypeError('Failed to parse body as FormData');
    const body = bytes.subarray(headerEnd + 4, next - 2);
    let disposition = '';
    let type = '';
    for (const h of headers) {
      const i = h.indexOf(':');
      const key = h.slice(0, i).trim().toLowerCase();
      if (key === 'content-disposition') disposition = h.slice(i + 1);
      else if (key === 'content-type') type = h.slice(i + 1).trim();
    }
    const name = param(disposition, 'name');
    if (name === undefined) throw new TypeError('Failed to parse body as FormData: a part has no name');
    const filename = param(disposition, 'filename');
    if (filename !== undefined) fd.append(name, new File([body.slice()], filename, { type }));
    else fd.append(name, utf8Decode(body));
    pos = next;
  }
}
