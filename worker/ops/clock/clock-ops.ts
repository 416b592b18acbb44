// clock.now: the host's monotonic high-resolution clock as epoch milliseconds (fractional). The
// guest derives performance.now(), timeOrigin and process.hrtime from it.
import type { OpTable } from '../op-types.ts';

export const clockOps: OpTable = {
  'clock.now': {
    kind: 'sync',
    run() {
      return performance.timeOrigin + performance.now();
    },
  },
};
