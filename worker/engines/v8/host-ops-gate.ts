// Lets V8's spare realm wait while the run going on has host ops in flight (issue 13,
// docs/benchmarks.md "Fourth round"). The spare (the realm the run after next gets) is booted and
// preloaded while the worker serves a run; on two cores its context creation and part evaluation
// took the CPU a run's fetch needed at that moment (the host's side of a first fetch: 1.7 ms with
// no spare booting, 4.2 ms with one). An op in flight is the run waiting on the host: the moment
// its answer is being made. So each step of a spare's boot waits until no op is in flight, for at
// most `maxWaitMs`: an op that waits on a slow server or a timer leaves the CPU idle anyway, and
// a spare held back for the whole run would move its boot onto the next run.

export class HostOpsGate {
  readonly #maxWaitMs: number;
  /** Async host ops the running realm started and has not been answered for yet. */
  #open = 0;
  readonly #waiters = new Set<() => void>();

  constructor(maxWaitMs: number) {
    this.#maxWaitMs = maxWaitMs;
  }

  /** The running realm's guest started an async op (its host call answered `a<id>`). */
  opened(): void {
    this.#open++;
  }

  /** `n` ops were answered, or ended unanswered with their realm. */
  settled(n: number): void {
    this.#open = Math.max(0, this.#open - n);
    if (this.#open > 0) return;
    for (const wake of [...this.#waiters]) wake();
  }

  /** Steps waiting at the gate now. */
  get waiting(): number {
    return this.#waiters.size;
  }

  /** Resolves once no op is in flight, or after maxWaitMs at the latest. */
  quiet(): Promise<void> {
    if (this.#open === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.#waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, this.#maxWaitMs);
      timer.unref();
      this.#waiters.add(wake);
    });
  }
}
