// Heap store errors, each naming the key, so an execution that cannot restore its heap fails with
// a message the caller can act on (and never silently starts from a fresh VM). They never name
// where the store is (a directory, a bucket, an endpoint): their messages become the execution's
// `error`, which callers of a shared server see, and the location is the operator's business.
// The execution service logs the location beside the full message. Codes and texts are the
// registry's outcome texts (shared/errors.ts, EXECUTION_ERRORS).
import { EXECUTION_ERRORS } from '../../shared/errors.ts';
import { BlobStoreIoError, BlobStoreUnavailableError } from '../stores/blob/index.ts';

export abstract class HeapStoreError extends Error {
  abstract readonly code: 'HEAP_NOT_FOUND' | 'HEAP_CORRUPT';
}

/** No heap is stored under the key (never produced here, or produced against another store). */
export class HeapNotFoundError extends HeapStoreError {
  readonly code = 'HEAP_NOT_FOUND';
  readonly key: string;
  constructor(key: string) {
    super(EXECUTION_ERRORS.HEAP_NOT_FOUND(key));
    this.name = 'HeapNotFoundError';
    this.key = key;
  }
}

/** The heap whose own data failed verification, and how. */
export interface DamagedHeap {
  readonly key: string;
  readonly detail: string;
}

/** A stored record, payload or reconstructed image that fails verification. */
export class HeapCorruptError extends HeapStoreError {
  readonly code = 'HEAP_CORRUPT';
  readonly key: string;
  readonly detail: string;
  /** Where the damage is: this heap, or the ancestor in its delta chain that failed. */
  readonly damaged: DamagedHeap;
  constructor(key: string, detail: string, damaged: DamagedHeap = { key, detail }) {
    super(EXECUTION_ERRORS.HEAP_CORRUPT(key, detail));
    this.name = 'HeapCorruptError';
    this.key = key;
    this.detail = detail;
    this.damaged = damaged;
  }

  /** `key` cannot be rebuilt because an ancestor is damaged: names the asked-for key, with the damaged ancestor as the detail. */
  static ofAncestor(key: string, ancestor: HeapCorruptError): HeapCorruptError {
    const { damaged } = ancestor;
    return new HeapCorruptError(key, `its ancestor heap ${damaged.key} is corrupt: ${damaged.detail}`, damaged);
  }
}

/**
 * What a caller may see of a heap store failure. Heap errors are shown whole (they name no
 * location); the blob store's own errors name the directory or bucket, and an S3 or file system
 * message may too, so only their kind is shown and the server log has the rest.
 */
export function publicHeapStoreError(e: unknown): string {
  if (e instanceof HeapStoreError) return e.message;
  if (e instanceof BlobStoreUnavailableError) return EXECUTION_ERRORS.HEAP_STORE_UNAVAILABLE;
  if (e instanceof BlobStoreIoError) return EXECUTION_ERRORS.HEAP_STORE_IO;
  return EXECUTION_ERRORS.HEAP_STORE_FAILED;
}
