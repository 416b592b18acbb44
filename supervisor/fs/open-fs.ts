// From the configuration to an FsService: the blob store behind `--fs-store` (a directory,
// `--fs-dir`, or S3 under the `fs/` prefix, so one bucket can also hold heaps and artifacts) and
// the label database under `--fs-labels-db`. Independent of `--heap-store`.
import { createBlobStore, type BlobStore } from '../stores/blob/index.ts';
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
}

export function openFsBlobs(config: FsConfig, log: (line: string) => void): BlobStore | undefined {
  if (config.fsStore === 'dir') return createBlobStore({ backend: 'dir', dir: config.fsDir, log });
  if (config.fsStore === 's3') {
    return createBlobStore({
      backend: 's3', s3Bucket: config.s3Bucket ?? '', s3Prefix: S3_FS_PREFIX, log,
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

export function openFs(config: FsConfig, log: { warn(line: string): void }): OpenedFs {
  if (config.stateless && config.fsStore !== 'none') log.warn('--fs-store has no effect with --stateless: nothing persists between runs');
  const blobs = config.stateless ? undefined : openFsBlobs(config, (line) => log.warn(line));
  if (blobs === undefined) return { service: new FsService(), close: async () => {} };
  const store = new FsStore({ blobs, log: (line) => log.warn(line) });
  const labels = new LabelsDb(config.fsLabelsDb);
  return {
    service: new FsService({ store, labels }),
    close: async () => {
      labels.close();
      await store.close();
    },
  };
}
