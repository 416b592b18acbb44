// The heap store's public surface.
export { HeapStore, isHeapKey, MAX_DELTA_DEPTH, type EncodeOffer, type HeapStoreOptions, type PutResult, type StoredHeap } from './heap-store.ts';
export { HeapCorruptError, HeapNotFoundError, HeapStoreError, publicHeapStoreError } from './heap-errors.ts';
export type { HeapRecord } from '../../shared/heap-record.ts';
export { HeapService, checkHeapKey, checkSession, checkTags } from './heap-service.ts';
export type { HeapTagMatch, Tags } from './heap-tags.ts';
export type { SessionSnapshotEntry } from './session-log.ts';
export { openHeaps, openHeapBlobs, S3_HEAP_PREFIX, type HeapConfig } from './open-heaps.ts';
