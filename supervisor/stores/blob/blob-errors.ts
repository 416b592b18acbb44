// Blob store errors. Each carries a stable `code` so the layers above (heap store, REST, MCP) can
// map it without matching message text, and a message that names the key and the store.

export abstract class BlobStoreError extends Error {
  abstract readonly code: string;
}

/** A key that is not 64 lowercase hex characters; rejected before it can reach a path or URL. */
export class InvalidBlobKeyError extends BlobStoreError {
  readonly code = 'BLOB_INVALID_KEY';
  readonly key: unknown;
  constructor(key: unknown) {
    super(`invalid blob key ${describeKey(key)}: expected a sha256 digest as 64 lowercase hex characters`);
    this.name = 'InvalidBlobKeyError';
    this.key = key;
  }
}

/** A stored object whose bytes do not hash to its key (bit rot, a torn copy, tampering). */
export class BlobCorruptError extends BlobStoreError {
  readonly code = 'BLOB_CORRUPT';
  readonly key: string;
  readonly actualKey: string;
  readonly location: string;
  constructor(key: string, actualKey: string, location: string) {
    super(`blob ${key} in ${location} is corrupt: its content hashes to ${actualKey}; the bytes were not returned`);
    this.name = 'BlobCorruptError';
    this.key = key;
    this.actualKey = actualKey;
    this.location = location;
  }
}

/** A local filesystem failure (full disk, permissions, read-only mount); nothing partial is left visible. */
export class BlobStoreIoError extends BlobStoreError {
  readonly code = 'BLOB_STORE_IO';
  constructor(operation: string, location: string, cause: unknown) {
    super(`blob store I/O error: ${operation} in ${location}: ${describeIoError(cause)}`, { cause });
    this.name = 'BlobStoreIoError';
  }
}

/** A remote store that cannot be reached or refuses service (outage, timeout, credentials, bucket). */
export class BlobStoreUnavailableError extends BlobStoreError {
  readonly code = 'BLOB_STORE_UNAVAILABLE';
  constructor(detail: string, cause?: unknown) {
    super(`blob store unavailable: ${detail}`, { cause });
    this.name = 'BlobStoreUnavailableError';
  }
}

function describeKey(key: unknown): string {
  if (typeof key !== 'string') return `(${key === null ? 'null' : typeof key})`;
  const shown = key.length > 80 ? `${key.slice(0, 80)}…` : key;
  return JSON.stringify(shown);
}

const IO_REASONS: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  EIO: 'input/output error',
  EMFILE: 'too many open files',
  ENOTDIR: 'a path component is not a directory',
};

function describeIoError(cause: unknown): string {
  const code = (cause as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code in IO_REASONS) return `${IO_REASONS[code]} (${code})`;
  return cause instanceof Error ? cause.message : String(cause);
}
