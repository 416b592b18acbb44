// The run's lifecycle as the prelude reports it: the main module settled (result or error).
import { OpError, type OpFactory } from '../op-types.ts';

/** The capability's ops; they need no settings. */
export const createRunOps: OpFactory = () => ({
  'run.settle': {
    kind: 'sync',
    run(args, _bytes, ctx) {
      if (typeof args !== 'object' || args === null) throw new OpError('run.settle expects an object', 'TypeError');
      const a = args as { ok?: unknown; result?: unknown; error?: unknown };
      if (a.ok === true && typeof a.result === 'string') ctx.settle(true, a.result);
      else if (a.ok === false && typeof a.error === 'string') ctx.settle(false, a.error);
      else throw new OpError('run.settle: malformed settlement', 'TypeError');
    },
  },
});
