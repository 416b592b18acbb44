// Which platform parts V8's spare realm loads before its run. Every run has a fresh isolate, so a
// run that uses fetch loaded the web and fetch parts into it (deserialising their code cache and
// running their top level: most of what a fresh run's first `fetch` cost beyond Node's, issue 13's
// `net.fetch_local_p50_ms`). The engine boots its next realm while the worker is idle; loading the
// parts there takes that work off the run. Only parts the worker's recent runs used are loaded: a
// worker whose runs never fetch keeps bare realms (no CPU spent, no heap taken from the run). The
// V8 startup snapshot keeps the prelude only (with every part an isolate's start went from 2.4 to
// 8.8 ms, docs/benchmarks.md). QuickJS loads the same parts into its base image once
// (worker/guest/preloaded-parts.ts), so both engines run scripts against preloaded parts.

/** Parts a spare may load, in dependency order (a part comes after the parts it needs at load). */
const PRELOADABLE: readonly string[] = ['web', 'streams', 'fetch'];
/** Parts loading one of these needs anyway (the fetch part's functions use the web part's). */
const NEEDS: Readonly<Record<string, readonly string[]>> = { streams: ['web'], fetch: ['web'] };
/** A part is loaded ahead while one of this many latest runs used it. */
export const RECENT_RUNS = 16;

export class PartUsage {
  #runs = 0;
  /** Part → the number of the latest run that used it. */
  readonly #lastUsed = new Map<string, number>();

  /** A run is over; `names` are the parts its code asked for (the guest's `usedParts`). */
  record(names: readonly unknown[]): void {
    this.#runs++;
    for (const name of names) {
      if (typeof name !== 'string' || !PRELOADABLE.includes(name)) continue;
      this.#lastUsed.set(name, this.#runs);
      for (const dep of NEEDS[name] ?? []) this.#lastUsed.set(dep, this.#runs);
    }
  }

  /** The parts to load into the next spare realm, in load order. */
  wanted(): string[] {
    return PRELOADABLE.filter((name) => {
      const at = this.#lastUsed.get(name);
      return at !== undefined && this.#runs - at < RECENT_RUNS;
    });
  }
}
