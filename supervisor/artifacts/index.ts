// Artifacts for the composition root: the service and the upload tokens over one metadata
// database, payloads in a blob store: a directory under --session-db-path, or the S3 bucket
// under `artifacts/` when the stores are S3.
import type { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { createBlobStore, type BlobStore } from '../stores/blob/index.ts';
import { ArtifactService } from './artifact-service.ts';
import { UploadTokens } from './upload-tokens.ts';

export { ArtifactService } from './artifact-service.ts';
export { UploadTokens } from './upload-tokens.ts';
export { artifactOpRoutes } from './artifact-op-handler.ts';

export interface Artifacts {
  readonly service: ArtifactService;
  readonly uploads: UploadTokens;
}

export const S3_ARTIFACT_PREFIX = 'artifacts/';

/** The parts of the configuration that decide where payloads go. */
export interface ArtifactStoreConfig {
  readonly sessionDbPath: string;
  /** The stores are S3 (`--heap-store s3`): payloads go to the same bucket under `artifacts/`. */
  readonly heapStore?: 'none' | 'dir' | 's3' | undefined;
  readonly s3Bucket?: string | undefined;
  readonly s3Endpoint?: string | undefined;
  readonly s3ForcePathStyle?: boolean | undefined;
  readonly cacheDir?: string | undefined;
}

/** Directory of artifact payloads when the blob store is a directory. */
export function defaultArtifactDir(sessionDbPath: string): string {
  return join(sessionDbPath, 'blobs');
}

export function openArtifactBlobs(config: ArtifactStoreConfig, log: (line: string) => void): BlobStore {
  if (config.heapStore !== 's3') return createBlobStore({ backend: 'dir', dir: defaultArtifactDir(config.sessionDbPath), log });
  return createBlobStore({
    backend: 's3', s3Bucket: config.s3Bucket ?? '', s3Prefix: S3_ARTIFACT_PREFIX, log,
    ...(config.s3Endpoint === undefined ? {} : { s3Endpoint: config.s3Endpoint }),
    ...(config.s3ForcePathStyle === undefined ? {} : { s3ForcePathStyle: config.s3ForcePathStyle }),
    ...(config.cacheDir === undefined ? {} : { cacheDir: config.cacheDir }),
  });
}

/** `blobs` overrides the store chosen from the configuration (tests). */
export function openArtifacts(db: DatabaseSync, config: ArtifactStoreConfig, log: (line: string) => void = () => {}, blobs?: BlobStore): Artifacts {
  // On S3 the `artifacts/` prefix is shared by every server using the bucket, each with its own
  // metadata database: an object this one no longer references may be another server's payload.
  const reclaim = config.heapStore !== 's3';
  return { service: new ArtifactService(db, blobs ?? openArtifactBlobs(config, log), { reclaim, log }), uploads: new UploadTokens(db) };
}
