// Group commit of heap writes (docs/heap-snapshots.md, "Durability"). Every stored heap is made
// durable before its key is handed out, and with the `dir` store that is two rounds of fsync
// (the files, then their directories) and ≈ 20 thread-pool operations. Up to MAX_IN_FLIGHT
// commits run at once, so a heap alone — or two workers' steps at once — is written
// immediately and waits for nothing more than before; heaps that finish while that many commits
// are in flight (a fan-out of 100 runs from one key) queue and then share one BlobStore.putAll:
// one pair of fsync rounds for all of them instead of one pair each, and the blob store's
// directory fsyncs cover every blob of the batch in a shard directory at once. Every caller still
// resolves only once its own blobs are durable: the promise is unchanged, only barriers are shared.
import type { BlobKey, BlobStore } from '../stores/blob/index.ts';

/**
 * Commits running at once. One would make the second of two concurrent heaps wait for the whole
 * of the first's commit before starting its own (measured: slower for 2 and 8 concurrent puts
 * than no grouping at all); two keeps a pair of workers' steps as fast as before.
 */
const MAX_IN_FLIGHT = 2;
/** Objects one shared commit takes at most (a fan-out's heaps are a few KB each; this bounds a batch's memory and its failure's reach). */
const MAX_BATCH_OBJECTS = 256;

interface Pending {
  readonly objects: readonly Uint8Array[];
  resolve(keys: BlobKey[]): void;
  reject(e: unknown): void;
}

export class GroupCommit {
  readonly #blobs: BlobStore;
  readonly #queue: Pending[] = [];
  #inFlight = 0;
  /** Commits made and the puts they carried (for benchmarks and tests). */
  readonly #stats = { commits: 0, puts: 0 };

  constructor(blobs: BlobStore) {
    this.#blobs = blobs;
  }

  /** BlobStore.putAll, sharing its durability barrier with other puts waiting at the same time. */
  putAll(objects: readonly Uint8Array[]): Promise<BlobKey[]> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ objects, resolve, reject });
      this.#next();
    });
  }

  get stats(): { readonly commits: number; readonly puts: number } {
    return { ...this.#stats };
  }

  /** Starts a commit of what is queued (up to MAX_BATCH_OBJECTS) when fewer than MAX_IN_FLIGHT run. */
  #next(): void {
    if (this.#inFlight >= MAX_IN_FLIGHT || this.#queue.length === 0) return;
    let objects = 0;
    let n = 0;
    while (n < this.#queue.length && (n === 0 || objects + this.#queue[n]!.objects.length <= MAX_BATCH_OBJECTS)) objects += this.#queue[n++]!.objects.length;
    this.#inFlight++;
    void this.#commit(this.#queue.splice(0, n)).finally(() => {
      this.#inFlight--;
      this.#next();
    });
  }

  async #commit(batch: readonly Pending[]): Promise<void> {
    this.#stats.commits++;
    this.#stats.puts += batch.length;
    let keys: BlobKey[];
    try {
      keys = await this.#blobs.putAll(batch.flatMap((p) => p.objects));
    } catch (e) {
      if (batch.length === 1) {
        batch[0]!.reject(e);
        return;
      }
      // One heap's failure (its object unwritable, say) must not fail the others: each is tried
      // on its own (put-if-absent: what the shared attempt wrote is not written again).
      await Promise.all(batch.map((p) => this.#blobs.putAll(p.objects).then(p.resolve, p.reject)));
      return;
    }
    let at = 0;
    for (const p of batch) {
      p.resolve(keys.slice(at, at + p.objects.length));
      at += p.objects.length;
    }
  }
}
