// Host work a run starts that nothing can interrupt: key derivations and WebCrypto operations on
// libuv's threadpool. A run's end cannot stop it, and what is still computing then would hold the
// pool's threads (and their memory) under the worker's next run, and settle into nothing. So each
// run counts its own (a slot of its RunResources, which the run keeps a reference to past its
// release, since the work outlives it), and a run that ends with some still running after a short
// grace makes the worker ask to be replaced (worker-host.ts; docs/architecture.md).
import { resourceKey } from './run-resources.ts';

export class HostWork {
  #running = 0;

  /** Counts `work` as running until it settles; returns it. */
  track<T>(work: Promise<T>): Promise<T> {
    this.#running++;
    const done = (): void => { this.#running--; };
    work.then(done, done);
    return work;
  }

  /** How many pieces of uncancellable host work are running now. */
  get running(): number {
    return this.#running;
  }
}

export const HOST_WORK = resourceKey('host-work', () => new HostWork());
