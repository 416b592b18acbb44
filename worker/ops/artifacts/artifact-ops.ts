// artifacts.put / artifacts.get: the guest's `artifact(key, mime, bytes)` and `artifact.get(key)`.
// The worker checks key, mime and size first (a 16 MiB+ payload never crosses IPC), then the
// supervisor stores or reads the payload; bytes travel as Uint8Array (advanced IPC
// serialization), never base64.
import { ArtifactRuleError, checkKey, checkMime, checkSize, scriptMessage } from '../../../shared/artifact-rules.ts';
import { resourceKey } from '../../runtime/run-resources.ts';
import { OpError, type OpFactory } from '../op-types.ts';

/**
 * Payload bytes of the run's artifact() calls not yet stored. Bounded (settings.limits
 * .maxPendingArtifactBytes): without a bound, a script could start a hundred 16 MiB writes of one
 * buffer without awaiting and make the worker and the supervisor hold them all at once.
 */
const PENDING_PUTS = resourceKey('artifact writes in flight', () => ({ bytes: 0 }));

function check<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof ArtifactRuleError) throw new OpError(scriptMessage(e.message), e.status === 413 ? 'RangeError' : 'TypeError');
    throw e;
  }
}

export const createArtifactOps: OpFactory = (settings) => {
  const maxPending = settings.limits.maxPendingArtifactBytes;
  return {
    'artifacts.put': {
      kind: 'async',
      async run(args, bytes, ctx, signal) {
        const a = args as { key?: unknown; mime?: unknown; text?: unknown } | null;
        const key = check(() => checkKey(a?.key));
        const mime = check(() => checkMime(a?.mime));
        // A string payload arrives as text and is stored as UTF-8 (lone surrogates become U+FFFD).
        const payload = typeof a?.text === 'string' ? new Uint8Array(Buffer.from(a.text, 'utf8')) : bytes ?? new Uint8Array(0);
        check(() => checkSize(payload.byteLength));
        const pending = ctx.resources.get(PENDING_PUTS);
        if (pending.bytes + payload.byteLength > maxPending) {
          throw new OpError(`artifact: more than ${maxPending} bytes (${Math.round(maxPending / 1048576)} MiB) of artifact writes are pending; await earlier artifact() calls first`, 'RangeError');
        }
        pending.bytes += payload.byteLength;
        try {
          // A copy: an engine may hand over a view into its own memory, which must not be read later.
          return await ctx.supervisor.request('artifacts.put', { key, mime, bytes: new Uint8Array(payload) }, signal);
        } finally {
          pending.bytes -= payload.byteLength;
        }
      },
    },
    'artifacts.get': {
      kind: 'async',
      async run(args, _bytes, ctx, signal) {
        const a = args as { key?: unknown } | null;
        const key = check(() => checkKey(a?.key));
        const value = await ctx.supervisor.request('artifacts.get', { key }, signal);
        if (value === null || value === undefined) return null;
        if (!(value instanceof Uint8Array)) throw new OpError('runjs: artifacts.get: malformed answer from the supervisor');
        return value;
      },
    },
  };
};
