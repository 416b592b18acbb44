// A least-recently-used map bounded by entries and bytes (a size the caller assigns: the fs
// structure cache sizes its values in entries). Workers keep recent heap images in one
// (by a name the supervisor chooses) so a run resuming a heap the worker just produced or restored
// needs no 1+ MB image over IPC; the worker pool keeps a mirror per worker to know what to omit.
// A mirror that drifts is harmless: a worker asked for an image it no longer holds answers
// `imageMiss` and the pool resends the run with the image inline.
export class ByteLru<T> {
  readonly #maxBytes: number;
  readonly #maxEntries: number;
  /** Least recently used first. */
  readonly #map = new Map<string, { value: T; size: number }>();
  #bytes = 0;

  constructor(maxBytes: number, maxEntries: number) {
    this.#maxBytes = maxBytes;
    this.#maxEntries = maxEntries;
  }

  get size(): number {
    return this.#map.size;
  }

  /** The sizes of the entries held, summed (at most the byte bound). */
  get bytes(): number {
    return this.#bytes;
  }

  /** The entry under `key` (now the most recently used), or undefined. */
  get(key: string): T | undefined {
    const hit = this.#map.get(key);
    if (!hit) return undefined;
    this.#map.delete(key);
    this.#map.set(key, hit);
    return hit.value;
  }

  /** Whether `key` is held, without making it more recent. */
  has(key: string): boolean {
    return this.#map.has(key);
  }

  /** Stores `value` as the most recent entry, evicting the oldest beyond the bounds; too large a value is not kept. */
  set(key: string, value: T, size: number): void {
    this.delete(key);
    if (size > this.#maxBytes) return;
    this.#map.set(key, { value, size });
    this.#bytes += size;
    for (const [k, old] of this.#map) {
      if (this.#bytes <= this.#maxBytes && this.#map.size <= this.#maxEntries) break;
      this.#map.delete(k);
      this.#bytes -= old.size;
    }
  }

  /** Whether `value` is held under any key (a scan: these caches hold a few entries). */
  holds(value: T): boolean {
    for (const entry of this.#map.values()) if (entry.value === value) return true;
    return false;
  }

  delete(key: string): void {
    const old = this.#map.get(key);
    if (!old) return;
    this.#map.delete(key);
    this.#bytes -= old.size;
  }

  clear(): void {
    this.#map.clear();
    this.#bytes = 0;
  }
}

/** Budget of each worker's image cache (and of the pool's mirror of it). */
export const WORKER_IMAGE_CACHE_BYTES = 96 * 1024 * 1024;
export const WORKER_IMAGE_CACHE_ENTRIES = 8;
