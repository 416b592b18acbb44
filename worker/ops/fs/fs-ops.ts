// fs.call: node:fs, node:fs/promises and the `fs` global (worker/guest/platform/parts/fs.js) against
// the run's filesystem (mount-fs.ts): /work is the mounted snapshot (or an empty directory when the
// run mounts none), nothing else of the host exists. Sync: node:fs's sync API needs it, and every
// call is an in-memory operation; the guest wraps it for the promise and callback APIs.
import { OpError, type OpContext, type OpFactory } from '../op-types.ts';
import { resourceKey } from '../../runtime/run-resources.ts';
import { DEFAULT_MOUNT_LIMITS } from '../../../shared/fs-mount.ts';
import { MountFs } from './mount-fs.ts';

/** A run that mounts no snapshot still has an (empty, discarded) /work. */
const SCRATCH = resourceKey('scratch filesystem', () => new MountFs(undefined, DEFAULT_MOUNT_LIMITS));

function fsOf(ctx: OpContext): MountFs {
  return ctx.mount ?? ctx.resources.get(SCRATCH);
}

function num(v: unknown, name: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new OpError(`The "${name}" argument must be of type number. Received ${typeof v}`, 'TypeError', 'ERR_INVALID_ARG_TYPE');
  return v;
}

function optMode(v: unknown): number | undefined {
  return v === undefined || v === null ? undefined : num(v, 'mode');
}

export const createFsOps: OpFactory = () => ({
  'fs.call': {
    kind: 'sync',
    run(args, bytes, ctx) {
      const a = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
      const fs = fsOf(ctx);
      switch (a['op']) {
        case 'stat': return fs.stat(a['path'], true);
        case 'lstat': return fs.stat(a['path'], false);
        case 'exists': return fs.exists(a['path']);
        case 'readFile': return fs.readFile(a['path']);
        case 'writeFile': return fs.writeFile(a['path'], bytes ?? new Uint8Array(0), typeof a['flag'] === 'string' ? a['flag'] : 'w', optMode(a['mode'])), null;
        case 'truncate': return fs.truncate(a['path'], num(a['len'] ?? 0, 'len')), null;
        case 'readdir': return fs.readdir(a['path']);
        case 'mkdir': return fs.mkdir(a['path'], a['recursive'] === true, optMode(a['mode'])) ?? null;
        case 'rm': return fs.remove(a['path'], { recursive: a['recursive'] === true, force: a['force'] === true }, 'rm'), null;
        case 'rmdir': return fs.remove(a['path'], { dirOnly: true, recursive: a['recursive'] === true }, 'rmdir'), null;
        case 'unlink': return fs.remove(a['path'], { fileOnly: true }, 'unlink'), null;
        case 'rename': return fs.rename(a['path'], a['dest']), null;
        case 'copyFile': return fs.copyFile(a['path'], a['dest'], a['exclusive'] === true), null;
        case 'symlink': return fs.symlink(a['target'], a['path']), null;
        case 'readlink': return fs.readlink(a['path']);
        case 'realpath': return fs.realpath(a['path']);
        case 'chmod': return fs.chmod(a['path'], num(a['mode'], 'mode')), null;
        case 'utimes': return fs.utimes(a['path'], num(a['atime'], 'atime'), num(a['mtime'], 'mtime'), a['follow'] !== false), null;
        default: throw new OpError(`runjs: fs.call: unknown operation ${JSON.stringify(a['op'])}`, 'TypeError');
      }
    },
  },
});
