// One-time upload URLs (interface spec: "Artifact upload token"): issued → in flight → used,
// a rejected or abandoned upload returns the token to issued, expiry ends it. Tokens carry
// 256 random bits and only their SHA-256 is stored, so the database never holds a credential.
import { createHash, randomBytes } from 'node:crypto';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { RunjsError } from '../../shared/errors.ts';
import { checkKey, checkMime } from './artifact-rules.ts';

export const DEFAULT_UPLOAD_TTL_SECS = 900;
export const MAX_UPLOAD_TTL_SECS = 86_400;

export interface IssuedUpload {
  readonly token: string;
  readonly key: string;
  readonly mimeType: string | null;
  readonly expiresAt: string;
}

/** A claimed token: exactly one of complete() / release() ends the claim. */
export interface UploadClaim {
  readonly key: string;
  readonly mimeType: string | null;
  complete(): void;
  release(): void;
}

function hash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export class UploadTokens {
  readonly #now: () => Date;
  readonly #insert: StatementSync;
  readonly #claim: StatementSync;
  readonly #setState: StatementSync;
  readonly #purge: StatementSync;

  constructor(db: DatabaseSync, now: () => Date = () => new Date()) {
    this.#now = now;
    this.#insert = db.prepare("INSERT INTO upload_tokens (token_hash, key, mime_type, expires_at, state) VALUES (?, ?, ?, ?, 'issued')");
    // The claim is one conditional UPDATE: of concurrent requests exactly one sees a change.
    this.#claim = db.prepare("UPDATE upload_tokens SET state = 'in_flight' WHERE token_hash = ? AND state = 'issued' AND expires_at > ? RETURNING key, mime_type");
    this.#setState = db.prepare('UPDATE upload_tokens SET state = ? WHERE token_hash = ? AND state = \'in_flight\'');
    this.#purge = db.prepare("DELETE FROM upload_tokens WHERE expires_at <= ? OR state = 'used'");
    // A claim cannot outlive the process that held it: after a restart those uploads were abandoned.
    db.prepare("UPDATE upload_tokens SET state = 'issued' WHERE state = 'in_flight'").run();
  }

  issue(key: string, mime: string | null | undefined, ttlSecs: number | null | undefined): IssuedUpload {
    checkKey(key);
    const mimeType = mime === undefined || mime === null ? null : checkMime(mime);
    const ttl = ttlSecs ?? DEFAULT_UPLOAD_TTL_SECS;
    if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_UPLOAD_TTL_SECS) {
      throw new RunjsError('UPLOAD_TTL_OUT_OF_RANGE', ttlSecs, MAX_UPLOAD_TTL_SECS);
    }
    const now = this.#now();
    this.#purge.run(now.toISOString());
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + ttl * 1000).toISOString();
    this.#insert.run(hash(token), key, mimeType, expiresAt);
    return { token, key, mimeType, expiresAt };
  }

  /** Claims an issued, unexpired token; undefined for unknown, expired, used or in-flight ones. */
  claim(token: string): UploadClaim | undefined {
    if (typeof token !== 'string' || token.length === 0 || token.length > 128) return undefined;
    const h = hash(token);
    const row = this.#claim.get(h, this.#now().toISOString()) as { key: string; mime_type: string | null } | undefined;
    if (!row) return undefined;
    let ended = false;
    const end = (state: 'used' | 'issued') => {
      if (ended) return;
      ended = true;
      this.#setState.run(state, h);
    };
    return { key: row.key, mimeType: row.mime_type, complete: () => end('used'), release: () => end('issued') };
  }
}
