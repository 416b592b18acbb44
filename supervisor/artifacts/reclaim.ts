// Deleting payloads no artifact references any more, without racing writers of the same content.
// Blobs are content-addressed, so a write of bytes X finds an existing object X and skips the
// store write; if X were deleted between that moment and the write's metadata row, the row would
// point at nothing. So the two never overlap: a deletion pass runs only while no write is in
// flight, and a write that arrives during a pass waits for it (passes are short: a metadata
// lookup and a delete per orphan). Each pass re-checks, under that exclusion, that nothing
// references the blob before deleting it. Orphans are remembered in memory only: ones pending
// when the process stops stay in the store (harmless; only space).
import type { BlobKey } from '../stores/blob/index.ts';

export interface ReclaimerOptions {
  /** Whether any artifact row references the blob (synchronous: a metadata lookup). */
  readonly referenced: (blob: BlobKey) => boolean;
  readonly remove: (blob: BlobKey) => Promise<void>;
  readonly log: (line: string) => void;
}

export class Reclaimer {
  readonly #options: ReclaimerOptions;
  readonly #orphans = new Set<BlobKey>();
  /** Writes between their start and their metadata commit. */
  #writing = 0;
  /** Writes waiting for the running pass to finish. */
  #waiting = 0;
  #pass: Promise<void> | undefined;

  constructor(options: ReclaimerOptions) {
    this.#options = options;
  }

  /** Runs a write (store the payload, then commit its row) excluded from deletion passes. */
  async writing<T>(write: () => Promise<T>): Promise<T> {
    this.#waiting++;
    try {
      while (this.#pass !== undefined) await this.#pass;
    } finally {
      this.#waiting--;
    }
    this.#writing++;
    try {
      return await write();
    } finally {
      this.#writing--;
      this.#start();
    }
  }

  /**
   * Notes a blob that lost its last known reference, and deletes it now when no write is in
   * flight (resolving once that pass is done); otherwise the pass after the last write does.
   */
  async orphaned(blob: BlobKey): Promise<void> {
    this.#orphans.add(blob);
    this.#start();
    await this.#pass;
  }

  /** Resolves when no deletion pass is running (tests). */
  async idle(): Promise<void> {
    while (this.#pass !== undefined) await this.#pass;
  }

  #start(): void {
    if (this.#pass !== undefined || this.#writing > 0 || this.#waiting > 0 || this.#orphans.size === 0) return;
    this.#pass = this.#run().finally(() => {
      this.#pass = undefined;
      this.#start();
    });
  }

  async #run(): Promise<void> {
    const batch = [...this.#orphans];
    this.#orphans.clear();
    for (const blob of batch) {
      if (this.#options.referenced(blob)) continue;
      try {
        await this.#options.remove(blob);
      } catch (e) {
        this.#options.log(`runjs: could not delete unreferenced artifact payload ${blob}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }
}
