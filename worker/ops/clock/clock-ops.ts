// clock.now: the host's monotonic high-resolution clock as epoch milliseconds (fractional). The
// guest derives performance.now(), timeOrigin and process.hrtime from it.
import type { OpFactory } from '../op-types.ts';

/** The capability's ops; they need no settings. */
export const createClockOps: OpFactory = () => ({
  'clock.now': {
    kind: 'sync',
    run() {
      return performance.timeOrigin + performance.now();
    },
  },
});
