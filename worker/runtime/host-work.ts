// Host work a run starts that nothing can interrupt: key derivations and WebCrypto operations on
// libuv's threadpool. A run's end cannot stop it, and what is still computing then would hold the
// pool's threads (and their memory) under the worker's next run, and settle into nothing. So the
// worker counts it — one run at a time per worker, so a process-wide count is the run's — and a
// run that ends with some still running after a short grace makes the worker ask to be replaced
// (worker-host.ts; docs/architecture.md).

let running = 0;

/** Counts `work` as running until it settles; returns it. */
export function trackHostWork<T>(work: Promise<T>): Promise<T> {
  running++;
  const done = (): void => { running--; };
  work.then(done, done);
  return work;
}

/** How many pieces of uncancellable host work are running now. */
export function hostWorkRunning(): number {
  return running;
}
