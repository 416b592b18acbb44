// The external-module cache's copy in S3, kept when the server's stores are S3 (--heap-store s3 or
// --fs-store s3), so every server sharing the bucket imports what one of them fetched — with an
// empty local cache and no registry. Tarballs, URL module bodies and bundles are content-addressed
// blobs under `modules/blobs/` (put-if-absent, verified on read by the blob store); each locked
// specifier has a write-once record under `modules/lock/<sha256 of the specifier>` naming its lock
// entry, its bundle's blob and each artifact's blob by integrity. The first server to lock a
// specifier wins, as with the local lock; the local cache stays in front (module-cache.ts).
import { createHash } from 'node:crypto';
import type { BlobStore } from '../stores/blob/index.ts';
import type { S3Records } from '../stores/blob/s3-records.ts';
import type { LockEntry } from './module-cache.ts';

export const S3_MODULE_BLOBS_PREFIX = 'modules/blobs/';
export const S3_MODULE_LOCK_PREFIX = 'modules/lock/';

export interface SharedRecord {
  readonly specifier: string;
  readonly entry: LockEntry;
  /** The bundle's blob key. */
  readonly bundle: string;
  /** Each fetched artifact's blob key, by its integrity (`sha512-…`). */
  readonly blobs: Readonly<Record<string, string>>;
}

function isRecord(v: unknown, specifier: string): v is SharedRecord {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  const entry = r['entry'] as Record<string, unknown> | null | undefined;
  return r['specifier'] === specifier && typeof r['bundle'] === 'string' && typeof r['blobs'] === 'object' && r['blobs'] !== null
    && typeof entry === 'object' && entry !== null && typeof entry['resolvedUrl'] === 'string'
    && ((entry['type'] === 'url' && Array.isArray(entry['urls'])) || ((entry['type'] === 'npm' || entry['type'] === 'jsr') && Array.isArray(entry['packages']) && typeof entry['entry'] === 'string'));
}

export class SharedModuleStore {
  readonly blobs: BlobStore;
  readonly #records: S3Records;

  constructor(blobs: BlobStore, records: S3Records) {
    this.blobs = blobs;
    this.#records = records;
  }

  get location(): string {
    return this.#records.location;
  }

  static recordKey(specifier: string): string {
    return createHash('sha256').update(specifier).digest('hex');
  }

  /** The record of `specifier`; one that does not describe it (or is not a record) counts as none. */
  async getRecord(specifier: string): Promise<SharedRecord | undefined> {
    const bytes = await this.#records.get(SharedModuleStore.recordKey(specifier));
    if (bytes === undefined) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(bytes).toString('utf8'));
    } catch {
      return undefined;
    }
    return isRecord(parsed, specifier) ? parsed : undefined;
  }

  async putRecord(record: SharedRecord): Promise<void> {
    await this.#records.putIfAbsent(SharedModuleStore.recordKey(record.specifier), Buffer.from(JSON.stringify(record)));
  }

  async close(): Promise<void> {
    await Promise.all([this.blobs.close(), this.#records.close()]);
  }
}
