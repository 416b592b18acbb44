// The byte formats of filesystem snapshots. A snapshot is a tree of directory nodes over the
// content-addressed blob store; its id (the "CA id") is the blob key of the root node, so equal
// trees have equal ids and a subtree that did not change keeps its key and is never rewritten.
//
// Every stored object is `[encoding byte][payload]`: 0 = raw, 1 = zstd (kept only when smaller).
// Payloads:
// - file content: the file's bytes (files up to CHUNKED_FILE_BYTES), or a chunk list (larger files);
// - directory leaf   `RJT1` 0x00 varint(count) entries sorted by name bytes;
// - directory index  `RJT1` 0x01 varint(depth) u16(bitmap) 32-byte keys of the present buckets:
//   a directory with more than MAX_LEAF_ENTRIES names is split into 16 buckets by the `depth`-th
//   hex digit of sha256(name), recursively. The shape depends only on the set of entries, so ids
//   stay canonical, and an edit in a huge directory rewrites one bucket, not every name;
// - chunk list       `RJC1` varint(count) (varint(length) 32-byte key) per chunk.
// Entry: varint(name length) name, type byte, then by type: file/chunked = varint(mode)
// varint(size) key; dir = key; symlink = varint(target length) target.
// Names are validated on both write and read (tree-paths.ts): a stored tree cannot smuggle `..`,
// `/` or NUL into the mount slice.
import { createHash } from 'node:crypto';
import { checkName } from './tree-paths.ts';

export const TREE_MAGIC = 'RJT1';
export const CHUNKS_MAGIC = 'RJC1';
export const MAX_LEAF_ENTRIES = 128;
/** Files above this size are cut into content-defined chunks (fs-chunker.ts). */
export const CHUNKED_FILE_BYTES = 256 * 1024;
const KEY_BYTES = 32;

export type FileEntry = { readonly kind: 'file'; readonly mode: number; readonly size: number; readonly id: string; readonly chunked: boolean };
export type DirEntry = { readonly kind: 'dir'; readonly id: string };
export type SymlinkEntry = { readonly kind: 'symlink'; readonly target: string };
export type TreeEntry = FileEntry | DirEntry | SymlinkEntry;

export type TreeNode =
  | { readonly type: 'leaf'; readonly entries: ReadonlyMap<string, TreeEntry> }
  | { readonly type: 'index'; readonly depth: number; readonly buckets: readonly (string | undefined)[] };

export interface ChunkRef { readonly length: number; readonly id: string }

const TYPE = { file: 1, dir: 2, symlink: 3, chunked: 4 } as const;

/** A malformed stored object: reported as corrupt, never half-parsed. */
export class TreeFormatError extends Error {
  override readonly name = 'TreeFormatError';
}

/** Appends into one growing buffer (a directory node of 50 entries was ~300 tiny arrays and a concat). */
class Writer {
  #buf = Buffer.allocUnsafe(1024);
  #at = 0;
  #room(n: number): void {
    if (this.#at + n <= this.#buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.#buf.length * 2, this.#at + n));
    this.#buf.copy(next, 0, 0, this.#at);
    this.#buf = next;
  }
  bytes(b: Uint8Array): void {
    this.#room(b.length);
    this.#buf.set(b, this.#at);
    this.#at += b.length;
  }
  text(s: string): void { this.bytes(Buffer.from(s, 'utf8')); }
  byte(n: number): void {
    this.#room(1);
    this.#buf[this.#at++] = n;
  }
  varint(n: number): void {
    this.#room(8);
    let v = n;
    while (v >= 0x80) { this.#buf[this.#at++] = (v % 0x80) | 0x80; v = Math.floor(v / 0x80); }
    this.#buf[this.#at++] = v;
  }
  key(hex: string): void { this.bytes(Buffer.from(hex, 'hex')); }
  done(): Uint8Array { return this.#buf.subarray(0, this.#at); }
}

class Reader {
  #at = 0;
  readonly buf: Uint8Array;
  constructor(buf: Uint8Array) { this.buf = buf; }
  get done(): boolean { return this.#at === this.buf.length; }
  take(n: number): Uint8Array {
    if (n < 0 || this.#at + n > this.buf.length) throw new TreeFormatError('truncated object');
    const out = this.buf.subarray(this.#at, this.#at + n);
    this.#at += n;
    return out;
  }
  byte(): number { return this.take(1)[0]!; }
  varint(): number {
    let n = 0;
    for (let shift = 1, i = 0; i < 8; i++, shift *= 0x80) {
      const b = this.byte();
      n += (b & 0x7f) * shift;
      if ((b & 0x80) === 0) return n;
    }
    throw new TreeFormatError('varint too long');
  }
  key(): string { return Buffer.from(this.take(KEY_BYTES)).toString('hex'); }
  text(n: number): string {
    const b = this.take(n);
    const s = Buffer.from(b).toString('utf8');
    if (!Buffer.from(s, 'utf8').equals(b)) throw new TreeFormatError('name is not valid UTF-8');
    return s;
  }
}

/** Byte order of UTF-8 names: the order entries are stored in, independent of locale. */
export function compareNames(a: string, b: string): number {
  // UTF-16 code units order like UTF-8 bytes up to the first difference, unless that difference
  // involves a surrogate or a character above them (U+E000…): then the bytes decide.
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x < 0xd800 && y < 0xd800) return x < y ? -1 : 1;
    return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

export function encodeLeaf(entries: ReadonlyMap<string, TreeEntry>): Uint8Array {
  const w = new Writer();
  w.text(TREE_MAGIC);
  w.byte(0);
  const names = [...entries.keys()].sort(compareNames);
  w.varint(names.length);
  for (const name of names) {
    const e = entries.get(name)!;
    const nameBytes = Buffer.from(name, 'utf8');
    w.varint(nameBytes.length);
    w.bytes(nameBytes);
    if (e.kind === 'file') {
      w.byte(e.chunked ? TYPE.chunked : TYPE.file);
      w.varint(e.mode);
      w.varint(e.size);
      w.key(e.id);
    } else if (e.kind === 'dir') {
      w.byte(TYPE.dir);
      w.key(e.id);
    } else {
      const t = Buffer.from(e.target, 'utf8');
      w.byte(TYPE.symlink);
      w.varint(t.length);
      w.bytes(t);
    }
  }
  return w.done();
}

export function encodeIndex(depth: number, buckets: readonly (string | undefined)[]): Uint8Array {
  const w = new Writer();
  w.text(TREE_MAGIC);
  w.byte(1);
  w.varint(depth);
  let bitmap = 0;
  buckets.forEach((k, i) => { if (k !== undefined) bitmap |= 1 << i; });
  w.bytes(Uint8Array.of(bitmap >> 8, bitmap & 0xff));
  for (const k of buckets) if (k !== undefined) w.key(k);
  return w.done();
}

export function decodeTree(payload: Uint8Array): TreeNode {
  const r = new Reader(payload);
  if (Buffer.from(r.take(4)).toString('latin1') !== TREE_MAGIC) throw new TreeFormatError('not a tree node');
  const type = r.byte();
  if (type === 1) {
    const depth = r.varint();
    const [hi, lo] = r.take(2);
    const bitmap = (hi! << 8) | lo!;
    const buckets = Array.from({ length: 16 }, (_, i) => ((bitmap >> i) & 1 ? r.key() : undefined));
    if (!r.done) throw new TreeFormatError('trailing bytes');
    return { type: 'index', depth, buckets };
  }
  if (type !== 0) throw new TreeFormatError(`unknown node type ${type}`);
  const count = r.varint();
  const entries = new Map<string, TreeEntry>();
  let previous: string | undefined;
  for (let i = 0; i < count; i++) {
    const name = r.text(r.varint());
    const bad = checkName(name);
    if (bad !== undefined) throw new TreeFormatError(`entry name ${JSON.stringify(name.slice(0, 40))}: ${bad}`);
    if (previous !== undefined && compareNames(previous, name) >= 0) throw new TreeFormatError('entries are not sorted or repeat a name');
    previous = name;
    const t = r.byte();
    if (t === TYPE.file || t === TYPE.chunked) entries.set(name, { kind: 'file', mode: r.varint(), size: r.varint(), id: r.key(), chunked: t === TYPE.chunked });
    else if (t === TYPE.dir) entries.set(name, { kind: 'dir', id: r.key() });
    else if (t === TYPE.symlink) entries.set(name, { kind: 'symlink', target: r.text(r.varint()) });
    else throw new TreeFormatError(`unknown entry type ${t}`);
  }
  if (!r.done) throw new TreeFormatError('trailing bytes');
  return { type: 'leaf', entries };
}

export function encodeChunkList(chunks: readonly ChunkRef[]): Uint8Array {
  const w = new Writer();
  w.text(CHUNKS_MAGIC);
  w.varint(chunks.length);
  for (const c of chunks) { w.varint(c.length); w.key(c.id); }
  return w.done();
}

export function decodeChunkList(payload: Uint8Array): ChunkRef[] {
  const r = new Reader(payload);
  if (Buffer.from(r.take(4)).toString('latin1') !== CHUNKS_MAGIC) throw new TreeFormatError('not a chunk list');
  const n = r.varint();
  const out: ChunkRef[] = [];
  for (let i = 0; i < n; i++) out.push({ length: r.varint(), id: r.key() });
  if (!r.done) throw new TreeFormatError('trailing bytes');
  return out;
}

/** Which of 16 buckets `name` falls in at `depth` (0..63): a hex digit of sha256(name). */
export function bucketOf(name: string, depth: number): number {
  const digest = createHash('sha256').update(name, 'utf8').digest();
  const byte = digest[Math.floor(depth / 2) % KEY_BYTES]!;
  return depth % 2 === 0 ? byte >> 4 : byte & 0x0f;
}

/** Entries equal as stored (same kind, mode, content and target). */
export function sameEntry(a: TreeEntry | undefined, b: TreeEntry | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.kind !== b.kind) return false;
  if (a.kind === 'file' && b.kind === 'file') return a.id === b.id && a.mode === b.mode;
  if (a.kind === 'dir' && b.kind === 'dir') return a.id === b.id;
  return a.kind === 'symlink' && b.kind === 'symlink' && a.target === b.target;
}
