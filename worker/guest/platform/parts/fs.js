// node:fs, node:fs/promises and the `fs` global: the run's filesystem, held by the host (op
// fs.call, worker/ops/fs/). /work is the mounted snapshot (or an empty directory); "/" holds only
// "work" and nothing of the host is reachable. Every host call is synchronous and in memory, so
// the callback and promise APIs are the sync API deferred to a microtask. Streams read or write
// whole files through the same calls.
import core from 'runjs:part/core';
import bufferPart from 'runjs:part/buffer';
import streamPart from 'runjs:part/stream';

const { op, opAsync } = core.shared;
/** How fs.call says a policy decision is still to be made (worker/ops/fs/fs-ops.ts POLICY_PENDING). */
const PENDING = 'EACCES: permission denied: a filesystem policy decides this operation';
/** The arguments of the last call that needed a decision (read by `decided`). */
let pendingArgs;
const { Buffer } = bufferPart.globals;
const { Readable, Writable } = streamPart.modules.stream;

const ERRNO = { ENOENT: -2, EEXIST: -17, ENOTDIR: -20, EISDIR: -21, ENOTEMPTY: -39, EINVAL: -22, ELOOP: -40, EROFS: -30, ENOSPC: -28, ENAMETOOLONG: -36, EACCES: -13, EPERM: -1, EBUSY: -16, EBADF: -9 };

const constants = Object.freeze({
  F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1, COPYFILE_EXCL: 1, COPYFILE_FICLONE: 2, COPYFILE_FICLONE_FORCE: 4,
  O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_TRUNC: 512, O_APPEND: 1024,
  S_IFMT: 0o170000, S_IFREG: 0o100000, S_IFDIR: 0o040000, S_IFLNK: 0o120000,
});

function pathArg(p, name = 'path') {
  if (typeof p === 'string') return p;
  if (p instanceof URL) {
    if (p.protocol !== 'file:') {
      const e = new TypeError('The URL must be of scheme file');
      e.code = 'ERR_INVALID_URL_SCHEME';
      throw e;
    }
    return decodeURIComponent(p.pathname);
  }
  if (p instanceof Uint8Array) return Buffer.from(p).toString('utf8');
  const e = new TypeError(`The "${name}" argument must be of type string or an instance of Buffer or URL. Received ${p === null ? 'null' : typeof p}`);
  e.code = 'ERR_INVALID_ARG_TYPE';
  throw e;
}

/** Calls the host; an fs error gets Node's errno, syscall and path. */
function call(args, bytes) {
  try {
    return bytes === undefined ? op('fs.call', args) : op('fs.call', args, bytes);
  } catch (e) {
    if (e !== null && typeof e === 'object' && e.code === 'EACCES' && typeof e.message === 'string' && e.message.startsWith(PENDING)) pendingArgs = args;
    if (e !== null && typeof e === 'object' && typeof e.code === 'string' && ERRNO[e.code] !== undefined) {
      e.errno = ERRNO[e.code];
      const m = /^\w+: [^,]*, (\w+) '/.exec(e.message);
      if (m) e.syscall = m[1];
      if (typeof args.path === 'string') e.path = args.path;
      if (typeof args.dest === 'string') e.dest = args.dest;
    }
    throw e;
  }
}

function encodingOf(options) {
  if (typeof options === 'string') return options;
  if (options !== null && typeof options === 'object' && typeof options.encoding === 'string') return options.encoding;
  return undefined;
}

function toBytes(data, encoding) {
  if (typeof data === 'string') return Buffer.from(data, encoding ?? 'utf8');
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  const e = new TypeError(`The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ${data === null ? 'null' : typeof data}`);
  e.code = 'ERR_INVALID_ARG_TYPE';
  throw e;
}

function decode(bytes, encoding) {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return encoding === undefined || encoding === null || encoding === 'buffer' ? buf : buf.toString(encoding);
}

class Stats {
  constructor(info) {
    this.dev = 1;
    this.ino = info.ino;
    this.mode = info.mode;
    this.nlink = info.nlink;
    this.uid = 1000;
    this.gid = 1000;
    this.rdev = 0;
    this.size = info.size;
    this.blksize = 4096;
    this.blocks = Math.ceil(info.size / 512);
    this.atimeMs = info.atimeMs;
    this.mtimeMs = info.mtimeMs;
    this.ctimeMs = info.ctimeMs;
    this.birthtimeMs = info.birthtimeMs;
    this.atime = new Date(info.atimeMs);
    this.mtime = new Date(info.mtimeMs);
    this.ctime = new Date(info.ctimeMs);
    this.birthtime = new Date(info.birthtimeMs);
  }
  isFile() { return (this.mode & constants.S_IFMT) === constants.S_IFREG; }
  isDirectory() { return (this.mode & constants.S_IFMT) === constants.S_IFDIR; }
  isSymbolicLink() { return (this.mode & constants.S_IFMT) === constants.S_IFLNK; }
  isBlockDevice() { return false; }
  isCharacterDevice() { return false; }
  isFIFO() { return false; }
  isSocket() { return false; }
}

class Dirent {
  constructor(name, type, parentPath) {
    this.name = name;
    this.parentPath = parentPath;
    this.path = parentPath;
    Object.defineProperty(this, '_type', { value: type, enumerable: false });
  }
  isFile() { return this._type === 'file'; }
  isDirectory() { return this._type === 'dir'; }
  isSymbolicLink() { return this._type === 'symlink'; }
  isBlockDevice() { return false; }
  isCharacterDevice() { return false; }
  isFIFO() { return false; }
  isSocket() { return false; }
}

function joinPath(dir, name) {
  return dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`;
}

function readdirSync(path, options) {
  const p = pathArg(path);
  const withFileTypes = options !== null && typeof options === 'object' && options.withFileTypes === true;
  const recursive = options !== null && typeof options === 'object' && options.recursive === true;
  const encoding = encodingOf(options);
  const out = [];
  const visit = (dir, prefix) => {
    for (const { name, type } of call({ op: 'readdir', path: dir })) {
      const rel = prefix === '' ? name : `${prefix}/${name}`;
      if (withFileTypes) out.push(new Dirent(name, type, dir));
      else out.push(encoding === 'buffer' ? Buffer.from(rel) : rel);
      if (recursive && type === 'dir') visit(joinPath(dir, name), rel);
    }
  };
  visit(p, '');
  return out;
}

function statSync(path, options) {
  try {
    return new Stats(call({ op: 'stat', path: pathArg(path) }));
  } catch (e) {
    if (options !== null && typeof options === 'object' && options.throwIfNoEntry === false && e.code === 'ENOENT') return undefined;
    throw e;
  }
}

function lstatSync(path, options) {
  try {
    return new Stats(call({ op: 'lstat', path: pathArg(path) }));
  } catch (e) {
    if (options !== null && typeof options === 'object' && options.throwIfNoEntry === false && e.code === 'ENOENT') return undefined;
    throw e;
  }
}

function flagOf(options, dflt) {
  return options !== null && typeof options === 'object' && typeof options.flag === 'string' ? options.flag : dflt;
}

function modeOf(options) {
  return options !== null && typeof options === 'object' && typeof options.mode === 'number' ? options.mode : undefined;
}

function writeFileSync(path, data, options) {
  call({ op: 'writeFile', path: pathArg(path), flag: flagOf(options, 'w'), mode: modeOf(options) }, toBytes(data, encodingOf(options)));
}

function appendFileSync(path, data, options) {
  call({ op: 'writeFile', path: pathArg(path), flag: flagOf(options, 'a'), mode: modeOf(options) }, toBytes(data, encodingOf(options)));
}

function mkdtempSync(prefix) {
  return call({ op: 'mkdtemp', path: pathArg(prefix, 'prefix') });
}

/**
 * Runs sync API function `fn` for the async APIs: when a call needs a policy decision, asks for it
 * (op fs.check, which rejects with EACCES on a denial) and runs `fn` again; decisions are kept for
 * the run, so each retry gets further.
 */
async function decided(fn, args) {
  for (let attempt = 0; ; attempt++) {
    pendingArgs = undefined;
    try {
      return fn(...args);
    } catch (e) {
      const pending = pendingArgs;
      pendingArgs = undefined;
      if (pending === undefined || attempt >= 100_000) throw e;
      await opAsync('fs.check', pending);
    }
  }
}

function accessSync(path) {
  call({ op: 'stat', path: pathArg(path) });
}

function timeMs(t) {
  if (t instanceof Date) return t.getTime();
  if (typeof t === 'string') return Number(t) * 1000;
  return t * 1000;
}

// File descriptors: a table in the guest of {path, position, append, readable, writable}; reads
// and writes go through the same whole-path calls (pwrite writes at a position on the host).
const fds = new Map();
let nextFd = 3;

function badFd(fd, syscall) {
  const e = new Error(`EBADF: bad file descriptor, ${syscall}`);
  e.code = 'EBADF';
  e.errno = ERRNO.EBADF;
  e.syscall = syscall;
  return e;
}

function fdOf(fd, syscall) {
  const f = typeof fd === 'number' ? fds.get(fd) : undefined;
  if (f === undefined) throw badFd(fd, syscall);
  return f;
}

function flagsOf(flags) {
  if (flags === undefined || flags === null) return 'r';
  if (typeof flags === 'number') {
    const acc = flags & 3;
    let f = acc === 0 ? 'r' : (flags & constants.O_APPEND) !== 0 ? 'a' : (flags & constants.O_TRUNC) !== 0 || (flags & constants.O_CREAT) !== 0 ? 'w' : 'r+';
    if (acc === 2 && f !== 'r+') f += '+';
    if ((flags & constants.O_EXCL) !== 0) f = f[0] + 'x' + f.slice(1);
    return f;
  }
  return String(flags);
}

function openSync(path, flags, mode) {
  const p = pathArg(path);
  const f = flagsOf(flags);
  const kind = f.replace(/[sx]/g, '')[0];
  if (kind === 'r') {
    const st = call({ op: 'stat', path: p });
    if (st.type === 'dir' && f.includes('+')) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, open '${p}'`), { code: 'EISDIR', errno: ERRNO.EISDIR, syscall: 'open', path: p });
  } else if (kind === 'w') {
    call({ op: 'writeFile', path: p, flag: f.includes('x') ? 'wx' : 'w', mode }, new Uint8Array(0));
  } else if (kind === 'a') {
    call({ op: 'writeFile', path: p, flag: f.includes('x') ? 'ax' : 'a', mode }, new Uint8Array(0));
  } else {
    const e = new TypeError(`The value "${f}" is invalid for option "flags"`);
    e.code = 'ERR_INVALID_ARG_VALUE';
    throw e;
  }
  const fd = nextFd++;
  fds.set(fd, { path: p, position: 0, append: kind === 'a', readable: kind === 'r' || f.includes('+'), writable: kind !== 'r' || f.includes('+') });
  return fd;
}

function closeSync(fd) {
  fdOf(fd, 'close');
  fds.delete(fd);
}

function readSync(fd, buffer, offsetOrOptions, length, position) {
  const f = fdOf(fd, 'read');
  if (!f.readable) throw badFd(fd, 'read');
  let offset = offsetOrOptions;
  if (offsetOrOptions !== null && typeof offsetOrOptions === 'object') ({ offset, length, position } = offsetOrOptions);
  offset = offset ?? 0;
  length = length ?? buffer.byteLength - offset;
  const data = call({ op: 'readFile', path: f.path, encoding: 'buffer' });
  const from = typeof position === 'number' && position >= 0 ? position : typeof position === 'bigint' ? Number(position) : f.position;
  const n = Math.max(0, Math.min(length, data.byteLength - from));
  new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength).set(data.subarray(from, from + n), offset);
  if (!(typeof position === 'number' && position >= 0) && typeof position !== 'bigint') f.position += n;
  return n;
}

function writeSync(fd, data, offsetOrPosition, lengthOrEncoding, position) {
  const f = fdOf(fd, 'write');
  if (!f.writable) throw badFd(fd, 'write');
  let bytes;
  let pos;
  if (typeof data === 'string') {
    bytes = toBytes(data, typeof lengthOrEncoding === 'string' ? lengthOrEncoding : 'utf8');
    pos = offsetOrPosition;
  } else {
    const all = toBytes(data);
    const offset = typeof offsetOrPosition === 'number' ? offsetOrPosition : 0;
    const length = typeof lengthOrEncoding === 'number' ? lengthOrEncoding : all.byteLength - offset;
    bytes = all.subarray(offset, offset + length);
    pos = position;
  }
  if (f.append) {
    call({ op: 'writeFile', path: f.path, flag: 'a' }, bytes);
  } else {
    const at = typeof pos === 'number' && pos >= 0 ? pos : f.position;
    call({ op: 'pwrite', path: f.path, position: at }, bytes);
    if (!(typeof pos === 'number' && pos >= 0)) f.position = at + bytes.byteLength;
  }
  return bytes.byteLength;
}

function fstatSync(fd) {
  return new Stats(call({ op: 'stat', path: fdOf(fd, 'fstat').path }));
}

function ftruncateSync(fd, len) {
  call({ op: 'truncate', path: fdOf(fd, 'ftruncate').path, len: len ?? 0 });
}

const sync = {
  openSync,
  closeSync,
  readSync,
  writeSync,
  fstatSync,
  ftruncateSync,
  fsyncSync: (fd) => { fdOf(fd, 'fsync'); },
  fdatasyncSync: (fd) => { fdOf(fd, 'fdatasync'); },
  existsSync: (path) => { try { return call({ op: 'exists', path: pathArg(path) }); } catch { return false; } },
  readFileSync: (path, options) => {
    const encoding = encodingOf(options);
    return decode(call({ op: 'readFile', path: pathArg(path), encoding: encoding === undefined || encoding === 'buffer' ? 'buffer' : 'utf8' }), encoding);
  },
  writeFileSync,
  appendFileSync,
  readdirSync,
  statSync,
  lstatSync,
  mkdirSync: (path, options) => {
    const recursive = options !== null && typeof options === 'object' && options.recursive === true;
    const first = call({ op: 'mkdir', path: pathArg(path), recursive, mode: typeof options === 'number' ? options : modeOf(options) });
    return recursive ? first ?? undefined : undefined;
  },
  mkdtempSync,
  rmSync: (path, options) => call({ op: 'rm', path: pathArg(path), recursive: options?.recursive === true, force: options?.force === true }),
  rmdirSync: (path, options) => call({ op: 'rmdir', path: pathArg(path), recursive: options?.recursive === true }),
  unlinkSync: (path) => call({ op: 'unlink', path: pathArg(path) }),
  renameSync: (from, to) => call({ op: 'rename', path: pathArg(from, 'oldPath'), dest: pathArg(to, 'newPath') }),
  copyFileSync: (from, to, mode) => call({ op: 'copyFile', path: pathArg(from, 'src'), dest: pathArg(to, 'dest'), exclusive: ((mode ?? 0) & constants.COPYFILE_EXCL) !== 0 }),
  symlinkSync: (target, path) => call({ op: 'symlink', target: pathArg(target, 'target'), path: pathArg(path) }),
  readlinkSync: (path, options) => {
    const t = call({ op: 'readlink', path: pathArg(path) });
    return encodingOf(options) === 'buffer' ? Buffer.from(t) : t;
  },
  realpathSync: (path) => call({ op: 'realpath', path: pathArg(path) }),
  accessSync,
  chmodSync: (path, mode) => call({ op: 'chmod', path: pathArg(path), mode: typeof mode === 'string' ? parseInt(mode, 8) : mode }),
  utimesSync: (path, atime, mtime) => call({ op: 'utimes', path: pathArg(path), atime: timeMs(atime), mtime: timeMs(mtime) }),
  lutimesSync: (path, atime, mtime) => call({ op: 'utimes', path: pathArg(path), atime: timeMs(atime), mtime: timeMs(mtime), follow: false }),
  truncateSync: (path, len) => call({ op: 'truncate', path: pathArg(path), len: len ?? 0 }),
};
sync.realpathSync.native = sync.realpathSync;

/** The promise API: each sync call, run in a later microtask. */
const promises = {};
for (const [name, fn] of Object.entries(sync)) {
  if (name === 'existsSync') continue;
  const short = name.slice(0, -4);
  promises[short] = async (...args) => {
    await undefined;
    return decided(fn, args);
  };
}
promises.constants = constants;
delete promises.read;
delete promises.write;
delete promises.close;
delete promises.fstat;
delete promises.ftruncate;
delete promises.fsync;
delete promises.fdatasync;

/** fs.promises.open's FileHandle, over a descriptor. */
class FileHandle {
  constructor(fd) { this.fd = fd; }
  async read(buffer, offset, length, position) {
    if (buffer === undefined || (buffer !== null && typeof buffer === 'object' && !ArrayBuffer.isView(buffer))) {
      const o = buffer ?? {};
      buffer = o.buffer ?? Buffer.alloc(16384);
      ({ offset, length, position } = o);
    }
    const bytesRead = await decided(readSync, [this.fd, buffer, offset, length, position]);
    return { bytesRead, buffer };
  }
  async write(data, ...rest) {
    const bytesWritten = await decided(writeSync, [this.fd, data, ...rest]);
    return { bytesWritten, buffer: data };
  }
  async readFile(options) { return promises.readFile(fdOf(this.fd, 'read').path, options); }
  async writeFile(data, options) {
    const f = fdOf(this.fd, 'write');
    return f.append ? promises.appendFile(f.path, data, options) : promises.writeFile(f.path, data, options);
  }
  async appendFile(data, options) { return promises.appendFile(fdOf(this.fd, 'write').path, data, options); }
  async stat() { return decided(fstatSync, [this.fd]); }
  async truncate(len) { return decided(ftruncateSync, [this.fd, len]); }
  async sync() {}
  async datasync() {}
  async close() { if (fds.has(this.fd)) closeSync(this.fd); }
  [Symbol.asyncDispose]() { return this.close(); }
}
promises.open = async (path, flags, mode) => new FileHandle(await decided(openSync, [path, flags, mode]));

/** The callback API: the last argument is the callback, called with (err, value) after the current turn. */
const callbacks = {};
for (const [name, fn] of Object.entries(sync)) {
  const short = name.slice(0, -4);
  callbacks[short] = (...args) => {
    const cb = args.pop();
    if (typeof cb !== 'function') {
      const e = new TypeError(`The "cb" argument must be of type function. Received ${cb === null ? 'null' : typeof cb}`);
      e.code = 'ERR_INVALID_ARG_TYPE';
      throw e;
    }
    decided(fn, args).then(
      (result) => { if (short === 'exists') cb(result); else cb(null, result); },
      (error) => { if (short === 'exists') cb(false); else cb(error); },
    );
  };
  // Named as Node's are (`fs.readFile.name` is 'readFile').
  Object.defineProperty(callbacks[short], 'name', { value: short });
}
// As Node: exists' callback takes no error, so util.promisify uses this (a promise of the boolean).
Object.defineProperty(callbacks.exists, Symbol.for('nodejs.util.promisify.custom'), {
  value: { exists: (path) => new Promise((resolve) => callbacks.exists(path, resolve)) }.exists,
  configurable: true,
});

// fs.read / fs.write call back with (err, bytes, buffer), as Node does.
for (const [name, fn] of [['read', readSync], ['write', writeSync]]) {
  callbacks[name] = (fd, buffer, ...args) => {
    const cb = args.pop();
    decided(fn, [fd, buffer, ...args]).then((n) => cb(null, n, buffer), (e) => cb(e));
  };
}

function createReadStream(path, options) {
  const p = pathArg(path);
  const opts = typeof options === 'string' ? { encoding: options } : options ?? {};
  const hwm = typeof opts.highWaterMark === 'number' && opts.highWaterMark > 0 ? opts.highWaterMark : 64 * 1024;
  let data;
  let pos = typeof opts.start === 'number' ? opts.start : 0;
  let end;
  const stream = new Readable({
    highWaterMark: hwm,
    encoding: opts.encoding,
    construct(callback) {
      decided(() => call({ op: 'readFile', path: p }), []).then((bytes) => {
        data = bytes;
        end = typeof opts.end === 'number' ? Math.min(opts.end + 1, data.byteLength) : data.byteLength;
        stream.emit('open', 3);
        stream.emit('ready');
        callback();
      }, callback);
    },
    read() {
      try {
        if (pos >= end) { this.push(null); return; }
        const next = Math.min(pos + hwm, end);
        const chunk = Buffer.from(data.buffer, data.byteOffset + pos, next - pos);
        pos = next;
        stream.bytesRead = pos;
        this.push(chunk);
      } catch (e) {
        this.destroy(e);
      }
    },
  });
  stream.path = p;
  stream.bytesRead = 0;
  return stream;
}

function createWriteStream(path, options) {
  const p = pathArg(path);
  const opts = typeof options === 'string' ? { encoding: options } : options ?? {};
  let flag = typeof opts.flags === 'string' ? opts.flags : 'w';
  const stream = new Writable({
    decodeStrings: true,
    defaultEncoding: opts.encoding ?? 'utf8',
    construct(callback) {
      decided(() => call({ op: 'writeFile', path: p, flag, mode: opts.mode }, new Uint8Array(0)), []).then(() => { flag = 'a'; callback(); }, callback);
    },
    write(chunk, _encoding, callback) {
      decided(() => call({ op: 'writeFile', path: p, flag: 'a' }, toBytes(chunk)), []).then(() => {
        stream.bytesWritten += chunk.length;
        callback();
      }, callback);
    },
  });
  stream.path = p;
  stream.bytesWritten = 0;
  return stream;
}

const fs = {
  ...sync,
  ...callbacks,
  createReadStream,
  createWriteStream,
  promises,
  constants,
  Stats,
  Dirent,
  ...constants,
};

export const modules = { fs, 'fs/promises': promises };
export const globals = { fs };
