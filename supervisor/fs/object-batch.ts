// The new objects of one snapshot write (a commit, a merge, a file), gathered in memory and
// stored with one durability barrier (BlobStore.putAll) instead of one per object: a commit of a
// one-line edit makes a file, a directory per path component and a root, and fsyncing each on
// its own costs more than everything else a run's commit does. Keys are computed as objects are
// added, so parents can name children before anything is written; nothing names the batch's
// objects outside the store until `flush` resolves, so a crash before then loses nothing that
// was reported. A batch that grows past FLUSH_BYTES is flushed early to bound its memory.
import { blobKeyOf, type BlobStore } from '../stores/blob/index.ts';
import { encodeObject, guarded } from './fs-objects.ts';
import type { TreeNode } from './tree-format.ts';

/** Encoded bytes a batch holds before it is flushed early (a large file's chunks). */
export const FLUSH_BYTES = 16 * 1024 * 1024;

export class ObjectBatch {
  readonly #blobs: BlobStore;
  readonly #log: (line: string) => void;
  readonly #durable: (nodes: ReadonlyMap<string, TreeNode>) => void;
  #objects = new Map<string, Uint8Array>();
  #nodes = new Map<string, TreeNode>();
  #bytes = 0;

  /** `durable` learns the tree nodes of each flushed part (the store caches them: no read back). */
  constructor(blobs: BlobStore, log: (line: string) => void, durable: (nodes: ReadonlyMap<string, TreeNode>) => void) {
    this.#blobs = blobs;
    this.#log = log;
    this.#durable = durable;
  }

  /** Adds `payload` (encoded as stored) and returns its key; `node` is its decoded form when it is a tree node. */
  add(payload: Uint8Array, node?: TreeNode): string {
    const stored = encodeObject(payload);
    const key = blobKeyOf(stored);
    if (!this.#objects.has(key)) {
      this.#objects.set(key, stored);
      this.#bytes += stored.length;
    }
    if (node !== undefined) this.#nodes.set(key, node);
    return key;
  }

  get full(): boolean {
    return this.#bytes >= FLUSH_BYTES;
  }

  /** Stores everything added so far; resolves once all of it is durable. */
  async flush(): Promise<void> {
    if (this.#objects.size === 0) return;
    const objects = [...this.#objects.values()];
    const nodes = this.#nodes;
    this.#objects = new Map();
    this.#nodes = new Map();
    this.#bytes = 0;
    await guarded(this.#log, objects.length === 1 ? 'writing an object' : `writing ${objects.length} objects`, () => this.#blobs.putAll(objects));
    this.#durable(nodes);
  }
}
