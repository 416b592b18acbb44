// A snapshot's structure as a run's mount needs it (shared/fs-mount.ts MountEntry: paths, modes,
// sizes and content ids, depth first in name order), cached per directory id. Trees are
// immutable and content-addressed, so a cached structure never goes stale, and a commit shares
// every unchanged directory with its base: the next run's mount composes the new root from the
// cached structures of the untouched directories and lists only the few it has not seen (the
// nodes a commit wrote are in FsStore's node cache already). Tenant-neutral by construction: the
// cache holds structure, never bytes, and LoadedMount.read still answers only ids of the run's tree.
import { MAX_MOUNT_BYTES, type MountEntry } from '../../shared/fs-mount.ts';
import { compareNames, type FileEntry } from './tree-format.ts';
import type { FsStore } from './fs-store.ts';
import { ByteLru } from '../../shared/image-lru.ts';

/** Entries (over all cached structures) the cache holds at most (the default mount entry cap, so the largest mountable tree fits; ≈ 20 MB); a larger structure is not cached. */
const MAX_CACHED_ENTRIES = 100_000;

/** Why a snapshot cannot be mounted: too large for the worker. */
export class MountTooLargeError extends Error {}

export interface TreeStructure {
  /** Files and symlinks below the directory, paths relative to it. */
  readonly entries: readonly MountEntry[];
  /** Every file below the directory by content id. */
  readonly files: ReadonlyMap<string, FileEntry>;
  /** Entries below the directory, directories included (what the mount's entry limit counts). */
  readonly count: number;
  /** Sum of the files' sizes. */
  readonly bytes: number;
}

export class StructureCache {
  readonly #store: FsStore;
  /** Sized by entries (a structure's entries plus its directory), bounded by MAX_CACHED_ENTRIES. */
  readonly #cache = new ByteLru<TreeStructure>(MAX_CACHED_ENTRIES, Number.POSITIVE_INFINITY);

  constructor(store: FsStore) {
    this.#store = store;
  }

  /** The structure under directory `id`; MountTooLargeError beyond `maxEntries` entries or MAX_MOUNT_BYTES. */
  async get(id: string, maxEntries: number): Promise<TreeStructure> {
    const hit = this.#cache.get(id);
    if (hit !== undefined) {
      check(hit.count, hit.bytes, maxEntries);
      return hit;
    }
    const listed = [...(await this.#store.listDir(id))].sort(([a], [b]) => compareNames(a, b));
    const entries: MountEntry[] = [];
    const files = new Map<string, FileEntry>();
    let count = 0;
    let bytes = 0;
    for (const [name, e] of listed) {
      count++;
      if (e.kind === 'file') {
        bytes += e.size;
        files.set(e.id, e);
        entries.push({ path: name, kind: 'file', mode: e.mode, size: e.size, id: e.id });
      } else if (e.kind === 'symlink') {
        entries.push({ path: name, kind: 'symlink', target: e.target });
      } else {
        // The budget left for this subtree: a hostile tree is refused without listing all of it.
        const sub = await this.get(e.id, maxEntries - count);
        count += sub.count;
        bytes += sub.bytes;
        const prefix = `${name}/`;
        for (const s of sub.entries) entries.push({ ...s, path: prefix + s.path });
        for (const [k, f] of sub.files) files.set(k, f);
      }
      check(count, bytes, maxEntries);
    }
    const structure: TreeStructure = { entries, files, count, bytes };
    this.#cache.set(id, structure, structure.entries.length + 1);
    return structure;
  }
}

function check(count: number, bytes: number, maxEntries: number): void {
  if (count > maxEntries) throw new MountTooLargeError(`it holds more than ${maxEntries} entries`);
  if (bytes > MAX_MOUNT_BYTES) throw new MountTooLargeError(`its files hold more than ${MAX_MOUNT_BYTES} bytes`);
}
