// The run's lifecycle as the prelude reports it: the main module settled (result or error); the
// events process listeners wait for; and
// the source text of a main-module call, for assert.ok's message (Node quotes the expression).
import { OpError, type OpFactory } from '../op-types.ts';
import { sourceExpression } from '../../source/source-expression.ts';

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
  // Process events (worker/guest/platform/web/process-events.js): the guest waits for the run's
  // work to be done ('beforeExit'/'exit') and for unhandled rejections only while it has listeners.
  'run.idle': {
    kind: 'async',
    run(_args, _bytes, ctx, signal) {
      return ctx.runEvent('idle', signal);
    },
  },
  'run.rejection': {
    kind: 'async',
    run(_args, _bytes, ctx, signal) {
      return ctx.runEvent('rejection', signal);
    },
  },
  'run.sourceExpression': {
    kind: 'sync',
    run(args, _bytes, ctx) {
      if (!Array.isArray(args) || !Number.isInteger(args[0]) || !Number.isInteger(args[1])) throw new OpError('run.sourceExpression expects [line, column]', 'TypeError');
      const at = ctx.mainSourceLine?.(args[0] as number, args[1] as number);
      return at === undefined ? null : sourceExpression(at.text, at.column) ?? null;
    },
  },
});
