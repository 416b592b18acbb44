// A filesystem snapshot as a run mounts it at /work, and what the run wrote, as they cross IPC.
// The supervisor sends the tree's structure with the RunRequest: files (path, mode, size and
// content id), symlinks; directories exist through what they hold, as in the store. A file's
// bytes are fetched when the run first needs them, by content id, over the worker's object pipe
// (worker/runtime/object-channel.ts); an entry may also carry its bytes inline (tests, tools).
// A completed run sends back its changes, which the supervisor commits (FsStore.commit) into a
// new snapshot; a file the run only moved or re-moded names its content by id instead of bytes.
// Bytes travel as Uint8Array.

/** Where a snapshot is mounted in the guest. */
export const MOUNT_POINT = '/work';

/** Per-run caps of the mount (docs/filesystem.md, "Limits"). */
export interface MountLimits {
  /** Bytes a run may write (writeFile, appendFile, copyFile, streams), summed over its writes. */
  readonly maxWriteBytes: number;
  /** Files, directories and symlinks the mounted tree may hold at any time. */
  readonly maxEntries: number;
}

export const DEFAULT_MOUNT_LIMITS: MountLimits = Object.freeze({ maxWriteBytes: 64 * 1024 * 1024, maxEntries: 100_000 });
/**
 * The most file bytes a snapshot may hold to be mounted. Contents are fetched on demand, so this
 * bounds nothing the worker holds; it keeps sizes far from Number's exact range and is documented.
 */
export const MAX_MOUNT_BYTES = 1024 ** 4;
/** The largest single file a run can read from its mount (a fetched file is held whole). */
export const MAX_FETCH_BYTES = 256 * 1024 * 1024;
/** Fetched, unchanged file bytes a run keeps; beyond this the least recently used are dropped and fetched again when needed. */
export const MAX_RESIDENT_BYTES = 64 * 1024 * 1024;
/** A content id: the store key of a file's content (or of its chunk list), 64 hex digits. */
export const CONTENT_ID = /^[0-9a-f]{64}$/;
/** Longest path (bytes of UTF-8) and name the mount accepts, as the store does. */
export const MAX_PATH_BYTES = 4096;
export const MAX_NAME_BYTES = 255;

/** A file of the mounted tree: its content id and size, and its bytes when sent inline. */
export interface MountFileEntry {
  readonly path: string;
  readonly kind: 'file';
  readonly mode: number;
  readonly size: number;
  readonly id: string;
  readonly bytes?: Uint8Array;
}

export type MountEntry =
  | MountFileEntry
  | { readonly path: string; readonly kind: 'symlink'; readonly target: string };

export interface MountImage {
  /** Files and symlinks by path relative to the mount point ("a/b.txt"). */
  readonly entries: readonly MountEntry[];
  readonly limits: MountLimits;
}

export type MountChange =
  | { readonly path: string; readonly kind: 'file'; readonly mode: number; readonly bytes: Uint8Array }
  /** A file of the mounted tree the run moved, copied or re-moded without reading its bytes. */
  | { readonly path: string; readonly kind: 'file'; readonly mode: number; readonly id: string }
  | { readonly path: string; readonly kind: 'symlink'; readonly target: string }
  | { readonly path: string; readonly kind: 'delete' };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

function isEntry(v: unknown): boolean {
  if (!isObject(v) || typeof v['path'] !== 'string') return false;
  if (v['kind'] === 'file') {
    if (typeof v['mode'] !== 'number') return false;
    const byId = typeof v['id'] === 'string' && CONTENT_ID.test(v['id']);
    return v['bytes'] instanceof Uint8Array || byId;
  }
  if (v['kind'] === 'symlink') return typeof v['target'] === 'string';
  return v['kind'] === 'delete';
}

export function isMountImage(v: unknown): v is MountImage {
  return isObject(v) && Array.isArray(v['entries'])
    && v['entries'].every((e) => isEntry(e) && (e as { kind: string }).kind !== 'delete' && ((e as { kind: string }).kind !== 'file' || (typeof (e as { size?: unknown }).size === 'number' && typeof (e as { id?: unknown }).id === 'string')))
    && isObject(v['limits']) && typeof v['limits']['maxWriteBytes'] === 'number' && typeof v['limits']['maxEntries'] === 'number';
}

export function isMountChanges(v: unknown): v is MountChange[] {
  return Array.isArray(v) && v.every(isEntry);
}
