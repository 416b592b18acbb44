// A filesystem snapshot as a run mounts it at /work, and what the run wrote, as they cross IPC.
// The supervisor sends the tree's files and symlinks with the RunRequest (directories exist
// through what they hold, as in the store); a completed run sends back its changes, which the
// supervisor commits (FsStore.commit) into a new snapshot. Bytes travel as Uint8Array.

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
/** The most file bytes a snapshot may hold to be mounted (it is sent to the worker whole). */
export const MAX_MOUNT_BYTES = 256 * 1024 * 1024;
/** Longest path (bytes of UTF-8) and name the mount accepts, as the store does. */
export const MAX_PATH_BYTES = 4096;
export const MAX_NAME_BYTES = 255;

export type MountEntry =
  | { readonly path: string; readonly kind: 'file'; readonly mode: number; readonly bytes: Uint8Array }
  | { readonly path: string; readonly kind: 'symlink'; readonly target: string };

export interface MountImage {
  /** Files and symlinks by path relative to the mount point ("a/b.txt"). */
  readonly entries: readonly MountEntry[];
  readonly limits: MountLimits;
}

export type MountChange =
  | { readonly path: string; readonly kind: 'file'; readonly mode: number; readonly bytes: Uint8Array }
  | { readonly path: string; readonly kind: 'symlink'; readonly target: string }
  | { readonly path: string; readonly kind: 'delete' };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

function isEntry(v: unknown): boolean {
  if (!isObject(v) || typeof v['path'] !== 'string') return false;
  if (v['kind'] === 'file') return typeof v['mode'] === 'number' && v['bytes'] instanceof Uint8Array;
  if (v['kind'] === 'symlink') return typeof v['target'] === 'string';
  return v['kind'] === 'delete';
}

export function isMountImage(v: unknown): v is MountImage {
  return isObject(v) && Array.isArray(v['entries']) && v['entries'].every((e) => isEntry(e) && (e as { kind: string }).kind !== 'delete')
    && isObject(v['limits']) && typeof v['limits']['maxWriteBytes'] === 'number' && typeof v['limits']['maxEntries'] === 'number';
}

export function isMountChanges(v: unknown): v is MountChange[] {
  return Array.isArray(v) && v.every(isEntry);
}
