// The worker's host-memory watchdog, for every run on both engines. An engine's own cap does not
// bound everything a run makes this process hold: isolated-vm's memoryLimit does not hold against
// every allocation pattern (engine-study Q7: an Array.fill flood runs past it), and host-side
// work a script starts (zlib, key derivation, formatters) allocates outside the engine's heap on
// either engine. The watchdog reads the process RSS — an isolate's own statistics would block on
// the isolate lock while guest code runs — and stops a run that grew the process by more than
// WATCHDOG_FACTOR times its heap cap (at least WATCHDOG_MIN_BYTES).

/** How often the watchdog samples the process while a run is active. */
const WATCHDOG_INTERVAL_MS = 10;
export const WATCHDOG_FACTOR = 4;
export const WATCHDOG_MIN_BYTES = 96 * 1024 * 1024;

export interface MemoryWatchdog {
  /**
   * Samples now if the last sample is older than the interval. For engines that block the
   * thread in guest code (QuickJS), where the interval timer cannot fire: their interrupt poll
   * calls this.
   */
  check(): void;
  stop(): void;
}

/** The growth a run with this heap cap may cause before it is stopped. */
export function allowedGrowth(heapBytes: number): number {
  return Math.max(heapBytes * WATCHDOG_FACTOR, WATCHDOG_MIN_BYTES);
}

export function startMemoryWatchdog(heapBytes: number, onExceeded: () => void): MemoryWatchdog {
  const ceiling = process.memoryUsage.rss() + allowedGrowth(heapBytes);
  let last = performance.now();
  let fired = false;
  const sample = (): void => {
    last = performance.now();
    if (!fired && process.memoryUsage.rss() > ceiling) {
      fired = true;
      onExceeded();
    }
  };
  const timer = setInterval(sample, WATCHDOG_INTERVAL_MS);
  return {
    check: () => { if (performance.now() - last >= WATCHDOG_INTERVAL_MS) sample(); },
    stop: () => clearInterval(timer),
  };
}
