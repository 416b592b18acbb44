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
});
