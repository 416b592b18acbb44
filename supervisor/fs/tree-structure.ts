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

/**
 * One directory as cached: its own entries and its subdirectories' structures, not flattened, so a
 * new root (every commit makes one) costs a pass over its entries, not one per level. A structure
 * mounted as a root keeps its flattened form (`flat`) until evicted; a subdirectory keeps the
 * entries it was last flattened into, under the path it had then (`at`): the next root that holds
 * it unchanged at the same path takes those entry objects as they are, so a commit's new root
 * makes entries only for the directories the commit changed (a sampling profile of the fs bench's
 * step: 0.94 ms of its CPU made the 1,000 entries of every new root).
 */
interface DirStructure {
  readonly id: string;
  /** The directory's entries in name order: files and symlinks (path = name), and subdirectories. */
  readonly items: readonly (MountEntry | SubDir)[];
  /** The directory's own files by content id. */
  readonly files: ReadonlyMap<string, FileEntry>;
  readonly count: number;
  readonly bytes: number;
  flat?: TreeStructure;
  at?: { readonly prefix: string; readonly entries: readonly MountEntry[] };
}

interface SubDir {
  readonly kind: 'dir';
  readonly name: string;
  readonly sub: DirStructure;
}

export class StructureCache {
  readonly #store: FsStore;
  /** Sized by entries (a directory's items plus one, plus its flattened entries once mounted), bounded by MAX_CACHED_ENTRIES. */
  readonly #cache = new ByteLru<DirStructure>(MAX_CACHED_ENTRIES, Number.POSITIVE_INFINITY);

  constructor(store: FsStore) {
    this.#store = store;
  }

  /** The structure under directory `id`; MountTooLargeError beyond `maxEntries` entries or MAX_MOUNT_BYTES. */
  async get(id: string, maxEntries: number): Promise<TreeStructure> {
    const dir = await this.#dir(id, maxEntries);
    if (dir.flat !== undefined) return dir.flat;
    const entries: MountEntry[] = [];
    const files = new Map<string, FileEntry>();
    this.#flatten(dir, '', entries);
    collectFiles(dir, files);
    dir.flat = { entries, files, count: dir.count, bytes: dir.bytes };
    this.#cache.set(id, dir, this.#size(dir));
    return dir.flat;
  }

  /** The files and symlinks below `dir`, depth first in name order, paths prefixed with `prefix`. */
  #flatten(dir: DirStructure, prefix: string, entries: MountEntry[]): void {
    for (const it of dir.items) {
      if (it.kind === 'dir') {
        const path = `${prefix}${it.name}/`;
        const sub = it.sub;
        let kept = sub.at?.prefix === path ? sub.at.entries : undefined;
        if (kept === undefined) {
          // Evicted meanwhile (its parent still holds it): flattened afresh, kept nowhere.
          if (!this.#cache.has(sub.id)) { this.#flatten(sub, path, entries); continue; }
          const own: MountEntry[] = [];
          this.#flatten(sub, path, own);
          sub.at = { prefix: path, entries: own };
          this.#cache.set(sub.id, sub, this.#size(sub)); // it counts the entries it keeps
          kept = own;
        }
        for (const e of kept) entries.push(e);
      } else if (prefix === '') entries.push(it);
      // Literals of one shape (not spreads): this loop runs once per entry of every changed directory.
      else if (it.kind === 'file') entries.push({ path: prefix + it.path, kind: 'file', mode: it.mode, size: it.size, id: it.id });
      else entries.push({ path: prefix + it.path, kind: 'symlink', target: it.target });
    }
  }

  /** What a cached directory counts against MAX_CACHED_ENTRIES: its items, and the entries it keeps flattened. */
  #size(dir: DirStructure): number {
    return dir.items.length + 1 + (dir.flat?.entries.length ?? 0) + (dir.at?.entries.length ?? 0);
  }

  async #dir(id: string, maxEntries: number): Promise<DirStructure> {
    const hit = this.#cache.get(id);
    if (hit !== undefined) {
      check(hit.count, hit.bytes, maxEntries);
      return hit;
    }
    const listed = [...(await this.#store.listDir(id))].sort(([a], [b]) => compareNames(a, b));
    const items: (MountEntry | SubDir)[] = [];
    const files = new Map<string, FileEntry>();
    let count = 0;
    let bytes = 0;
    for (const [name, e] of listed) {
      count++;
      if (e.kind === 'file') {
        bytes += e.size;
        files.set(e.id, e);
        items.push({ path: name, kind: 'file', mode: e.mode, size: e.size, id: e.id });
      } else if (e.kind === 'symlink') {
        items.push({ path: name, kind: 'symlink', target: e.target });
      } else {
        // The budget left for this subtree: a hostile tree is refused without listing all of it.
        const sub = await this.#dir(e.id, maxEntries - count);
        count += sub.count;
        bytes += sub.bytes;
        items.push({ kind: 'dir', name, sub });
      }
      check(count, bytes, maxEntries);
    }
    const dir: DirStructure = { id, items, files, count, bytes };
    this.#cache.set(id, dir, items.length + 1);
    return dir;
  }
}

/** Every file below `dir` by content id. */
function collectFiles(dir: DirStructure, files: Map<string, FileEntry>): void {
  for (const it of dir.items) if (it.kind === 'dir') collectFiles(it.sub, files);
  for (const [k, f] of dir.files) files.set(k, f);
}

function check(count: number, bytes: number, maxEntries: number): void {
  if (count > maxEntries) throw new MountTooLargeError(`it holds more than ${maxEntries} entries`);
  if (bytes > MAX_MOUNT_BYTES) throw new MountTooLargeError(`its files hold more than ${MAX_MOUNT_BYTES} bytes`);
}
