// Merging snapshots: three trees walked together, pruned by id (a subtree equal on two sides needs
// no reading), then a content pass for paths both sides changed: text files merge at line level
// (text-merge.ts), everything else is a conflict with its `kind`. Without a base (2-way), base is
// "absent": a path on one side only is taken, a path on both sides with different content
// conflicts. `prefer` resolves conflicts only, like git's `-X ours|theirs`: text still merges line by
// line and only the conflicting hunks take the preferred side; a path that cannot merge (binary,
// modify/delete, type) takes that side whole. (mcp-v8 applies `prefer` to every divergent path
// before any content merge; we keep the clean merge of both sides' edits.) Conflicts produce no
// snapshot; a clean merge stores the result and returns its id. Labels never move here.
import type { FsStore } from './fs-store.ts';
import { sameEntry, type FileEntry, type TreeEntry } from './tree-format.ts';
import { mergeText, sniff, unifiedDiff, type ContentKind } from './text-merge.ts';

export type Prefer = 'ours' | 'theirs';
export type ConflictKind = ContentKind | 'modify/delete' | 'type' | 'symlink';

export interface MergeConflict {
  /** Relative to the snapshot root, no leading slash. */
  readonly path: string;
  readonly kind: ConflictKind;
  /** Content id of each side's file (its blob key), a directory's tree id, or null when absent or a symlink. */
  readonly base: string | null;
  readonly ours: string | null;
  readonly theirs: string | null;
  /** Text conflicts only: the file with diff3 markers, and each side's unified diff from the base. */
  readonly markers?: string;
  readonly diff_ours?: string;
  readonly diff_theirs?: string;
}

export type MergeResult =
  | { readonly status: 'merged'; readonly ca_id: string }
  | { readonly status: 'conflict'; readonly conflicts: MergeConflict[] };

export async function mergeTrees(store: FsStore, base: string | undefined, ours: string, theirs: string, prefer?: Prefer): Promise<MergeResult> {
  const conflicts: MergeConflict[] = [];
  const id = await mergeDir(store, base, ours, theirs, prefer, '', conflicts);
  if (conflicts.length > 0) return { status: 'conflict', conflicts };
  return { status: 'merged', ca_id: id ?? await store.emptyTree() };
}

/** The merged directory's id (undefined when it ends up empty); conflicts are appended. */
async function mergeDir(
  store: FsStore, b: string | undefined, o: string | undefined, t: string | undefined, prefer: Prefer | undefined,
  at: string, conflicts: MergeConflict[],
): Promise<string | undefined> {
  if (o === t) return o;
  if (b === o) return t;
  if (b === t) return o;
  const [be, oe, te] = await Promise.all([b, o, t].map((id) => (id === undefined ? new Map<string, TreeEntry>() : store.listDir(id))));
  const names = [...new Set([...be!.keys(), ...oe!.keys(), ...te!.keys()])].sort();
  const out = new Map<string, TreeEntry>();
  for (const name of names) {
    const path = at === '' ? name : `${at}/${name}`;
    const merged = await mergeEntry(store, be!.get(name), oe!.get(name), te!.get(name), prefer, path, conflicts);
    if (merged !== undefined) out.set(name, merged);
  }
  if (conflicts.length > 0) return undefined; // nothing will be stored: skip the writes
  return out.size === 0 && at !== '' ? undefined : store.writeDir(out);
}

async function mergeEntry(
  store: FsStore, b: TreeEntry | undefined, o: TreeEntry | undefined, t: TreeEntry | undefined, prefer: Prefer | undefined,
  path: string, conflicts: MergeConflict[],
): Promise<TreeEntry | undefined> {
  if (sameEntry(o, t)) return o;
  if (sameEntry(b, o)) return t;
  if (sameEntry(b, t)) return o;
  if (o?.kind === 'dir' && t?.kind === 'dir') {
    const id = await mergeDir(store, b?.kind === 'dir' ? b.id : undefined, o.id, t.id, prefer, path, conflicts);
    return id === undefined ? undefined : { kind: 'dir', id };
  }
  const ids = { base: idOf(b), ours: idOf(o), theirs: idOf(t) };
  const conflict = (kind: ConflictKind): TreeEntry | undefined => {
    if (prefer !== undefined) return prefer === 'ours' ? o : t;
    conflicts.push({ path, kind, ...ids });
    return undefined;
  };
  if (o === undefined || t === undefined) return conflict('modify/delete');
  if (o.kind !== t.kind) return conflict('type');
  if (o.kind === 'symlink') return conflict('symlink');
  return mergeFiles(store, b?.kind === 'file' ? b : undefined, o as FileEntry, t as FileEntry, path, prefer, conflict, conflicts, ids);
}

async function mergeFiles(
  store: FsStore, b: FileEntry | undefined, o: FileEntry, t: FileEntry, path: string, prefer: Prefer | undefined,
  conflict: (kind: ConflictKind) => TreeEntry | undefined, conflicts: MergeConflict[], ids: Pick<MergeConflict, 'base' | 'ours' | 'theirs'>,
): Promise<TreeEntry | undefined> {
  // Same bytes, different modes: a mode change on one side wins; on both, ours.
  if (o.id === t.id) return { ...o, mode: b !== undefined && o.mode === b.mode ? t.mode : o.mode };
  const [ob, tb] = await Promise.all([store.readFile(o), store.readFile(t)]);
  const ok = sniff(ob);
  const tk = sniff(tb);
  const kind: ContentKind = ok === tk ? ok : 'binary';
  if (kind !== 'text') return conflict(kind);
  const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString('utf8');
  let baseText = '';
  if (b !== undefined) {
    const bb = await store.readFile(b);
    if (sniff(bb) !== 'text') return conflict('binary');
    baseText = text(bb);
  }
  const oursText = text(ob);
  const theirsText = text(tb);
  const m = mergeText(baseText, oursText, theirsText, prefer);
  if (!m.clean) {
    conflicts.push({
      path, kind: 'text', ...ids, markers: m.markers,
      diff_ours: unifiedDiff(path, baseText, oursText, 'ours'), diff_theirs: unifiedDiff(path, baseText, theirsText, 'theirs'),
    });
    return undefined;
  }
  const mode = b !== undefined && o.mode === b.mode ? t.mode : o.mode;
  return store.putFile(Buffer.from(m.text, 'utf8'), mode);
}

function idOf(e: TreeEntry | undefined): string | null {
  if (e === undefined || e.kind === 'symlink') return null;
  return e.id;
}
