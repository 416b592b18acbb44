// The one place that turns plain options (from the config module, which owns flags and the
// environment) into a concrete BlobStore. Nothing here reads process.env: the AWS SDK resolves
// region and credentials itself, and everything else arrives as a parameter.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { BlobStore } from './blob-store.ts';
import { DirBlobStore } from './dir-blob-store.ts';
import { S3BlobStore } from './s3-blob-store.ts';
import { BlobCache, DEFAULT_CACHE_MAX_BYTES } from './blob-cache.ts';

export interface DirBlobStoreConfig {
  readonly backend: 'dir';
  /** Root directory (e.g. --heap-dir, --fs-dir); created on first write. */
  readonly dir: string;
  /** See DirBlobStoreOptions.refreshAfterMs (the filesystem store, which garbage collection sweeps). */
  readonly refreshAfterMs?: number;
}

export interface S3BlobStoreConfig {
  readonly backend: 's3';
  readonly s3Bucket: string;
  /** Key prefix inside the bucket, so several stores (heaps, fs, artifacts) can share one bucket. */
  readonly s3Prefix?: string;
  readonly s3Endpoint?: string;
  readonly s3ForcePathStyle?: boolean;
  /** --cache-dir; without it reads are not cached locally. */
  readonly cacheDir?: string;
  readonly cacheMaxBytes?: number;
  /** Normally unset, leaving region and credentials to the AWS SDK's standard resolution. */
  readonly s3Region?: string;
  readonly s3Credentials?: { readonly accessKeyId: string; readonly secretAccessKey: string; readonly sessionToken?: string };
  readonly connectTimeoutMs?: number;
  readonly idleTimeoutMs?: number;
  readonly maxAttempts?: number;
  /** See S3BlobStoreOptions.refreshAfterMs. */
  readonly refreshAfterMs?: number;
}

export type BlobStoreConfig = (DirBlobStoreConfig | S3BlobStoreConfig) & {
  /** Where the store reports trouble it recovers from (a failing cache); stderr by default. */
  readonly log?: (line: string) => void;
};

export function createBlobStore(options: BlobStoreConfig): BlobStore {
  if (options.backend === 'dir') return new DirBlobStore({ root: options.dir, ...(options.refreshAfterMs === undefined ? {} : { refreshAfterMs: options.refreshAfterMs }) });
  if (typeof options.s3Bucket !== 'string' || options.s3Bucket === '') {
    throw new Error('--s3-bucket is required when a store is s3');
  }
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const cache = options.cacheDir === undefined ? undefined : new BlobCache({
    dir: join(options.cacheDir, cacheDirName(options)),
    maxBytes: options.cacheMaxBytes ?? DEFAULT_CACHE_MAX_BYTES,
    log,
  });
  return new S3BlobStore({
    bucket: options.s3Bucket,
    ...(options.s3Prefix === undefined ? {} : { prefix: options.s3Prefix }),
    ...(options.s3Endpoint === undefined ? {} : { endpoint: options.s3Endpoint }),
    ...(options.s3ForcePathStyle === undefined ? {} : { forcePathStyle: options.s3ForcePathStyle }),
    ...(options.s3Region === undefined ? {} : { region: options.s3Region }),
    ...(options.s3Credentials === undefined ? {} : { credentials: options.s3Credentials }),
    ...(options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs }),
    ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: options.idleTimeoutMs }),
    ...(options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts }),
    ...(options.refreshAfterMs === undefined ? {} : { refreshAfterMs: options.refreshAfterMs }),
    ...(cache === undefined ? {} : { cache }),
  });
}

/**
 * One cache directory per (endpoint, bucket, prefix). The S3 store treats a cached key as proof
 * that the object is in *its* bucket and prefix, so two stores must never share a cache.
 */
export function cacheDirName(options: Pick<S3BlobStoreConfig, 's3Bucket' | 's3Prefix' | 's3Endpoint'>): string {
  const identity = `${options.s3Endpoint ?? ''}\n${options.s3Bucket}\n${options.s3Prefix ?? ''}`;
  return `s3-${options.s3Bucket}-${createHash('sha256').update(identity).digest('hex').slice(0, 12)}`;
}
