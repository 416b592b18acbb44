// console.*: the prelude formats the line (prefix, arguments, newline); the host only appends it.
import { OpError, type OpTable } from '../op-types.ts';

export const consoleOps: OpTable = {
  'console.write': {
    kind: 'sync',
    run(args, _bytes, ctx) {
      if (typeof args !== 'string') throw new OpError('console.write expects a string', 'TypeError');
      ctx.writeOutput(args);
    },
  },
};
