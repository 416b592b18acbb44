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
  // Asked only when a logged value's text grows long: the prelude stops formatting a line that
  // cannot fit (it would be dropped whole) instead of building it, so a huge array costs no memory.
  'console.left': {
    kind: 'sync',
    run(_args, _bytes, ctx) {
      return ctx.outputBytesLeft();
    },
  },
  'console.overflow': {
    kind: 'sync',
    run(_args, _bytes, ctx) {
      ctx.overflowOutput();
    },
  },
});
