// Between the store and a run's /work: which snapshot a run's `fs` names (a label, resolved once,
// at submission; an unknown label mounts an empty tree, so a later push can create it), the tree
// read out for the worker (shared/fs-mount.ts), and the run's changes committed into a new
// snapshot. The worker holds the whole tree (node:fs's sync API cannot wait for the store), so a
// snapshot larger than MAX_MOUNT_BYTES or than the entry cap cannot be mounted.
import { RunjsError } from '../../shared/errors.ts';
import { MAX_MOUNT_BYTES, type MountChange, type MountEntry, type MountImage, type MountLimits } from '../../shared/fs-mount.ts';
import { checkId, checkLabel, type FsService } from './fs-service.ts';
import type { FsChange, FsStore } from './fs-store.ts';

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

/** Why a snapshot cannot be mounted: too large for the worker. */
export class MountTooLargeError extends Error {}

/** The snapshot's files and symlinks, read whole, for the worker. */
export async function loadMountImage(store: FsStore, base: string | undefined, limits: MountLimits): Promise<MountImage> {
  if (base === undefined) return { entries: [], limits };
  if (!(await store.isTree(base))) throw new RunjsError('FS_SNAPSHOT_NOT_FOUND', base);
  const entries: MountEntry[] = [];
  const reads: { path: string; read: () => Promise<Uint8Array>; mode: number }[] = [];
  let count = 0;
  let bytes = 0;
  for await (const [path, e] of store.walk(base)) {
    if (++count > limits.maxEntries) throw new MountTooLargeError(`it holds more than ${limits.maxEntries} entries`);
    if (e.kind === 'symlink') entries.push({ path, kind: 'symlink', target: e.target });
    else if (e.kind === 'file') {
      bytes += e.size;
      if (bytes > MAX_MOUNT_BYTES) throw new MountTooLargeError(`its files hold more than ${MAX_MOUNT_BYTES} bytes`);
      reads.push({ path, mode: e.mode, read: () => store.readFile(e) });
    }
  }
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < reads.length) {
      const r = reads[next++]!;
      entries.push({ path: r.path, kind: 'file', mode: r.mode, bytes: await r.read() });
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, reads.length) }, worker));
  return { entries, limits };
}

/** The snapshot after a run's changes: `base` itself (or the empty tree) when there are none. */
export async function commitMount(store: FsStore, base: string | undefined, changes: readonly MountChange[]): Promise<string> {
  if (changes.length === 0) return base ?? store.emptyTree();
  const map = new Map<string, FsChange>();
  for (const c of changes) {
    map.set(c.path, c.kind === 'file' ? { kind: 'file', bytes: c.bytes, mode: c.mode } : c.kind === 'symlink' ? { kind: 'symlink', target: c.target } : { kind: 'delete' });
  }
  return store.commit(base, map);
}
