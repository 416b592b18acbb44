// The blob store's public surface; other modules import from here, not from the backends.
export type { BlobKey, BlobListing, BlobStore, SweepableBlobStore } from './blob-store.ts';
export { isSweepable } from './blob-store.ts';
export { assertBlobKey, blobKeyOf, isBlobKey } from './blob-key.ts';
export {
  BlobCorruptError, BlobStoreError, BlobStoreIoError, BlobStoreUnavailableError, InvalidBlobKeyError,
} from './blob-errors.ts';
export { createBlobStore, type BlobStoreConfig, type DirBlobStoreConfig, type S3BlobStoreConfig } from './create-blob-store.ts';
export { DirBlobStore, type DirBlobStoreOptions } from './dir-blob-store.ts';
export { S3BlobStore, type S3BlobStoreOptions } from './s3-blob-store.ts';
export { BlobCache, DEFAULT_CACHE_MAX_BYTES, type BlobCacheOptions } from './blob-cache.ts';
export { S3Records } from './s3-records.ts';
