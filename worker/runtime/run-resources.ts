// Host-side state a run's ops hold: a slot per capability (hash handles, pending byte counts,
// later sockets and file handles), created on first use and released when the run ends — so a
// finished run leaves nothing behind in the worker, and a capability keeps no module-level state.

/** Names one capability's per-run state; `create` makes it on the run's first use. */
export interface ResourceKey<T> {
  readonly name: string;
  readonly create: () => T;
  /** Releases what the state holds (closes handles); called once, when the run ends. */
  readonly release?: (value: T) => void;
}

export function resourceKey<T>(name: string, create: () => T, release?: (value: T) => void): ResourceKey<T> {
  return Object.freeze({ name, create, ...(release ? { release } : {}) });
}

export class RunResources {
  // Keys are held as ResourceKey<any>: each slot's value is of its own key's type.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly #slots = new Map<ResourceKey<any>, unknown>();
  #released = false;

  /** The run's state for `key`, created on first use. After release, a fresh value that is never kept. */
  get<T>(key: ResourceKey<T>): T {
    if (this.#released) return key.create();
    if (this.#slots.has(key)) return this.#slots.get(key) as T;
    const value = key.create();
    this.#slots.set(key, value);
    return value;
  }

  /** Whether the run has state for `key` (without creating it). */
  has<T>(key: ResourceKey<T>): boolean {
    return this.#slots.has(key);
  }

  /** Releases every slot; a failing release does not keep the others from running. */
  release(log: (line: string) => void = () => {}): void {
    if (this.#released) return;
    this.#released = true;
    for (const [key, value] of this.#slots) {
      try {
        key.release?.(value);
      } catch (e) {
        log(`runjs: releasing ${key.name} failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    this.#slots.clear();
  }
}
