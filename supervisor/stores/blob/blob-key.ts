// Keys are validated before they reach a path or an S3 key: exactly 64 lowercase hex characters,
// so no key can contain `/`, `..` or anything else that would escape the store's root.
import { createHash } from 'node:crypto';
import type { BlobKey } from './blob-store.ts';
import { InvalidBlobKeyError } from './blob-errors.ts';

const KEY_PATTERN = /^[0-9a-f]{64}$/;

export function isBlobKey(key: unknown): key is BlobKey {
  return typeof key === 'string' && KEY_PATTERN.test(key);
}

export function assertBlobKey(key: unknown): asserts key is BlobKey {
  if (!isBlobKey(key)) throw new InvalidBlobKeyError(key);
}

/** The key of `bytes`: its sha256 as lowercase hex. */
export function blobKeyOf(bytes: Uint8Array): BlobKey {
  return createHash('sha256').update(bytes).digest('hex');
}

/** `ab/cdef…`: the first two hex digits name a shard directory (at most 256), as git does. */
export function shardedPath(key: BlobKey): string {
  return `${key.slice(0, 2)}/${key.slice(2)}`;
}
