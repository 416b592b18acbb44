// setTimeout/clearTimeout: the guest keeps the timer table (ids ≥ 1, callbacks); the host only
// sleeps; expired timers reach the guest in the order Node's loop runs them (worker/runtime/timer-queue.ts).
// A cleared timer aborts its sleep so a pending host timer never keeps a run alive.
import { OpError, type OpFactory } from '../op-types.ts';

/** Node's own ceiling for timer delays (2^31 - 1 ms). */
const MAX_DELAY_MS = 2_147_483_647;

/** The capability's ops; they need no settings. */
export const createTimerOps: OpFactory = () => ({
  'timers.sleep': {
    kind: 'async',
    run(args, _bytes, ctx, signal) {
      const ms = typeof args === 'number' && Number.isFinite(args) ? Math.min(Math.max(0, Math.floor(args)), MAX_DELAY_MS) : 0;
      return ctx.timers.sleep(ms, signal);
    },
  },
  'timers.immediate': {
    kind: 'async',
    run(_args, _bytes, ctx, signal) {
      return ctx.timers.immediate(signal);
    },
  },
  'timers.ref': {
    kind: 'sync',
    run(args, _bytes, ctx) {
      const a = args as { id?: unknown; ref?: unknown } | null;
      if (typeof a?.id !== 'number' || typeof a.ref !== 'boolean') throw new OpError('timers.ref expects {id, ref}', 'TypeError');
      ctx.refOp(a.id, a.ref);
    },
  },
  'timers.cancel': {
    kind: 'sync',
    run(args, _bytes, ctx) {
      if (typeof args !== 'number') throw new OpError('timers.cancel expects an op id', 'TypeError');
      ctx.cancelOp(args);
    },
  },
});
