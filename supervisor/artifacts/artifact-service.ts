// Artifacts: keyed payloads scripts emit and clients download (or upload through one-time
// URLs). Metadata in SQLite, payloads in the content-addressed blob store; the same key
// overwrites (the metadata row moves to the new blob; blobs themselves are never rewritten).
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { BlobStore } from '../stores/blob/index.ts';
import type { ArtifactMeta } from '../executions/execution-types.ts';
import { checkKey, checkMime, checkSize } from './artifact-rules.ts';

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

export class ArtifactService {
  readonly #db: DatabaseSync;
  readonly #blobs: BlobStore;
  readonly #now: () => Date;
  readonly #upsert: StatementSync;
  readonly #emit: StatementSync;
  readonly #get: StatementSync;
  readonly #list: StatementSync;
  readonly #forExecution: StatementSync;
  readonly #forget: StatementSync;

  constructor(db: DatabaseSync, blobs: BlobStore, now: () => Date = () => new Date()) {
    this.#db = db;
    this.#blobs = blobs;
    this.#now = now;
    this.#upsert = db.prepare(`INSERT INTO artifacts (key, mime_type, size_bytes, blob, created_at, execution_id) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (key) DO UPDATE SET mime_type = excluded.mime_type, size_bytes = excluded.size_bytes, blob = excluded.blob,
        created_at = excluded.created_at, execution_id = excluded.execution_id`);
    this.#emit = db.prepare(`INSERT INTO execution_artifacts (execution_id, key, mime_type, size_bytes, created_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (execution_id, key) DO UPDATE SET mime_type = excluded.mime_type, size_bytes = excluded.size_bytes, created_at = excluded.created_at`);
    this.#get = db.prepare('SELECT key, mime_type, size_bytes, blob, created_at, execution_id FROM artifacts WHERE key = ?');
    this.#list = db.prepare('SELECT key, mime_type, size_bytes, created_at, execution_id FROM artifacts ORDER BY key');
    this.#forExecution = db.prepare('SELECT key, mime_type, size_bytes, created_at, execution_id FROM execution_artifacts WHERE execution_id = ? ORDER BY key');
    this.#forget = db.prepare('DELETE FROM execution_artifacts WHERE execution_id = ?');
  }

  /** Validates and stores `bytes` under `key`; returns the new metadata. */
  async put(key: string, mime: string, bytes: Uint8Array, executionId: string | null): Promise<ArtifactMeta> {
    checkKey(key);
    const mimeType = checkMime(mime);
    checkSize(bytes.byteLength);
    const blob = await this.#blobs.put(bytes);
    const createdAt = this.#now().toISOString();
    this.#db.exec('BEGIN');
    try {
      this.#upsert.run(key, mimeType, bytes.byteLength, blob, createdAt, executionId);
      if (executionId !== null) this.#emit.run(executionId, key, mimeType, bytes.byteLength, createdAt);
      this.#db.exec('COMMIT');
    } catch (e) {
      this.#db.exec('ROLLBACK');
      throw e;
    }
    return { key, mime_type: mimeType, size_bytes: bytes.byteLength, created_at: createdAt, execution_id: executionId };
  }

  meta(key: string): ArtifactMeta | undefined {
    const r = this.#get.get(key) as ArtifactRow | undefined;
    return r ? toMeta(r) : undefined;
  }

  /** Metadata and payload, or undefined for an unknown key. */
  async get(key: string): Promise<{ meta: ArtifactMeta; bytes: Uint8Array } | undefined> {
    const r = this.#get.get(key) as ArtifactRow | undefined;
    if (!r) return undefined;
    const bytes = await this.#blobs.get(r.blob);
    if (bytes === undefined) throw new Error(`artifact '${key}' refers to blob ${r.blob}, which the blob store does not have`);
    return { meta: toMeta(r), bytes };
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
