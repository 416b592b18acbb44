// Artifacts: keyed payloads scripts emit and clients download (or upload through one-time
// URLs). Metadata in SQLite, payloads in the content-addressed blob store; the same key
// overwrites (the metadata row moves to the new blob; blobs themselves are never rewritten).
// A payload no row references any more (overwritten or deleted) is deleted from the store
// (see reclaim.ts for how that stays safe against concurrent writes of the same content).
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { BlobKey, BlobStore } from '../stores/blob/index.ts';
import type { ArtifactMeta } from '../executions/execution-types.ts';
import { RunjsError } from '../../shared/errors.ts';
import { checkKey, checkMime, checkSize, MAX_ARTIFACT_BYTES } from './artifact-rules.ts';
import { Reclaimer } from './reclaim.ts';

interface ArtifactRow {
  key: string;
  mime_type: string;
  size_bytes: number;
  blob: string;
  created_at: string;
  execution_id: string | null;
}

function toMeta(r: { key: string; mime_type: string; size_bytes: number; created_at: string; execution_id?: string | null }): ArtifactMeta {
  return { key: r.key, mime_type: r.mime_type, size_bytes: Number(r.size_bytes), created_at: r.created_at, execution_id: r.execution_id ?? null };
}

export interface ArtifactServiceOptions {
  readonly now?: () => Date;
  /**
   * Delete payloads no artifact references any more (default true). Off when the blob store may
   * hold other servers' payloads too (the shared `artifacts/` prefix of an S3 bucket), where an
   * object this database no longer references may still be another server's artifact.
   */
  readonly reclaim?: boolean;
  /** Where a failed reclaim is reported (the space stays used; nothing else is affected). */
  readonly log?: (line: string) => void;
}

export class ArtifactService {
  readonly #db: DatabaseSync;
  readonly #blobs: BlobStore;
  readonly #now: () => Date;
  readonly #reclaimer: Reclaimer | undefined;
  readonly #upsert: StatementSync;
  readonly #emit: StatementSync;
  readonly #get: StatementSync;
  readonly #list: StatementSync;
  readonly #forExecution: StatementSync;
  readonly #forget: StatementSync;
  readonly #remove: StatementSync;
  readonly #referenced: StatementSync;
  /** Told after every stored or deleted artifact (MCP resource list-changed notifications). */
  readonly #changeListeners = new Set<() => void>();

  constructor(db: DatabaseSync, blobs: BlobStore, options: ArtifactServiceOptions = {}) {
    this.#db = db;
    this.#blobs = blobs;
    this.#now = options.now ?? (() => new Date());
    this.#upsert = db.prepare(`INSERT INTO artifacts (key, mime_type, size_bytes, blob, created_at, execution_id) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (key) DO UPDATE SET mime_type = excluded.mime_type, size_bytes = excluded.size_bytes, blob = excluded.blob,
        created_at = excluded.created_at, execution_id = excluded.execution_id`);
    this.#emit = db.prepare(`INSERT INTO execution_artifacts (execution_id, key, mime_type, size_bytes, created_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (execution_id, key) DO UPDATE SET mime_type = excluded.mime_type, size_bytes = excluded.size_bytes, created_at = excluded.created_at`);
    this.#get = db.prepare('SELECT key, mime_type, size_bytes, blob, created_at, execution_id FROM artifacts WHERE key = ?');
    this.#list = db.prepare('SELECT key, mime_type, size_bytes, created_at, execution_id FROM artifacts ORDER BY key');
    this.#forExecution = db.prepare('SELECT key, mime_type, size_bytes, created_at, execution_id FROM execution_artifacts WHERE execution_id = ? ORDER BY key');
    this.#forget = db.prepare('DELETE FROM execution_artifacts WHERE execution_id = ?');
    this.#remove = db.prepare('DELETE FROM artifacts WHERE key = ? RETURNING key, mime_type, size_bytes, blob, created_at, execution_id');
    this.#referenced = db.prepare('SELECT 1 AS x FROM artifacts WHERE blob = ? LIMIT 1');
    this.#reclaimer = options.reclaim === false ? undefined : new Reclaimer({
      referenced: (blob) => this.#referenced.get(blob) !== undefined,
      remove: (blob) => this.#blobs.delete(blob),
      log: options.log ?? (() => {}),
    });
  }

  /** Validates and stores `bytes` under `key`; returns the new metadata. */
  async put(key: string, mime: string, bytes: Uint8Array, executionId: string | null): Promise<ArtifactMeta> {
    checkKey(key);
    const mimeType = checkMime(mime);
    checkSize(bytes.byteLength);
    return this.#write(key, mimeType, executionId, async () => ({ blob: await this.#blobs.put(bytes), size: bytes.byteLength }));
  }

  /**
   * As `put`, for a payload arriving in chunks (an HTTP upload): the chunks go straight into the
   * blob store, so the payload is never held whole in memory. More than 16 MiB fails with RunjsError
   * ARTIFACT_PAYLOAD_TOO_LARGE and stores nothing; an error thrown by `chunks` passes through as is.
   */
  async putStream(key: string, mime: string, chunks: AsyncIterable<Uint8Array>, executionId: string | null): Promise<ArtifactMeta> {
    checkKey(key);
    const mimeType = checkMime(mime);
    return this.#write(key, mimeType, executionId, async () => {
      let size = 0;
      const counted = async function* (): AsyncGenerator<Uint8Array> {
        for await (const chunk of chunks) {
          size += chunk.byteLength;
          // Checked before the chunk is written: a payload over the limit never reaches the store whole.
          if (size > MAX_ARTIFACT_BYTES) throw new RunjsError('ARTIFACT_PAYLOAD_TOO_LARGE', MAX_ARTIFACT_BYTES);
          yield chunk;
        }
      };
      const blob = await this.#blobs.putStream(counted());
      return { blob, size };
    });
  }

  async #write(key: string, mimeType: string, executionId: string | null, store: () => Promise<{ blob: BlobKey; size: number }>): Promise<ArtifactMeta> {
    const write = async (): Promise<{ meta: ArtifactMeta; replaced: BlobKey | undefined }> => {
      const { blob, size } = await store();
      const createdAt = this.#now().toISOString();
      const previous = (this.#get.get(key) as ArtifactRow | undefined)?.blob;
      this.#db.exec('BEGIN');
      try {
        this.#upsert.run(key, mimeType, size, blob, createdAt, executionId);
        if (executionId !== null) this.#emit.run(executionId, key, mimeType, size, createdAt);
        this.#db.exec('COMMIT');
      } catch (e) {
        this.#db.exec('ROLLBACK');
        throw e;
      }
      const meta = { key, mime_type: mimeType, size_bytes: size, created_at: createdAt, execution_id: executionId };
      return { meta, replaced: previous !== undefined && previous !== blob ? previous : undefined };
    };
    if (this.#reclaimer === undefined) {
      const { meta } = await write();
      this.#changed();
      return meta;
    }
    const { meta, replaced } = await this.#reclaimer.writing(write);
    this.#changed();
    if (replaced !== undefined) await this.#reclaimer.orphaned(replaced);
    return meta;
  }

  /** Calls `listener` after every artifact stored, replaced or deleted; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.#changeListeners.add(listener);
    return () => this.#changeListeners.delete(listener);
  }

  #changed(): void {
    for (const listener of this.#changeListeners) listener();
  }

  /** Removes the artifact (its payload too, when nothing else references it); its metadata, or undefined for an unknown key. */
  async delete(key: string): Promise<ArtifactMeta | undefined> {
    const row = this.#remove.get(key) as ArtifactRow | undefined;
    if (row === undefined) return undefined;
    this.#changed();
    await this.#reclaimer?.orphaned(row.blob);
    return toMeta(row);
  }

  meta(key: string): ArtifactMeta | undefined {
    const r = this.#get.get(key) as ArtifactRow | undefined;
    return r ? toMeta(r) : undefined;
  }

  /** Metadata and payload, or undefined for an unknown key. */
  async get(key: string): Promise<{ meta: ArtifactMeta; bytes: Uint8Array } | undefined> {
    for (let attempt = 0; ; attempt++) {
      const r = this.#get.get(key) as ArtifactRow | undefined;
      if (!r) return undefined;
      const bytes = await this.#blobs.get(r.blob);
      if (bytes !== undefined) return { meta: toMeta(r), bytes };
      // Overwritten or deleted while the payload was being read (its old blob reclaimed): read again.
      const now = this.#get.get(key) as ArtifactRow | undefined;
      if (now?.blob === r.blob || attempt >= 2) {
        throw new Error(`artifact '${key}' refers to blob ${r.blob}, which the blob store does not have`);
      }
    }
  }

  list(): ArtifactMeta[] {
    return (this.#list.all() as unknown as ArtifactRow[]).map(toMeta);
  }

  /** Drops the record of what a pruned execution emitted (the artifacts themselves stay). */
  forgetExecution(executionId: string): void {
    this.#forget.run(executionId);
  }

  /** What an execution emitted (latest write per key), as it was when emitted. */
  forExecution(executionId: string): ArtifactMeta[] {
    return (this.#forExecution.all(executionId) as unknown as ArtifactRow[]).map(toMeta);
  }
}
