// Heap store errors, each naming the key, so an execution that cannot restore its heap fails with
// a message the caller can act on (and never silently starts from a fresh VM).

export abstract class HeapStoreError extends Error {
  abstract readonly code: string;
}

/** No heap is stored under the key (never produced here, or produced against another store). */
export class HeapNotFoundError extends HeapStoreError {
  readonly code = 'HEAP_NOT_FOUND';
  readonly key: string;
  constructor(key: string, location: string) {
    super(`heap ${key} was not found in the heap store (${location}); it was never stored there, or the store was changed or cleaned`);
    this.name = 'HeapNotFoundError';
    this.key = key;
  }
}

/** A stored record, payload or reconstructed image that fails verification. */
export class HeapCorruptError extends HeapStoreError {
  readonly code = 'HEAP_CORRUPT';
  readonly key: string;
  readonly detail: string;
  constructor(key: string, detail: string) {
    super(`heap ${key} is corrupt and was not restored: ${detail}`);
    this.name = 'HeapCorruptError';
    this.key = key;
    this.detail = detail;
  }
}
