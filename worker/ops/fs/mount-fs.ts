// The filesystem a run sees: an in-memory tree whose directory /work starts as the mounted
// snapshot (shared/fs-mount.ts's MountImage) and takes the run's writes. Nothing else exists:
// "/" holds only "work" and is read-only, so no path reaches the host. Every operation is
// synchronous (node:fs's sync API needs that; the promise and callback APIs wrap it in the guest).
// At the end of a completed run, `changes()` lists what differs from the image, which the
// supervisor commits into a new snapshot. Caps (bytes written, entries) fail with ENOSPC.
//
// Lazy reads: the image holds the tree's structure; a file's bytes are fetched (synchronously,
// `ObjectFetcher`) the first time an operation needs them. Fetched bytes that still equal the
// stored content are kept up to MAX_RESIDENT_BYTES, least recently used dropped first (they are
// immutable and fetched again when needed); written bytes stay until the run ends.
import { OpError } from '../op-types.ts';
import { MAX_FETCH_BYTES, MAX_NAME_BYTES, MAX_PATH_BYTES, MAX_RESIDENT_BYTES, MOUNT_POINT, type MountChange, type MountEntry, type MountImage, type MountLimits } from '../../../shared/fs-mount.ts';

/** Fetches a file's bytes by content id for the run (worker/runtime/object-channel.ts); throws an OpError on failure. */
export type ObjectFetcher = (id: string) => Uint8Array;

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const MAX_SYMLINK_HOPS = 40;

interface Times { mtimeMs: number; ctimeMs: number; atimeMs: number; readonly birthtimeMs: number; readonly ino: number }
interface DirNode extends Times { readonly kind: 'dir'; mode: number; readonly entries: Map<string, Node> }
/**
 * `content`: the content id while the bytes are the stored content (`data` then may be undefined,
 * not fetched yet or dropped); undefined once the run wrote them. `size` is the stored size.
 */
interface FileNode extends Times { readonly kind: 'file'; mode: number; data: Uint8Array | undefined; content: string | undefined; size: number; origin: string | undefined; dirty: boolean }
interface LinkNode extends Times { readonly kind: 'symlink'; mode: number; readonly target: string; origin: string | undefined; dirty: boolean }
type Node = DirNode | FileNode | LinkNode;

export interface StatInfo {
  readonly type: 'file' | 'dir' | 'symlink';
  readonly mode: number;
  readonly size: number;
  readonly ino: number;
  readonly nlink: number;
  readonly atimeMs: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly birthtimeMs: number;
}

const MESSAGES: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EEXIST: 'file already exists',
  ENOTDIR: 'not a directory',
  EISDIR: 'illegal operation on a directory',
  ENOTEMPTY: 'directory not empty',
  EINVAL: 'invalid argument',
  ELOOP: 'too many symbolic links encountered',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  ENAMETOOLONG: 'name too long',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EFBIG: 'file too large',
  EIO: 'i/o error',
};

/** A Node-shaped fs error: `ENOENT: no such file or directory, open '/work/x'` with `code`. */
export function fsError(code: string, syscall: string, path: string, detail?: string): OpError {
  const why = detail ?? MESSAGES[code] ?? code;
  return new OpError(`${code}: ${why}, ${syscall} '${path}'`, 'Error', code);
}

function isNameOk(name: string): boolean {
  return Buffer.byteLength(name) <= MAX_NAME_BYTES;
}

/** The change that puts leaf `n` at `path`. */
function changeOf(path: string, n: FileNode | LinkNode): MountChange {
  if (n.kind === 'symlink') return { path, kind: 'symlink', target: n.target };
  // Moved or re-moded but never written: the content travels by id, not as bytes.
  if (n.content !== undefined) return { path, kind: 'file', mode: n.mode, id: n.content };
  return { path, kind: 'file', mode: n.mode, bytes: n.data ?? new Uint8Array(0) };
}

/** What walking a path found: the directory that holds (or would hold) its last component. */
interface Found {
  readonly parent: DirNode;
  readonly name: string;
  readonly node: Node | undefined;
  /** The canonical path ("/work/a/b"), symlinks resolved as walked. */
  readonly path: string;
  /** The parent is "/", which holds only "work" and is read-only. */
  readonly atRoot: boolean;
}

export class MountFs {
  readonly #limits: MountLimits;
  readonly #root: DirNode;
  readonly #work: DirNode;
  /** The mounted image's entries (changes() lists the deleted ones). */
  readonly #image: readonly MountEntry[];
  /**
   * Whether any entry was added to or removed from a directory since the mount (a create, mkdir,
   * symlink, remove or rename). Until then every node sits at its image path, so changes() lists
   * the nodes marked dirty instead of walking the whole tree (a run that edits files in place).
   */
  #reshaped = false;
  /** Image files and symlinks the run wrote or re-moded, at their image paths while not #reshaped. */
  readonly #dirty = new Set<FileNode | LinkNode>();
  #entries = 0;
  #written = 0;
  #ino = 1;
  readonly #now: () => number;
  readonly #fetch: ObjectFetcher | undefined;
  /** Fetched, unwritten files holding bytes, least recently used first, and their byte total. */
  readonly #resident = new Map<FileNode, number>();
  #residentBytes = 0;

  constructor(image: MountImage | undefined, limits: MountLimits, fetch?: ObjectFetcher, now: () => number = Date.now) {
    this.#limits = limits;
    this.#now = now;
    this.#fetch = fetch;
    this.#root = this.#dir(0o755);
    this.#work = this.#dir(0o755);
    this.#root.entries.set('work', this.#work);
    // Every entry of the image has the mount time. Entries come depth first, so consecutive ones
    // share their directory: it is looked up by its path once, not walked per entry.
    const at = this.#now();
    const dirs = new Map<string, DirNode>([['', this.#work]]);
    this.#image = image?.entries ?? [];
    let dir = this.#work;
    let dirEnd = -1;
    let dirPath = '';
    for (const e of this.#image) {
      const slash = e.path.lastIndexOf('/');
      // The previous entry's directory when this one's path starts with it (most do): no slice, no lookup.
      if (slash !== dirEnd || (slash >= 0 && !e.path.startsWith(dirPath))) {
        dirEnd = slash;
        dirPath = slash < 0 ? '' : e.path.slice(0, slash + 1);
        dir = this.#imageDir(dirs, slash < 0 ? '' : e.path.slice(0, slash), e.path);
      }
      const name = e.path.slice(slash + 1);
      const node: Node = e.kind === 'file'
        ? { kind: 'file', mode: e.mode & 0o7777, data: e.bytes, content: e.id, size: e.size, origin: e.path, dirty: false, mtimeMs: at, ctimeMs: at, atimeMs: at, birthtimeMs: at, ino: this.#ino++ }
        : { kind: 'symlink', mode: 0o777, target: e.target, origin: e.path, dirty: false, mtimeMs: at, ctimeMs: at, atimeMs: at, birthtimeMs: at, ino: this.#ino++ };
      dir.entries.set(name, node);
      this.#entries++;
    }
  }

  /** The image's directory at `path` (relative to /work), made on first use; `entry` names the entry for errors. */
  #imageDir(dirs: Map<string, DirNode>, path: string, entry: string): DirNode {
    const known = dirs.get(path);
    if (known !== undefined) return known;
    const slash = path.lastIndexOf('/');
    const parent = this.#imageDir(dirs, slash < 0 ? '' : path.slice(0, slash), entry);
    const name = path.slice(slash + 1);
    let next = parent.entries.get(name);
    if (next === undefined) { next = this.#dir(0o755); parent.entries.set(name, next); this.#entries++; }
    if (next.kind !== 'dir') throw new OpError(`runjs: the mounted snapshot is malformed at '${entry}'`);
    dirs.set(path, next);
    return next;
  }

  #times(): Times {
    const now = this.#now();
    return { mtimeMs: now, ctimeMs: now, atimeMs: now, birthtimeMs: now, ino: this.#ino++ };
  }

  #dir(mode: number): DirNode {
    return { kind: 'dir', mode, entries: new Map(), ...this.#times() };
  }

  /** A file's bytes, fetched from the store when the run has not (or no longer) got them. */
  #bytes(node: FileNode, syscall: string, shown: string): Uint8Array {
    if (node.data !== undefined) {
      if (this.#resident.delete(node)) this.#resident.set(node, node.data.byteLength);
      return node.data;
    }
    const id = node.content;
    if (id === undefined) throw fsError('EIO', syscall, shown, 'i/o error: the file has neither bytes nor content');
    if (node.size > MAX_FETCH_BYTES) throw fsError('EFBIG', syscall, shown, `file too large: a run reads at most ${MAX_FETCH_BYTES} bytes of one mounted file`);
    if (this.#fetch === undefined) throw fsError('EIO', syscall, shown, 'i/o error: this filesystem cannot fetch file contents');
    const data = this.#fetch(id);
    if (data.byteLength !== node.size) throw fsError('EIO', syscall, shown, `i/o error: fetched ${data.byteLength} bytes, the snapshot says ${node.size}`);
    node.data = data;
    this.#resident.set(node, data.byteLength);
    this.#residentBytes += data.byteLength;
    for (const [old, n] of this.#resident) {
      if (this.#residentBytes <= MAX_RESIDENT_BYTES || old === node) break;
      this.#resident.delete(old);
      this.#residentBytes -= n;
      old.data = undefined;
    }
    return data;
  }

  /** The file's bytes are the run's own from now on: never dropped, committed as bytes. */
  #own(node: FileNode, data: Uint8Array): void {
    const held = this.#resident.get(node);
    if (held !== undefined) { this.#resident.delete(node); this.#residentBytes -= held; }
    node.data = data;
    node.content = undefined;
    node.size = data.byteLength;
    node.dirty = true;
    this.#dirty.add(node);
  }

  /** The path's components from "/", `.` and `..` resolved; `p` is a guest path (absolute, or relative to "/"). */
  #split(p: unknown, syscall: string, base: readonly string[] = []): string[] {
    if (typeof p !== 'string') throw new OpError(`The "path" argument must be of type string. Received ${typeof p}`, 'TypeError', 'ERR_INVALID_ARG_TYPE');
    if (p.includes('\0')) throw new OpError(`The argument 'path' must be a string without null bytes. Received ${JSON.stringify(p)}`, 'TypeError', 'ERR_INVALID_ARG_VALUE');
    if (Buffer.byteLength(p) > MAX_PATH_BYTES) throw fsError('ENAMETOOLONG', syscall, p);
    const out = p.startsWith('/') ? [] : [...base];
    for (const c of p.split('/')) {
      if (c === '' || c === '.') continue;
      if (c === '..') out.pop();
      else out.push(c);
    }
    return out;
  }

  /**
   * Walks `p`; symlinks in the middle are always followed, the last one when `follow`. A missing
   * last component is fine (node undefined); a missing or non-directory middle one is not.
   */
  #walk(p: unknown, syscall: string, follow: boolean): Found {
    const shown = typeof p === 'string' ? p : '';
    let todo = this.#split(p, syscall);
    let hops = 0;
    for (;;) {
      let dir = this.#root;
      const at: string[] = [];
      let restart: string[] | undefined;
      for (let i = 0; i < todo.length; i++) {
        const name = todo[i]!;
        const last = i === todo.length - 1;
        const node = dir.entries.get(name);
        if (node?.kind === 'symlink' && (!last || follow)) {
          if (++hops > MAX_SYMLINK_HOPS) throw fsError('ELOOP', syscall, shown);
          restart = [...this.#split(node.target, syscall, at), ...todo.slice(i + 1)];
          break;
        }
        if (last) return { parent: dir, name, node, path: `/${[...at, name].join('/')}`, atRoot: dir === this.#root };
        if (node === undefined) throw fsError('ENOENT', syscall, shown);
        if (node.kind !== 'dir') throw fsError('ENOTDIR', syscall, shown);
        at.push(name);
        dir = node;
      }
      if (restart === undefined) return { parent: this.#root, name: '', node: this.#root, path: '/', atRoot: true };
      todo = restart;
    }
  }

  #existing(p: unknown, syscall: string, follow = true): Found & { node: Node } {
    const f = this.#walk(p, syscall, follow);
    if (f.node === undefined) throw fsError('ENOENT', syscall, String(p));
    return f as Found & { node: Node };
  }

  /** A place to create an entry: inside /work, with a name the store accepts. */
  #writable(f: Found, syscall: string, shown: string): void {
    if (f.atRoot || f.node === this.#root) throw fsError('EROFS', syscall, shown);
    if (!isNameOk(f.name)) throw fsError('ENAMETOOLONG', syscall, shown);
  }

  #addEntries(n: number, syscall: string, shown: string): void {
    if (this.#entries + n > this.#limits.maxEntries) {
      throw fsError('ENOSPC', syscall, shown, `no space left on device: the run's filesystem holds at most ${this.#limits.maxEntries} entries`);
    }
    this.#entries += n;
  }

  #addWritten(n: number, syscall: string, shown: string): void {
    if (this.#written + n > this.#limits.maxWriteBytes) {
      throw fsError('ENOSPC', syscall, shown, `no space left on device: a run may write at most ${this.#limits.maxWriteBytes} bytes`);
    }
    this.#written += n;
  }

  #info(n: Node): StatInfo {
    const size = n.kind === 'file' ? n.data?.byteLength ?? n.size : n.kind === 'symlink' ? Buffer.byteLength(n.target) : 4096;
    const type = n.kind === 'file' ? S_IFREG : n.kind === 'dir' ? S_IFDIR : S_IFLNK;
    return {
      type: n.kind, mode: type | (n.mode & ~S_IFMT), size, ino: n.ino, nlink: n.kind === 'dir' ? 2 : 1,
      atimeMs: n.atimeMs, mtimeMs: n.mtimeMs, ctimeMs: n.ctimeMs, birthtimeMs: n.birthtimeMs,
    };
  }

  stat(p: unknown, follow: boolean): StatInfo {
    return this.#info(this.#existing(p, follow ? 'stat' : 'lstat', follow).node);
  }

  exists(p: unknown): boolean {
    try {
      return this.#walk(p, 'access', true).node !== undefined;
    } catch (e) {
      if (e instanceof OpError && e.guestName === 'TypeError') throw e;
      return false;
    }
  }

  readFile(p: unknown): Uint8Array {
    const { node } = this.#existing(p, 'open');
    if (node.kind === 'dir') throw fsError('EISDIR', 'read', String(p));
    if (node.kind !== 'file') throw fsError('EINVAL', 'read', String(p));
    node.atimeMs = this.#now();
    return this.#bytes(node, 'read', String(p));
  }

  /** writeFile/appendFile: `flag` w (replace), a (append), wx/ax (must not exist). */
  writeFile(p: unknown, bytes: Uint8Array, flag: string, mode: number | undefined): void {
    const shown = String(p);
    const f = this.#walk(p, 'open', true);
    const exclusive = flag.includes('x');
    const append = flag.startsWith('a');
    if (f.node !== undefined) {
      if (exclusive) throw fsError('EEXIST', 'open', shown);
      if (f.node.kind === 'dir') throw fsError('EISDIR', 'open', shown);
      if (f.node.kind !== 'file') throw fsError('EINVAL', 'open', shown);
      if (f.atRoot) throw fsError('EROFS', 'open', shown);
      this.#addWritten(bytes.byteLength, 'write', shown);
      const node = f.node;
      if (append) {
        const old = this.#bytes(node, 'open', shown);
        const joined = new Uint8Array(old.byteLength + bytes.byteLength);
        joined.set(old, 0);
        joined.set(bytes, old.byteLength);
        this.#own(node, joined);
      } else {
        this.#own(node, new Uint8Array(bytes));
      }
      node.mtimeMs = node.ctimeMs = this.#now();
      return;
    }
    this.#writable(f, 'open', shown);
    this.#addWritten(bytes.byteLength, 'write', shown);
    this.#addEntries(1, 'open', shown);
    this.#reshaped = true;
    f.parent.entries.set(f.name, { kind: 'file', mode: (mode ?? 0o644) & 0o7777, data: new Uint8Array(bytes), content: undefined, size: bytes.byteLength, origin: undefined, dirty: true, ...this.#times() });
    f.parent.mtimeMs = this.#now();
  }

  /** Writes `bytes` at `position` of an existing file (extending it with zeros if needed). */
  pwrite(p: unknown, bytes: Uint8Array, position: number): void {
    const shown = String(p);
    const { node, atRoot } = this.#existing(p, 'write');
    if (node.kind !== 'file' || atRoot) throw fsError(node.kind === 'dir' ? 'EISDIR' : 'EINVAL', 'write', shown);
    const at = Math.max(0, Math.trunc(position));
    const end = at + bytes.byteLength;
    const old = this.#bytes(node, 'write', shown);
    this.#addWritten(Math.max(bytes.byteLength, end - old.byteLength), 'write', shown);
    let data = old;
    if (end > data.byteLength) {
      data = new Uint8Array(end);
      data.set(old);
    } else if (data.byteLength > 0) {
      data = new Uint8Array(data);
    }
    data.set(bytes, at);
    this.#own(node, data);
    node.mtimeMs = node.ctimeMs = this.#now();
  }

  truncate(p: unknown, len: number): void {
    const shown = String(p);
    const { node } = this.#existing(p, 'open');
    if (node.kind !== 'file') throw fsError('EISDIR', 'open', shown);
    const size = Math.max(0, Math.trunc(len));
    const old = size === 0 ? new Uint8Array(0) : this.#bytes(node, 'open', shown);
    if (size > old.byteLength) this.#addWritten(size - old.byteLength, 'write', shown);
    const data = new Uint8Array(size);
    data.set(old.subarray(0, size));
    this.#own(node, data);
    node.mtimeMs = node.ctimeMs = this.#now();
  }

  readdir(p: unknown): { name: string; type: 'file' | 'dir' | 'symlink' }[] {
    const { node } = this.#existing(p, 'scandir');
    if (node.kind !== 'dir') throw fsError('ENOTDIR', 'scandir', String(p));
    return [...node.entries].map(([name, n]) => ({ name, type: n.kind })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Returns the first directory created (recursive) or undefined. */
  mkdir(p: unknown, recursive: boolean, mode: number | undefined): string | undefined {
    const shown = String(p);
    if (!recursive) {
      const f = this.#walk(p, 'mkdir', false);
      if (f.node !== undefined) throw fsError('EEXIST', 'mkdir', shown);
      this.#writable(f, 'mkdir', shown);
      this.#addEntries(1, 'mkdir', shown);
      this.#reshaped = true;
      f.parent.entries.set(f.name, this.#dir((mode ?? 0o755) & 0o7777));
      return undefined;
    }
    const parts = this.#split(p, 'mkdir');
    let first: string | undefined;
    for (let i = 1; i <= parts.length; i++) {
      const sub = `/${parts.slice(0, i).join('/')}`;
      const f = this.#walk(sub, 'mkdir', true);
      if (f.node !== undefined) {
        if (f.node.kind !== 'dir') throw fsError(i === parts.length ? 'EEXIST' : 'ENOTDIR', 'mkdir', shown);
        continue;
      }
      this.#writable(f, 'mkdir', shown);
      this.#addEntries(1, 'mkdir', shown);
      this.#reshaped = true;
      f.parent.entries.set(f.name, this.#dir((mode ?? 0o755) & 0o7777));
      first ??= sub;
    }
    return first;
  }

  /** mkdtemp: `prefix` plus six random characters, made as a directory. */
  mkdtemp(prefix: unknown): string {
    const chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    for (;;) {
      let suffix = '';
      for (let i = 0; i < 6; i++) suffix += chars[Math.floor(Math.random() * chars.length)];
      const p = `${String(prefix)}${suffix}`;
      if (this.#walk(p, 'mkdtemp', false).node !== undefined) continue;
      this.mkdir(p, false, 0o700);
      return p;
    }
  }

  #count(n: Node): number {
    if (n.kind !== 'dir') return 1;
    let c = 1;
    for (const child of n.entries.values()) c += this.#count(child);
    return c;
  }

  /** rm (`recursive`, `force`), rmdir (`dirOnly`) and unlink (`fileOnly`). */
  remove(p: unknown, how: { recursive?: boolean; force?: boolean; dirOnly?: boolean; fileOnly?: boolean }, syscall: string): void {
    const shown = String(p);
    const f = this.#walk(p, syscall, false);
    if (f.node === undefined) {
      if (how.force === true) return;
      throw fsError('ENOENT', syscall, shown);
    }
    if (f.atRoot || f.node === this.#root || f.node === this.#work) throw fsError(f.node === this.#work ? 'EBUSY' : 'EROFS', syscall, shown, f.node === this.#work ? 'resource busy or locked' : undefined);
    const node = f.node;
    if (how.dirOnly === true && node.kind !== 'dir') throw fsError('ENOTDIR', syscall, shown);
    if (how.fileOnly === true && node.kind === 'dir') throw fsError('EISDIR', syscall, shown);
    if (node.kind === 'dir' && how.dirOnly !== true && how.fileOnly !== true && how.recursive !== true) {
      throw new OpError(`Path is a directory: ${syscall} returned EISDIR (is a directory) ${shown}`, 'Error', 'ERR_FS_EISDIR');
    }
    if (node.kind === 'dir' && node.entries.size > 0 && how.recursive !== true) throw fsError('ENOTEMPTY', syscall, shown);
    this.#reshaped = true;
    f.parent.entries.delete(f.name);
    f.parent.mtimeMs = this.#now();
    this.#entries -= this.#count(node);
  }

  rename(from: unknown, to: unknown): void {
    const src = this.#existing(from, 'rename', false);
    const dst = this.#walk(to, 'rename', false);
    const shown = `${String(from)}' -> '${String(to)}`;
    if (src.atRoot || src.node === this.#work) throw fsError('EBUSY', 'rename', shown, 'resource busy or locked');
    this.#writable(dst, 'rename', shown);
    if (src.node === dst.node) return;
    if (src.node.kind === 'dir' && (dst.path === src.path || dst.path.startsWith(`${src.path}/`))) throw fsError('EINVAL', 'rename', shown);
    if (dst.node !== undefined) {
      if (src.node.kind === 'dir' && dst.node.kind !== 'dir') throw fsError('ENOTDIR', 'rename', shown);
      if (src.node.kind !== 'dir' && dst.node.kind === 'dir') throw fsError('EISDIR', 'rename', shown);
      if (dst.node.kind === 'dir' && dst.node.entries.size > 0) throw fsError('ENOTEMPTY', 'rename', shown);
      this.#entries -= this.#count(dst.node);
    }
    this.#reshaped = true;
    src.parent.entries.delete(src.name);
    dst.parent.entries.set(dst.name, src.node);
    src.node.ctimeMs = src.parent.mtimeMs = dst.parent.mtimeMs = this.#now();
  }

  copyFile(from: unknown, to: unknown, exclusive: boolean): void {
    const shown = String(to);
    const data = this.readFile(from);
    const dst = this.#walk(to, 'copyfile', true);
    if (dst.node !== undefined && exclusive) throw fsError('EEXIST', 'copyfile', `${String(from)}' -> '${shown}`);
    const mode = (this.#existing(from, 'copyfile').node.mode);
    this.writeFile(to, data, 'w', mode);
  }

  symlink(target: unknown, p: unknown): void {
    const shown = String(p);
    if (typeof target !== 'string') throw new OpError(`The "target" argument must be of type string. Received ${typeof target}`, 'TypeError', 'ERR_INVALID_ARG_TYPE');
    this.#split(target, 'symlink');
    const f = this.#walk(p, 'symlink', false);
    if (f.node !== undefined) throw fsError('EEXIST', 'symlink', `${target}' -> '${shown}`);
    this.#writable(f, 'symlink', shown);
    this.#addEntries(1, 'symlink', shown);
    this.#reshaped = true;
    f.parent.entries.set(f.name, { kind: 'symlink', mode: 0o777, target, origin: undefined, dirty: true, ...this.#times() });
  }

  readlink(p: unknown): string {
    const { node } = this.#existing(p, 'readlink', false);
    if (node.kind !== 'symlink') throw fsError('EINVAL', 'readlink', String(p));
    return node.target;
  }

  realpath(p: unknown): string {
    return this.#existing(p, 'realpath').path;
  }

  chmod(p: unknown, mode: number): void {
    const { node, atRoot } = this.#existing(p, 'chmod');
    if (atRoot) throw fsError('EROFS', 'chmod', String(p));
    node.mode = mode & 0o7777;
    node.ctimeMs = this.#now();
    if (node.kind !== 'dir') { node.dirty = true; this.#dirty.add(node); }
  }

  utimes(p: unknown, atimeMs: number, mtimeMs: number, follow: boolean): void {
    const { node } = this.#existing(p, 'utime', follow);
    node.atimeMs = atimeMs;
    node.mtimeMs = mtimeMs;
  }

  /** What differs from the mounted image, as store changes (paths relative to /work); empty when nothing was written. */
  changes(): MountChange[] {
    if (!this.#reshaped) return this.#changedInPlace();
    const out: MountChange[] = [];
    const leaves = new Map<string, FileNode | LinkNode>();
    const dirs = new Set<string>();
    const walk = (dir: DirNode, prefix: string): void => {
      for (const [name, n] of dir.entries) {
        const path = prefix === '' ? name : `${prefix}/${name}`;
        if (n.kind === 'dir') { dirs.add(path); walk(n, path); } else leaves.set(path, n);
      }
    };
    walk(this.#work, '');
    const written = new Set<string>();
    for (const [path, n] of leaves) {
      if (n.origin === path && !n.dirty) continue;
      written.add(path);
      out.push(changeOf(path, n));
    }
    for (const { path } of this.#image) {
      if (leaves.has(path)) continue;
      const parts = path.split('/');
      let underWritten = false;
      for (let i = 1; i < parts.length && !underWritten; i++) underWritten = written.has(parts.slice(0, i).join('/'));
      if (!underWritten) out.push({ path, kind: 'delete' });
    }
    return out;
  }

  /**
   * changes() of a run that never reshaped the tree: its dirty nodes, each at its image path. In
   * image order (nodes are numbered as the image is read), as a walk of an image in depth-first
   * name order, which loadMount sends, lists them; nothing can be deleted.
   */
  #changedInPlace(): MountChange[] {
    return [...this.#dirty].sort((a, b) => a.ino - b.ino).map((n) => changeOf(n.origin!, n));
  }

  static mountPoint = MOUNT_POINT;
}
