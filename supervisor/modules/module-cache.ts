// The external-module cache under --session-db-path: every fetched artifact (tarball, URL module
// body) stored content-addressed by its sha512 (`blobs/<hex>`), the lock (`lock.json`: each
// resolved specifier → exactly what it resolved to) and bundles (`bundles/<sha256 of the lock
// entry>.js`). Writes are atomic (temp file + rename), so servers sharing the directory never see
// half a file. Deleting lock.json (or an entry) is how an operator refreshes resolutions.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** One package of a resolved npm tree: where it sits (`node_modules/a/node_modules/b`) and what it is. */
export interface LockedPackage {
  readonly path: string;
  readonly name: string;
  readonly version: string;
  readonly tarball: string;
  readonly integrity: string;
}

/** One URL module (the import's own or one it imports), with its body's integrity. */
export interface LockedUrl {
  readonly url: string;
  readonly integrity: string;
  /** Where the request ended after redirects, when elsewhere (relative imports resolve against it). */
  readonly redirectedTo?: string;
}

export type LockEntry =
  | { readonly type: 'npm' | 'jsr'; readonly resolvedUrl: string; readonly entry: string; readonly packages: readonly LockedPackage[] }
  | { readonly type: 'url'; readonly resolvedUrl: string; readonly urls: readonly LockedUrl[] };

export function sha512Integrity(bytes: Uint8Array): string {
  return `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
}

function writeAtomic(file: string, data: string | Uint8Array): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

export class ModuleCache {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
  }

  get dir(): string {
    return this.#dir;
  }

  #blobPath(integrity: string): string | undefined {
    const m = /^sha512-([A-Za-z0-9+/=]+)$/.exec(integrity);
    if (m === null) return undefined;
    return path.join(this.#dir, 'blobs', Buffer.from(m[1]!, 'base64').toString('hex'));
  }

  /** The stored bytes for `integrity` (verified again on read), or undefined. */
  getBlob(integrity: string): Uint8Array | undefined {
    const file = this.#blobPath(integrity);
    if (file === undefined) return undefined;
    try {
      const bytes = readFileSync(file);
      return sha512Integrity(bytes) === integrity ? bytes : undefined;
    } catch {
      return undefined;
    }
  }

  /** Stores `bytes` (whose sha512 the caller has verified); returns their integrity. */
  putBlob(bytes: Uint8Array): string {
    const integrity = sha512Integrity(bytes);
    writeAtomic(this.#blobPath(integrity)!, bytes);
    return integrity;
  }

  /** The lock as last read, and the file's mtime then: read again only when the file changed. */
  #lockRead: { mtimeMs: number; lock: Record<string, LockEntry> } | undefined;

  #lock(): Record<string, LockEntry> {
    const file = path.join(this.#dir, 'lock.json');
    let mtimeMs: number;
    try {
      mtimeMs = statSync(file).mtimeMs;
    } catch {
      this.#lockRead = undefined;
      return {};
    }
    if (this.#lockRead?.mtimeMs === mtimeMs) return this.#lockRead.lock;
    try {
      const lock = JSON.parse(readFileSync(file, 'utf8')) as Record<string, LockEntry>;
      this.#lockRead = { mtimeMs, lock };
      return lock;
    } catch {
      return {};
    }
  }

  getLock(specifier: string): LockEntry | undefined {
    const lock = this.#lock();
    return Object.hasOwn(lock, specifier) ? lock[specifier] : undefined;
  }

  putLock(specifier: string, entry: LockEntry): void {
    const lock = { ...this.#lock() };
    lock[specifier] = entry;
    const sorted = Object.fromEntries(Object.entries(lock).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const file = path.join(this.#dir, 'lock.json');
    writeAtomic(file, `${JSON.stringify(sorted, null, 2)}\n`);
    this.#lockRead = { mtimeMs: statSync(file).mtimeMs, lock: sorted };
  }

  static bundleKey(entry: LockEntry): string {
    return createHash('sha256').update(JSON.stringify(entry)).digest('hex');
  }

  getBundle(key: string): string | undefined {
    try {
      return readFileSync(path.join(this.#dir, 'bundles', `${key}.js`), 'utf8');
    } catch {
      return undefined;
    }
  }

  putBundle(key: string, source: string): void {
    writeAtomic(path.join(this.#dir, 'bundles', `${key}.js`), source);
  }
}
