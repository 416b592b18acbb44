// console.*: the prelude formats the line (prefix, arguments, newline); the host only appends it.
import { OpError, type OpFactory } from '../op-types.ts';

/** The capability's ops; they need no settings. */
export const createConsoleOps: OpFactory = () => ({
  'console.write': {
    kind: 'sync',
    run(args, _bytes, ctx) {
      if (typeof args !== 'string') throw new OpError('console.write expects a string', 'TypeError');
      ctx.writeOutput(args);
    },
  },
  // Asked only when a logged value's text grows long: the prelude stops formatting a line sure to
  // be longer than any write can be, instead of building it (a huge array costs no memory).
  'console.lineCap': {
    kind: 'sync',
    run(_args, _bytes, ctx) {
      return ctx.outputLineCap();
    },
  },
  'console.overflow': {
    kind: 'sync',
    run(args, _bytes, ctx) {
      if (typeof args !== 'number') throw new OpError('console.overflow expects a number', 'TypeError');
      ctx.overflowOutput(args);
    },
  },
});
