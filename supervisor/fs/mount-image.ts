// Between the store and a run's /work: which snapshot a run's `fs` names (a label, resolved once,
// at submission; an unknown label mounts an empty tree, so a later push can create it), the
// tree's structure read out for the worker (shared/fs-mount.ts: paths, modes, sizes and content
// ids, never the bytes), the contents the worker then fetches by id (LoadedMount.read, the
// object pipe's route: only ids this run's tree references), and the run's changes committed
// into a new snapshot. Reading a 1,000-file tree's structure reads its ~20 directory nodes.
import { RunjsError } from '../../shared/errors.ts';
import { MAX_FETCH_BYTES, type MountChange, type MountEntry, type MountImage, type MountLimits } from '../../shared/fs-mount.ts';
import { checkId, checkLabel, type FsService } from './fs-service.ts';
import type { FsChange, FsStore } from './fs-store.ts';
import type { FileEntry } from './tree-format.ts';

export { MountTooLargeError } from './tree-structure.ts';

const ID_PATTERN = /^[0-9a-fA-F]{64}$/;
const READ_CONCURRENCY = 16;

/** What a run mounts: the snapshot id, or undefined for an empty tree (an unknown label). */
export interface MountSource {
  readonly base: string | undefined;
}

/** `fs` of an ExecRequest (label or id) → the snapshot to mount; a malformed value is a 400. */
export function resolveMount(fs: FsService, spec: string): MountSource {
  if (ID_PATTERN.test(spec)) return { base: checkId(spec) };
  const label = checkLabel(spec);
  try {
    return { base: fs.resolve(label).ca_id };
  } catch (e) {
    if (RunjsError.is(e, 'FS_UNKNOWN_LABEL')) return { base: undefined };
    throw e;
  }
}

/** What the worker is sent, and the contents it may fetch: exactly the files of the run's tree. */
export interface LoadedMount {
  readonly image: MountImage;
  /** A file's bytes by content id (verified by the store); refused unless this tree references the id. */
  read(id: string): Promise<Uint8Array>;
  /** The tree's file entry with this content id, if any (the commit resolves moved files with it). */
  entry(id: string): FileEntry | undefined;
}

/** Why an object read is refused (the worker asked for an id its run's tree does not reference, or one too large). */
export class MountReadRefused extends Error {}

/** The snapshot's structure for the worker; file contents stay in the store until `read`. */
export async function loadMount(store: FsStore, base: string | undefined, limits: MountLimits): Promise<LoadedMount> {
  let files: ReadonlyMap<string, FileEntry> = new Map();
  let entries: readonly MountEntry[] = [];
  if (base !== undefined) {
    if (!(await store.isTree(base))) throw new RunjsError('FS_SNAPSHOT_NOT_FOUND', base);
    // Shared with other runs of the same tree (immutable; nothing downstream changes it).
    ({ files, entries } = await store.structures.get(base, limits.maxEntries));
  }
  return {
    image: { entries, limits },
    read: async (id) => {
      const e = files.get(id);
      if (e === undefined) throw new MountReadRefused(`object ${id} is not in this run's filesystem snapshot`);
      if (e.size > MAX_FETCH_BYTES) throw new MountReadRefused(`object ${id} is ${e.size} bytes; a run reads at most ${MAX_FETCH_BYTES} bytes of one file`);
      return store.readFile(e);
    },
    entry: (id) => files.get(id),
  };
}

/** The snapshot's files and symlinks with every file's bytes inline (tools and tests; runs use loadMount). */
export async function loadMountImage(store: FsStore, base: string | undefined, limits: MountLimits): Promise<MountImage> {
  const mount = await loadMount(store, base, limits);
  const entries = [...mount.image.entries];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < entries.length) {
      const i = next++;
      const e = entries[i]!;
      if (e.kind === 'file') entries[i] = { ...e, bytes: await mount.read(e.id) };
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, entries.length) }, worker));
  return { entries, limits };
}

/** The snapshot after a run's changes: `base` itself (or the empty tree) when there are none. */
export async function commitMount(store: FsStore, base: string | undefined, changes: readonly MountChange[], mount?: LoadedMount): Promise<string> {
  if (changes.length === 0) return base ?? store.emptyTree();
  const map = new Map<string, FsChange>();
  for (const c of changes) {
    if (c.kind === 'file') {
      // A moved or re-moded file names its content by id: read it back (only ids of the mounted
      // tree resolve), and put-if-absent stores nothing new for it.
      // Without the LoadedMount (tools, tests), the base's structure is read again to resolve ids.
      // The per-read cap is the worker's, not the commit's: a moved file of any size is kept.
      if ('bytes' in c) { map.set(c.path, { kind: 'file', bytes: c.bytes, mode: c.mode }); continue; }
      mount ??= await loadMount(store, base, { maxWriteBytes: 0, maxEntries: Number.MAX_SAFE_INTEGER });
      const entry = mount.entry(c.id);
      if (entry === undefined) throw new MountReadRefused(`object ${c.id} is not in this run's filesystem snapshot`);
      map.set(c.path, { kind: 'file', bytes: await store.readFile(entry), mode: c.mode });
    } else map.set(c.path, c.kind === 'symlink' ? { kind: 'symlink', target: c.target } : { kind: 'delete' });
  }
  return store.commit(base, map);
}
