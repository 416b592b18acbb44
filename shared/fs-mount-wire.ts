// The wire form of a MountImage, supervisor → worker, in a run request. A 1,000-file tree as
// 1,000 objects costs V8's deserializer ≈ 2.7 ms at a load of 16 on 2 cores (≈ 0.5 ms to
// serialize); packed as one string of paths, typed arrays and one string of ids, it crosses in a
// small fraction of that and the worker builds the entries itself. Names never contain NUL (the
// store refuses them), so NUL separates paths.
import { CONTENT_ID, type MountEntry, type MountImage, type MountLimits } from './fs-mount.ts';

const FILE = 0;
const SYMLINK = 1;
const ID_CHARS = 64;

export interface PackedMountImage {
  readonly packed: 1;
  /** Every entry's path, joined by NUL. */
  readonly paths: string;
  /** Per entry: 0 file, 1 symlink. */
  readonly kinds: Uint8Array;
  /** Per entry (0 for a symlink). */
  readonly modes: Uint32Array;
  readonly sizes: Float64Array;
  /** The files' content ids, 64 hex digits each, in entry order. */
  readonly ids: string;
  /** The symlinks' targets, in entry order. */
  readonly targets: readonly string[];
  /** Files sent with their bytes (tools, tests): entry index → bytes. */
  readonly inline: ReadonlyMap<number, Uint8Array>;
  readonly limits: MountLimits;
}

export function packMountImage(image: MountImage): PackedMountImage {
  const n = image.entries.length;
  const kinds = new Uint8Array(n);
  const modes = new Uint32Array(n);
  const sizes = new Float64Array(n);
  const paths: string[] = [];
  const ids: string[] = [];
  const targets: string[] = [];
  const inline = new Map<number, Uint8Array>();
  image.entries.forEach((e, i) => {
    paths.push(e.path);
    if (e.kind === 'file') {
      kinds[i] = FILE;
      modes[i] = e.mode;
      sizes[i] = e.size;
      ids.push(e.id);
      if (e.bytes !== undefined) inline.set(i, e.bytes);
    } else {
      kinds[i] = SYMLINK;
      targets.push(e.target);
    }
  });
  return { packed: 1, paths: paths.join('\0'), kinds, modes, sizes, ids: ids.join(''), targets, inline, limits: image.limits };
}

/** The image back, or undefined when the packed form is inconsistent (a protocol violation). */
export function unpackMountImage(p: PackedMountImage): MountImage | undefined {
  const n = p.kinds.length;
  const paths = n === 0 ? [] : p.paths.split('\0');
  if (paths.length !== n || p.modes.length !== n || p.sizes.length !== n) return undefined;
  const entries: MountEntry[] = new Array<MountEntry>(n);
  let file = 0;
  let link = 0;
  for (let i = 0; i < n; i++) {
    if (p.kinds[i] === FILE) {
      const id = p.ids.slice(file * ID_CHARS, ++file * ID_CHARS);
      if (!CONTENT_ID.test(id)) return undefined;
      const bytes = p.inline.get(i);
      entries[i] = { path: paths[i]!, kind: 'file', mode: p.modes[i]!, size: p.sizes[i]!, id, ...(bytes === undefined ? {} : { bytes }) };
    } else if (p.kinds[i] === SYMLINK) {
      const target = p.targets[link++];
      if (typeof target !== 'string') return undefined;
      entries[i] = { path: paths[i]!, kind: 'symlink', target };
    } else return undefined;
  }
  if (file * ID_CHARS !== p.ids.length || link !== p.targets.length) return undefined;
  return { entries, limits: p.limits };
}

/** The shape check of the protocol's validator; consistency is checked by unpackMountImage. */
export function isPackedMountImage(v: unknown): v is PackedMountImage {
  if (typeof v !== 'object' || v === null) return false;
  const p = v as Record<string, unknown>;
  const limits = p['limits'] as Record<string, unknown> | null | undefined;
  return p['packed'] === 1 && typeof p['paths'] === 'string' && p['kinds'] instanceof Uint8Array && p['modes'] instanceof Uint32Array
    && p['sizes'] instanceof Float64Array && typeof p['ids'] === 'string' && Array.isArray(p['targets']) && p['inline'] instanceof Map
    && [...p['inline'].values()].every((b) => b instanceof Uint8Array)
    && typeof limits === 'object' && limits !== null && typeof limits['maxWriteBytes'] === 'number' && typeof limits['maxEntries'] === 'number';
}
