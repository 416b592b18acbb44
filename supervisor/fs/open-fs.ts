// From the configuration to an FsService: the blob store behind `--fs-store` (a directory,
// `--fs-dir`, or S3 under the `fs/` prefix, so one bucket can also hold heaps and artifacts) and
// the label database under `--fs-labels-db`. Independent of `--heap-store`.
import { join, relative, resolve, isAbsolute } from 'node:path';
import type { PolicySettings } from '../../shared/policy-settings.ts';
import { createBlobStore, isSweepable, type BlobStore } from '../stores/blob/index.ts';
import { SupervisorPolicy } from '../policy/supervisor-policy.ts';
import { GC_REFRESH_AFTER_MS } from './fs-gc.ts';
import { FsService } from './fs-service.ts';
import { FsStore } from './fs-store.ts';
import { LabelsDb } from './labels-db.ts';

export const S3_FS_PREFIX = 'fs/';

export interface FsConfig {
  readonly fsStore: 'none' | 'dir' | 's3';
  readonly fsDir: string;
  readonly fsLabelsDb: string;
  readonly s3Bucket?: string | undefined;
  readonly s3Endpoint?: string | undefined;
  readonly s3ForcePathStyle?: boolean | undefined;
  readonly cacheDir?: string | undefined;
  readonly stateless?: boolean | undefined;
  /** The other stores' places, so garbage collection can refuse a blob directory it would share with them. */
  readonly heapStore?: 'none' | 'dir' | 's3' | undefined;
  readonly heapDir?: string | undefined;
  readonly sessionDbPath?: string | undefined;
}

export function openFsBlobs(config: FsConfig, log: (line: string) => void): BlobStore | undefined {
  // Puts refresh the time of an old object they re-use, which garbage collection relies on (fs-gc.ts).
  if (config.fsStore === 'dir') return createBlobStore({ backend: 'dir', dir: config.fsDir, log, refreshAfterMs: GC_REFRESH_AFTER_MS });
  if (config.fsStore === 's3') {
    return createBlobStore({
      backend: 's3', s3Bucket: config.s3Bucket ?? '', s3Prefix: S3_FS_PREFIX, log, refreshAfterMs: GC_REFRESH_AFTER_MS,
      ...(config.s3Endpoint === undefined ? {} : { s3Endpoint: config.s3Endpoint }),
      ...(config.s3ForcePathStyle === undefined ? {} : { s3ForcePathStyle: config.s3ForcePathStyle }),
      ...(config.cacheDir === undefined ? {} : { cacheDir: config.cacheDir }),
    });
  }
  return undefined;
}

export interface OpenedFs {
  readonly service: FsService;
  close(): Promise<void>;
}

/** Whether one of the two directories holds the other (or they are the same). */
function overlaps(a: string, b: string): boolean {
  const within = (x: string, y: string): boolean => {
    const r = relative(resolve(y), resolve(x));
    return r === '' || (!r.startsWith('..') && !isAbsolute(r));
  };
  return within(a, b) || within(b, a);
}

/**
 * Why garbage collection must not sweep this store, if it must not: a `dir` store whose directory
 * overlaps the heap store's, the artifact payloads' or the S3 read cache's holds objects that no
 * filesystem root names. (On S3 every store has its own prefix.)
 */
export function gcRefusal(config: FsConfig): string | undefined {
  if (config.fsStore !== 'dir') return undefined;
  const others: [string, string | undefined][] = [
    ['--heap-dir', config.heapStore === 'dir' ? config.heapDir : undefined],
    ['the artifact store', config.sessionDbPath === undefined ? undefined : join(config.sessionDbPath, 'blobs')],
    ['--cache-dir', config.cacheDir],
  ];
  for (const [what, dir] of others) {
    if (dir !== undefined && overlaps(config.fsDir, dir)) return `--fs-dir ${config.fsDir} overlaps ${what} (${dir}): it may hold objects that are not filesystem snapshots`;
  }
  return undefined;
}

export function openFs(config: FsConfig, log: { warn(line: string): void }, policies: PolicySettings = {}): OpenedFs {
  if (config.stateless && config.fsStore !== 'none') log.warn('--fs-store has no effect with --stateless: nothing persists between runs');
  const blobs = config.stateless ? undefined : openFsBlobs(config, (line) => log.warn(line));
  if (blobs === undefined) return { service: new FsService(), close: async () => {} };
  const labels = new LabelsDb(config.fsLabelsDb);
  const store = new FsStore({ blobs, log: (line) => log.warn(line), pin: (id) => labels.pin(id) });
  const policy = new SupervisorPolicy(policies, ['fs_snapshot']);
  const refusal = gcRefusal(config);
  return {
    service: new FsService({
      store, labels, policy,
      ...(isSweepable(blobs) ? { blobs } : {}),
      ...(refusal === undefined ? {} : { gcRefusal: refusal }),
    }),
    close: async () => {
      policy.dispose();
      labels.close();
      await store.close();
    },
  };
}
