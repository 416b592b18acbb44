// Incremental hashes and HMACs (node:crypto createHash/createHmac): the guest opens a host-side
// hash, streams its input in (in batches it buffers itself), and digests, so hashing a large
// input keeps only the hash state in memory, not a copy of every update. Handles belong to the
// run that opened them (its RunResources, released when the run ends) and are freed on digest. A hash object in a QuickJS heap image refers to a handle of the
// run that saved it: restored into a later run it fails with a clear error instead.
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { resourceKey } from '../../runtime/run-resources.ts';
import { OpError, type OpContext, type OpFactory } from '../op-types.ts';

/** Open hashes a run may hold at once (each holds a few hundred bytes of host memory). */
export const MAX_OPEN_HASHES = 10_000;
const MAX_OUTPUT_LENGTH = 1 << 20;

interface RunHashes { next: number; open: Map<number, Hash | Hmac> }
const HASHES = resourceKey<RunHashes>('hashes', () => ({ next: 1, open: new Map() }), (r) => r.open.clear());

function hashesOf(ctx: OpContext): RunHashes {
  return ctx.resources.get(HASHES);
}

function fail(e: unknown): never {
  if (e instanceof OpError) throw e;
  const err = e as { name?: string; message?: string; code?: string };
  throw new OpError(String(err?.message ?? e), typeof err?.name === 'string' ? err.name : 'Error', err?.code);
}

function args(a: unknown, op: string): Record<string, unknown> {
  if (typeof a !== 'object' || a === null || Array.isArray(a)) throw new OpError(`${op} expects an object`, 'TypeError');
  return a as Record<string, unknown>;
}

function outputLength(v: unknown): { outputLength: number } | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > MAX_OUTPUT_LENGTH) {
    throw new OpError(`The value of "options.outputLength" is out of range. It must be >= 0 && <= ${MAX_OUTPUT_LENGTH}. Received ${String(v)}`, 'RangeError', 'ERR_OUT_OF_RANGE');
  }
  return { outputLength: v };
}

function add(ctx: OpContext, h: Hash | Hmac): number {
  const r = hashesOf(ctx);
  if (r.open.size >= MAX_OPEN_HASHES) {
    throw new OpError(`runjs: more than ${MAX_OPEN_HASHES} hashes are open at once (call digest() on the ones you are done with)`, 'RangeError', 'ERR_RUNJS_TOO_MANY_HASHES');
  }
  const id = r.next++;
  r.open.set(id, h);
  return id;
}

function handle(ctx: OpContext, a: Record<string, unknown>): { id: number; h: Hash | Hmac } {
  const id = a['id'];
  const h = typeof id === 'number' && ctx.resources.has(HASHES) ? hashesOf(ctx).open.get(id) : undefined;
  if (h === undefined) {
    throw new OpError('runjs: this hash was created in an earlier run (its state stays on the host and is not part of a heap image); create a new one', 'Error', 'ERR_RUNJS_HASH_LOST');
  }
  return { id: id as number, h };
}

export const createHashOps: OpFactory = () => ({
  /** {algorithm, outputLength?, hmac?} (bytes: the HMAC key) → handle id. */
  'crypto.hashOpen': {
    kind: 'sync',
    run(a, bytes, ctx) {
      const o = args(a, 'crypto.hashOpen');
      let h: Hash | Hmac;
      try {
        h = o['hmac'] === true
          ? createHmac(String(o['algorithm']), bytes ?? new Uint8Array(0))
          : createHash(String(o['algorithm']), outputLength(o['outputLength']));
      } catch (e) {
        fail(e);
      }
      return add(ctx, h);
    },
  },
  /** {id} (bytes: more input) → undefined. */
  'crypto.hashUpdate': {
    kind: 'sync',
    run(a, bytes, ctx) {
      handle(ctx, args(a, 'crypto.hashUpdate')).h.update(bytes ?? new Uint8Array(0));
      return undefined;
    },
  },
  /** {id} (bytes: the last input) → the digest; frees the handle. */
  'crypto.hashDigest': {
    kind: 'sync',
    run(a, bytes, ctx) {
      const { id, h } = handle(ctx, args(a, 'crypto.hashDigest'));
      hashesOf(ctx).open.delete(id);
      try {
        if (bytes !== undefined && bytes.length > 0) h.update(bytes);
        return new Uint8Array(h.digest());
      } catch (e) {
        fail(e);
      }
    },
  },
  /** {id, outputLength?} (bytes: input not yet sent) → a new handle with the same state (Hash only). */
  'crypto.hashCopy': {
    kind: 'sync',
    run(a, bytes, ctx) {
      const o = args(a, 'crypto.hashCopy');
      const { h } = handle(ctx, o);
      if (!('copy' in h)) throw new OpError('runjs: an Hmac cannot be copied', 'TypeError');
      let copy: Hash;
      try {
        copy = h.copy(outputLength(o['outputLength']));
        if (bytes !== undefined && bytes.length > 0) copy.update(bytes);
      } catch (e) {
        fail(e);
      }
      return add(ctx, copy);
    },
  },
});
