// --fs-passthrough: a readFile the run's filesystem misses, outside /work, reads the same path of
// the real filesystem, read-only. The read happens here, in the worker process: the worker is
// the unit the OS sandbox confines, so what it can open is what the operator let it open. Only
// regular files are read (a FIFO or device could block or never end), at most MAX_FETCH_BYTES,
// through one descriptor (no check-then-open race). /work stays the snapshot's alone: a miss
// there is ENOENT, and a symlink of the snapshot never leads out (mount-fs.ts resolves it inside).
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { posix } from 'node:path';
import { MAX_FETCH_BYTES, MOUNT_POINT } from '../../../shared/fs-mount.ts';
import { OpError } from '../op-types.ts';
import { fsError } from './mount-fs.ts';

/** Whether a readFile of `p` that missed may fall through: a string path lexically outside /work. */
export function passesThrough(p: unknown): p is string {
  if (typeof p !== 'string' || p.includes('\0')) return false;
  const abs = posix.resolve('/', p);
  return abs !== MOUNT_POINT && !abs.startsWith(`${MOUNT_POINT}/`);
}

function hostError(e: unknown, path: string): OpError {
  const code = typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : 'EIO';
  return fsError(code, 'open', path);
}

/** The bytes of the host's regular file at `path` (absolute, as the guest named it, normalised). */
export function hostReadFile(p: string): Uint8Array {
  const path = posix.resolve('/', p);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw hostError(e, p);
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw fsError('EISDIR', 'read', p);
    if (!st.isFile()) throw fsError('EINVAL', 'read', p, 'invalid argument: --fs-passthrough reads only regular files');
    if (st.size > MAX_FETCH_BYTES) throw fsError('EFBIG', 'read', p, `file too large: --fs-passthrough reads at most ${MAX_FETCH_BYTES} bytes`);
    const out = Buffer.alloc(st.size);
    let n = 0;
    while (n < out.length) {
      const got = readSync(fd, out, n, out.length - n, n);
      if (got === 0) break;
      n += got;
    }
    return out.subarray(0, n);
  } catch (e) {
    throw e instanceof OpError ? e : hostError(e, p);
  } finally {
    closeSync(fd);
  }
}
