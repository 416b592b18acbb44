// From the configuration to a HeapService: the blob store behind `--heap-store` (a directory, or
// S3 under the `heaps/` prefix so one bucket can also hold filesystem and artifact blobs) and the
// one-time `--session-fork-from` at startup. The conflicting-flag checks live in config/conflicts.ts.
import type { DatabaseSync } from 'node:sqlite';
import { ConfigError } from '../config/config-error.ts';
import { createBlobStore, type BlobStore } from '../stores/blob/index.ts';
import { HeapService } from './heap-service.ts';
import { HeapStore } from './heap-store.ts';
import { cachedBaseImage } from './base-image-source.ts';

export const S3_HEAP_PREFIX = 'heaps/';

export interface HeapConfig {
  readonly heapStore: 'none' | 'dir' | 's3';
  readonly heapDir: string;
  readonly s3Bucket?: string | undefined;
  readonly s3Endpoint?: string | undefined;
  readonly s3ForcePathStyle?: boolean | undefined;
  readonly cacheDir?: string | undefined;
  readonly sessionId?: string | undefined;
  readonly sessionForkFrom?: string | undefined;
  /** Stateless servers keep nothing between runs, whatever the store flags say. */
  readonly stateless?: boolean | undefined;
}

export function openHeapBlobs(config: HeapConfig, log: (line: string) => void): BlobStore | undefined {
  if (config.heapStore === 'dir') return createBlobStore({ backend: 'dir', dir: config.heapDir, log });
  if (config.heapStore === 's3') {
    return createBlobStore({
      backend: 's3', s3Bucket: config.s3Bucket ?? '', s3Prefix: S3_HEAP_PREFIX, log,
      ...(config.s3Endpoint === undefined ? {} : { s3Endpoint: config.s3Endpoint }),
      ...(config.s3ForcePathStyle === undefined ? {} : { s3ForcePathStyle: config.s3ForcePathStyle }),
      ...(config.cacheDir === undefined ? {} : { cacheDir: config.cacheDir }),
    });
  }
  return undefined;
}

export function openHeaps(config: HeapConfig, db: DatabaseSync, log: { warn(line: string): void; info(line: string): void }): HeapService {
  // A fork the server would silently not perform is a startup error, like the other fork checks.
  if (config.stateless && config.sessionForkFrom !== undefined) {
    throw new ConfigError('--session-fork-from cannot be used with --stateless: a stateless server keeps no sessions or heaps');
  }
  if (config.stateless && config.heapStore !== 'none') log.warn('--heap-store has no effect with --stateless: nothing persists between runs');
  const blobs = config.stateless ? undefined : openHeapBlobs(config, (line) => log.warn(line));
  const heaps = new HeapService(db, blobs && new HeapStore({ blobs, baseImage: cachedBaseImage }));
  if (heaps.enabled && config.sessionForkFrom !== undefined && config.sessionId !== undefined) {
    const from = config.sessionForkFrom;
    const to = config.sessionId;
    const outcome = heaps.log.fork(from, to, new Date().toISOString());
    if (outcome === 'forked') log.info(`session '${to}' forked from session '${from}'`);
    else if (outcome === 'source-empty') log.warn(`--session-fork-from '${from}': that session has no snapshots; '${to}' starts empty`);
    else log.info(`--session-fork-from '${from}': session '${to}' already has history; not forked`);
  }
  return heaps;
}
