// The slice of node:fs the dir backend uses. It is injectable so tests can make a real store hit
// ENOSPC or EIO at an exact step, which a healthy test machine cannot do on demand.
//
// The metadata steps of a put (stat, open, a small write, close, link, unlink) run synchronously
// behind the async interface: each is a few microseconds of a local filesystem's page cache and
// dentries, while a trip through libuv's thread pool costs tens of microseconds of CPU and a turn
// of the event loop; a snapshot commit makes about 30 of them (docs/benchmarks.md, fs). What can
// wait on the disk stays on the thread pool: fsync, large writes and reads, mkdir, rename.
import { closeSync, fstatSync, fsync, linkSync, openSync, readSync, statSync, unlinkSync, write, writeSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { promisify } from 'node:util';

export interface DirFileHandle {
  writeFile(data: Uint8Array): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

export interface DirFs {
  open(path: string, flags: string, mode?: number): Promise<DirFileHandle>;
  mkdir(path: string, options: { recursive: true }): Promise<string | undefined>;
  link(existingPath: string, newPath: string): Promise<void>;
  rename(oldPath: string, newPath: string): Promise<void>;
  unlink(path: string): Promise<void>;
  /** Undefined when nothing is at `path` (a missing object is a put's common case: no error built for it). */
  stat(path: string): Promise<{ size: number; mtimeMs: number; isFile(): boolean } | undefined>;
  readFile(path: string): Promise<Uint8Array>;
  readdir(path: string): Promise<string[]>;
  utimes(path: string, atime: Date, mtime: Date): Promise<void>;
}

/** Reads and writes up to this size use the page cache synchronously; larger ones (heap images) use the thread pool. */
const SYNC_IO_BYTES = 64 * 1024;
const fsyncAsync = promisify(fsync);
const writeAsync = promisify(write);

/** A file handle over a raw descriptor: small writes and close inline, fsync on the thread pool. */
function fdHandle(fd: number): DirFileHandle {
  let open = true;
  return {
    writeFile: async (data) => {
      if (data.byteLength <= SYNC_IO_BYTES) {
        for (let at = 0; at < data.byteLength;) at += writeSync(fd, data, at);
        return;
      }
      for (let at = 0; at < data.byteLength;) at += (await writeAsync(fd, data, at)).bytesWritten;
    },
    sync: () => fsyncAsync(fd),
    close: async () => {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}

/** A whole file: a small one read inline (a snapshot's tree node or source file), a large one by fs/promises. */
async function readWhole(path: string): Promise<Uint8Array> {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > SYNC_IO_BYTES) return await fsp.readFile(path);
    const out = Buffer.allocUnsafe(size);
    let at = 0;
    for (let n; at < size && (n = readSync(fd, out, at, size - at, at)) > 0;) at += n;
    return at === size ? out : out.subarray(0, at);
  } finally {
    closeSync(fd);
  }
}

export const nodeDirFs: DirFs = {
  open: async (path, flags, mode) => fdHandle(openSync(path, flags, mode)),
  mkdir: (path, options) => fsp.mkdir(path, options),
  link: async (a, b) => linkSync(a, b),
  rename: (a, b) => fsp.rename(a, b),
  unlink: async (path) => unlinkSync(path),
  stat: async (path) => statSync(path, { throwIfNoEntry: false }),
  readFile: readWhole,
  readdir: (path) => fsp.readdir(path),
  utimes: (path, atime, mtime) => fsp.utimes(path, atime, mtime),
};

/** The error's errno code (`ENOENT`, `ENOSPC`, …), if it has one. */
export function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
