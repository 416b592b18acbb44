// The run's clock: performance.now() counts from the start of the current run (timeOrigin), in
// milliseconds with sub-millisecond resolution, read from the host's monotonic clock.
import { onRunStart, op } from './host.js';

// No op may run while the prelude boots (a realm is booted before its run exists): set per run.
let origin = 0;

onRunStart(() => {
  origin = op('clock.now');
});

/** Milliseconds since the run started. */
export function now() {
  return op('clock.now') - origin;
}

/** The run's start as milliseconds since the epoch. */
export function timeOrigin() {
  return origin;
}
