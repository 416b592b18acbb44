// From the configuration to the ModuleService (--allow-external-modules): the cache under
// --session-db-path, and — when the server's stores are S3 (--heap-store s3 or --fs-store s3) —
// its shared copy in the same bucket (`modules/` beside `heaps/`, `fs/`, `artifacts/`).
import path from 'node:path';
import { createBlobStore, S3Records } from '../stores/blob/index.ts';
import { ModuleService } from './module-service.ts';
import { loadRegistryConfig } from './registry-config.ts';
import { S3_MODULE_BLOBS_PREFIX, S3_MODULE_LOCK_PREFIX, SharedModuleStore } from './shared-module-store.ts';

export interface ModulesConfig {
  readonly allowExternalModules: boolean;
  readonly sessionDbPath: string;
  readonly heapStore: 'none' | 'dir' | 's3';
  readonly fsStore: 'none' | 'dir' | 's3';
  readonly s3Bucket?: string | undefined;
  readonly s3Endpoint?: string | undefined;
  readonly s3ForcePathStyle?: boolean | undefined;
  readonly cacheDir?: string | undefined;
}

export function openModules(config: ModulesConfig, log: (line: string) => void): { service: ModuleService; describe: string } | undefined {
  if (!config.allowExternalModules) return undefined;
  const cacheDir = path.join(config.sessionDbPath, 'modules');
  const s3 = config.heapStore === 's3' || config.fsStore === 's3';
  const endpoint = {
    ...(config.s3Endpoint === undefined ? {} : { endpoint: config.s3Endpoint }),
    ...(config.s3ForcePathStyle === undefined ? {} : { forcePathStyle: config.s3ForcePathStyle }),
  };
  const shared = s3
    ? new SharedModuleStore(
      createBlobStore({
        backend: 's3', s3Bucket: config.s3Bucket ?? '', s3Prefix: S3_MODULE_BLOBS_PREFIX, log,
        ...(config.s3Endpoint === undefined ? {} : { s3Endpoint: config.s3Endpoint }),
        ...(config.s3ForcePathStyle === undefined ? {} : { s3ForcePathStyle: config.s3ForcePathStyle }),
        ...(config.cacheDir === undefined ? {} : { cacheDir: config.cacheDir }),
      }),
      new S3Records({ bucket: config.s3Bucket ?? '', prefix: S3_MODULE_LOCK_PREFIX, ...endpoint }),
    )
    : undefined;
  const service = new ModuleService({ cacheDir, registry: loadRegistryConfig(), log, ...(shared === undefined ? {} : { shared }) });
  return { service, describe: `npm registry ${service.registryUrl}, cache ${cacheDir}${shared === undefined ? '' : ` and ${shared.location}`}` };
}
