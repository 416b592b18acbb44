// fs.call: node:fs, node:fs/promises and the `fs` global (worker/guest/platform/parts/fs.js) against
// the run's filesystem (mount-fs.ts): /work is the mounted snapshot (or an empty directory when the
// run mounts none), nothing else of the host exists, unless --fs-passthrough lets a readFile
// outside /work that misses read the host's file (host-read.ts). Sync: node:fs's sync API needs it, and every
// call is an in-memory operation; the guest wraps it for the promise and callback APIs.
//
// The `filesystem` policy (docs/policies.md) decides each operation on the input document
// {operation, path, destination?, recursive?, encoding?}. A decision is asynchronous, so it is made
// by fs.check (the guest's promise and callback APIs call it when fs.call asks for one) and kept
// for the rest of the run: fs.call (sync) performs an operation only when the same input was
// allowed before. A sync call nobody decided yet fails with POLICY_PENDING (EACCES).
import { posix } from 'node:path';
import { OpError, type OpContext, type OpFactory } from '../op-types.ts';
import { resourceKey } from '../../runtime/run-resources.ts';
import { DEFAULT_MOUNT_LIMITS } from '../../../shared/fs-mount.ts';
import { MountFs } from './mount-fs.ts';
import { hostReadFile, passesThrough } from './host-read.ts';
import { PolicyDeniedError } from '../../policy/policy-errors.ts';

/** The message prefix of a sync call whose policy decision is still to be made (the guest's async APIs make it and retry). */
export const POLICY_PENDING = 'EACCES: permission denied: a filesystem policy decides this operation, and a synchronous call cannot wait for it; use fs.promises or a callback';
/** Allowed inputs a run remembers (beyond that, the oldest are forgotten and decided again). */
const MAX_PERMITS = 10_000;
const PERMITS = resourceKey('filesystem policy decisions', () => new Set<string>());

interface PolicyInput {
  readonly operation: string;
  readonly path: string;
  readonly destination?: string;
  readonly recursive?: boolean;
  readonly encoding?: string;
}

function absolute(p: unknown): string {
  return typeof p === 'string' && !p.includes('\0') ? posix.resolve('/', p) : String(p);
}

/** The policy input of an fs.call (the reference's document, §6.2): unlink and rmdir are `rm`. */
export function policyInput(a: Record<string, unknown>): PolicyInput {
  const path = absolute(a['path']);
  switch (a['op']) {
    case 'readFile': return { operation: 'readFile', path, encoding: a['encoding'] === 'utf8' ? 'utf8' : 'buffer' };
    case 'writeFile': return { operation: typeof a['flag'] === 'string' && a['flag'].startsWith('a') ? 'appendFile' : 'writeFile', path };
    case 'truncate': case 'chmod': case 'utimes': case 'pwrite': return { operation: 'writeFile', path };
    case 'stat': case 'realpath': return { operation: 'stat', path };
    case 'lstat': return { operation: 'lstat', path };
    case 'exists': return { operation: 'exists', path };
    case 'readdir': return { operation: 'readdir', path };
    case 'readlink': return { operation: 'readlink', path };
    case 'symlink': return { operation: 'symlink', path, destination: String(a['target']) };
    case 'mkdir': case 'mkdtemp': return { operation: 'mkdir', path, recursive: a['recursive'] === true };
    case 'rm': case 'rmdir': return { operation: 'rm', path, recursive: a['recursive'] === true };
    case 'unlink': return { operation: 'rm', path, recursive: false };
    case 'rename': case 'copyFile': return { operation: a['op'], path, destination: absolute(a['dest']) };
    default: return { operation: String(a['op']), path };
  }
}

function argsOf(args: unknown): Record<string, unknown> {
  return (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
}

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

export const createFsOps: OpFactory = (settings) => ({
  'fs.call': {
    kind: 'sync',
    run(args, bytes, ctx) {
      const a = argsOf(args);
      if (ctx.policy.configured('filesystem') && !ctx.resources.get(PERMITS).has(JSON.stringify(policyInput(a)))) {
        throw new OpError(`${POLICY_PENDING} (${String(a['op'])} '${String(a['path'])}')`, 'Error', 'EACCES');
      }
      const fs = fsOf(ctx);
      switch (a['op']) {
        case 'stat': return fs.stat(a['path'], true);
        case 'lstat': return fs.stat(a['path'], false);
        case 'exists': return fs.exists(a['path']);
        case 'readFile': {
          const p = a['path'];
          if (settings.fsPassthrough !== true || !passesThrough(p)) return fs.readFile(p);
          try {
            return fs.readFile(p);
          } catch (e) {
            if (e instanceof OpError && e.code === 'ENOENT') return hostReadFile(p);
            throw e;
          }
        }
        case 'writeFile': return fs.writeFile(a['path'], bytes ?? new Uint8Array(0), typeof a['flag'] === 'string' ? a['flag'] : 'w', optMode(a['mode'])), null;
        case 'truncate': return fs.truncate(a['path'], num(a['len'] ?? 0, 'len')), null;
        case 'pwrite': return fs.pwrite(a['path'], bytes ?? new Uint8Array(0), num(a['position'] ?? 0, 'position')), null;
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
        case 'mkdtemp': return fs.mkdtemp(a['path']);
        case 'chmod': return fs.chmod(a['path'], num(a['mode'], 'mode')), null;
        case 'utimes': return fs.utimes(a['path'], num(a['atime'], 'atime'), num(a['mtime'], 'mtime'), a['follow'] !== false), null;
        default: throw new OpError(`runjs: fs.call: unknown operation ${JSON.stringify(a['op'])}`, 'TypeError');
      }
    },
  },
  'fs.check': {
    kind: 'async',
    async run(args, _bytes, ctx) {
      if (!ctx.policy.configured('filesystem')) return null;
      const input = policyInput(argsOf(args));
      const key = JSON.stringify(input);
      const permits = ctx.resources.get(PERMITS);
      if (permits.has(key)) return null;
      try {
        await ctx.policy.enforce('filesystem', input);
      } catch (e) {
        if (e instanceof PolicyDeniedError) {
          throw new OpError(`EACCES: permission denied, ${input.operation} '${input.path}': filesystem denied by policy: ${e.reason}`, 'Error', 'EACCES');
        }
        throw e;
      }
      if (permits.size >= MAX_PERMITS) permits.delete(permits.values().next().value!);
      permits.add(key);
      return null;
    },
  },
});
