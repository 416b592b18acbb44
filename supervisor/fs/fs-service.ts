// What the transports call for filesystem snapshots: labels, reflog, push, reset and merge, with
// every argument check and the "not configured" errors in one place. REST routes and MCP tools
// are thin over this. Ids are 64 hex digits in either case and are stored and answered in
// lowercase; every id that a label is pointed at must name a stored tree, so a label never
// dangles and GC (fs-gc.ts) can trust its roots.
import { RunjsError } from '../../shared/errors.ts';
import type { SweepableBlobStore } from '../stores/blob/index.ts';
import type { SupervisorPolicy } from '../policy/supervisor-policy.ts';
import { collectGarbage, DEFAULT_GC_GRACE_SECS, MAX_GC_GRACE_SECS, type GcReport } from './fs-gc.ts';
import type { FsChange, FsStore } from './fs-store.ts';
import type { LabelHead, LabelsDb, ReflogEntry } from './labels-db.ts';
import { mergeTrees, type MergeResult, type Prefer } from './merge.ts';

export const MAX_LABEL_LENGTH = 128;
export const MAX_MESSAGE_BYTES = 4096;
const LABEL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._+@-]*$/;
const ID_PATTERN = /^[0-9a-fA-F]{64}$/;

export interface PushRequest {
  readonly ca_id: unknown;
  readonly label?: unknown;
  readonly expected?: unknown;
  readonly force?: boolean | null | undefined;
  readonly detach?: boolean | null | undefined;
  readonly message?: unknown;
}

export type PushResult =
  | { readonly status: 'advanced'; readonly label: string; readonly ca_id: string }
  | { readonly status: 'rejected'; readonly label: string; readonly current: string | null }
  | { readonly status: 'detached'; readonly ca_id: string };

export interface ResetRequest { readonly label: unknown; readonly ca_id: unknown; readonly allow_unlogged?: boolean | null | undefined; readonly message?: unknown }
export interface MergeRequest { readonly ours: unknown; readonly theirs: unknown; readonly base?: unknown; readonly prefer?: unknown }
export interface GcRequest { readonly grace_secs?: unknown; readonly dry_run?: unknown }

/** The `op` of an fs_snapshot policy input: the reference's five, and `gc` (a runjs addition). */
export type FsSnapshotOp = 'pull' | 'push' | 'reset' | 'label' | 'merge' | 'gc';

export interface FsServiceDeps {
  readonly store: FsStore;
  readonly labels: LabelsDb;
  /** The store's blobs, when garbage collection may sweep them. */
  readonly blobs?: SweepableBlobStore;
  /** Why garbage collection is refused on this server (the blob directory is shared), if it is. */
  readonly gcRefusal?: string;
  /** Every session log's `output_fs`: roots of garbage collection. */
  readonly sessionRoots?: () => Iterable<string>;
  /** Decides `fs_snapshot` (label operations); without it every operation is allowed. */
  readonly policy?: SupervisorPolicy;
}

/** A file's content (string = UTF-8), a symlink, or null to delete the path. */
export type CommitFile = string | Uint8Array | { readonly symlink: string } | null;

export class FsService {
  readonly #store: FsStore | undefined;
  readonly #labels: LabelsDb | undefined;
  readonly #deps: FsServiceDeps | undefined;
  #sessionRoots: () => Iterable<string>;
  #gcRunning = false;

  constructor(deps?: FsServiceDeps) {
    this.#store = deps?.store;
    this.#labels = deps?.labels;
    this.#deps = deps;
    this.#sessionRoots = deps?.sessionRoots ?? (() => []);
  }

  /** Where session logs live is known only once the heap side is open (app.ts wires it). */
  useSessionRoots(roots: () => Iterable<string>): void {
    this.#sessionRoots = roots;
  }

  /**
   * The fs_snapshot policy on one operation, input `{op, label, ca_id}` (the reference's document;
   * label and ca_id null when the operation has none). A denial is 403, a failing source 400.
   */
  async authorize(op: FsSnapshotOp, label: string | null, caId: string | null): Promise<void> {
    const policy = this.#deps?.policy;
    if (policy === undefined) return;
    const d = await policy.decide('fs_snapshot', { op, label, ca_id: caId });
    if ('failed' in d) throw new RunjsError('FS_SNAPSHOT_POLICY_FAILED', d.failed);
    if (!d.allow) throw new RunjsError('FS_SNAPSHOT_DENIED', op, label, caId, d.reason === 'not allowed' ? undefined : d.reason);
  }

  /** Marks snapshots as in use (a run mounting them), so a collection within the grace period keeps them. */
  pin(id: string | undefined): void {
    if (this.#store !== undefined) this.#store.pin(id);
  }

  /** Mark and sweep (fs-gc.ts): `{grace_secs?, dry_run?}`; one collection at a time per server. */
  async gc(req: GcRequest): Promise<GcReport> {
    const store = this.store;
    const labels = this.#db;
    const grace = req.grace_secs ?? DEFAULT_GC_GRACE_SECS;
    if (typeof grace !== 'number' || !Number.isSafeInteger(grace) || grace < 0 || grace > MAX_GC_GRACE_SECS) {
      throw new RunjsError('FS_GC_INVALID', `grace_secs must be an integer from 0 to ${MAX_GC_GRACE_SECS}, got ${JSON.stringify(grace) ?? String(grace)}`);
    }
    if (req.dry_run !== undefined && req.dry_run !== null && typeof req.dry_run !== 'boolean') throw new RunjsError('FS_GC_INVALID', '`dry_run` must be a boolean');
    if (this.#deps?.gcRefusal !== undefined) throw new RunjsError('FS_GC_REFUSED', this.#deps.gcRefusal);
    const blobs = this.#deps?.blobs;
    if (blobs === undefined) throw new RunjsError('FS_GC_REFUSED', 'this store cannot be listed');
    await this.authorize('gc', null, null);
    if (this.#gcRunning) throw new RunjsError('FS_GC_REFUSED', 'a collection is already running on this server');
    this.#gcRunning = true;
    try {
      return await collectGarbage({
        store, blobs,
        roots: {
          roots: (since) => {
            const ids = labels.roots(since);
            for (const id of this.#sessionRoots()) ids.add(id);
            return ids;
          },
          unpinBefore: (before) => labels.unpinBefore(before),
        },
      }, { graceSecs: grace, dryRun: req.dry_run === true });
    } finally {
      this.#gcRunning = false;
    }
  }

  get enabled(): boolean {
    return this.#store !== undefined;
  }

  get store(): FsStore {
    if (!this.#store) throw new RunjsError('FS_SNAPSHOTS_NOT_ENABLED');
    return this.#store;
  }

  get #db(): LabelsDb {
    if (!this.#labels) throw new RunjsError('FS_LABELS_NOT_ENABLED');
    return this.#labels;
  }

  list(): { labels: LabelHead[] } {
    return { labels: this.#db.list() };
  }

  resolve(label: unknown): { label: string; ca_id: string } {
    const db = this.#db;
    const name = checkLabel(label);
    const head = db.head(name);
    if (head === undefined) throw new RunjsError('FS_UNKNOWN_LABEL', name);
    return { label: name, ca_id: head };
  }

  /** Oldest first; `limit` keeps the newest N. An unknown label has an empty log. */
  log(label: unknown, limit?: number): { label: string; log: ReflogEntry[] } {
    const db = this.#db;
    const name = checkLabel(label);
    return { label: name, log: db.log(name, limit) };
  }

  /** Creates the label or repoints it unconditionally (reflog `create` or `reset`). */
  async setLabel(label: unknown, caId: unknown, message?: unknown): Promise<{ label: string; ca_id: string }> {
    const db = this.#db;
    const name = checkLabel(label);
    const id = checkId(caId);
    const msg = checkMessage(message);
    await this.authorize('label', name, id);
    await this.#storedTreePinned(id);
    db.set(name, id, 'reset', msg);
    return { label: name, ca_id: id };
  }

  async push(req: PushRequest): Promise<PushResult> {
    const db = this.#db;
    const id = checkId(req.ca_id);
    // A detached push moves nothing and is not a policy decision (as in the reference).
    if (req.detach === true) return { status: 'detached', ca_id: await this.#storedTree(id) };
    if (req.label === undefined || req.label === null) throw new RunjsError('FS_PUSH_NEEDS_LABEL');
    const name = checkLabel(req.label);
    const message = checkMessage(req.message);
    await this.authorize('push', name, id);
    await this.#storedTreePinned(id);
    if (req.force === true) {
      db.set(name, id, 'reset', message);
      return { status: 'advanced', label: name, ca_id: id };
    }
    let expected: string | undefined;
    if (req.expected !== undefined && req.expected !== null) {
      if (typeof req.expected !== 'string' || !ID_PATTERN.test(req.expected)) throw new RunjsError('FS_INVALID_EXPECTED', req.expected);
      expected = req.expected.toLowerCase();
    }
    const cas = db.compareAndSet(name, expected, id, message);
    if (cas.ok) return { status: 'advanced', label: name, ca_id: id };
    return { status: 'rejected', label: name, current: cas.current ?? null };
  }

  async reset(req: ResetRequest): Promise<{ label: string; ca_id: string }> {
    const db = this.#db;
    const name = checkLabel(req.label);
    const id = checkId(req.ca_id);
    const message = checkMessage(req.message);
    await this.authorize('reset', name, id);
    if (req.allow_unlogged !== true && !db.inReflog(name, id)) throw new RunjsError('FS_NOT_IN_REFLOG', id, name);
    await this.#storedTreePinned(id);
    db.set(name, id, 'reset', message);
    return { label: name, ca_id: id };
  }

  async merge(req: MergeRequest): Promise<MergeResult> {
    const store = this.store;
    const ours = checkId(req.ours);
    const theirs = checkId(req.theirs);
    const base = req.base === undefined || req.base === null ? undefined : checkId(req.base);
    const prefer = checkPrefer(req.prefer);
    await this.authorize('merge', null, null);
    // Pinned: a merge result nobody has pushed yet must outlive a collection within the grace period.
    for (const id of [base, ours, theirs]) store.pin(id);
    try {
      const result = await mergeTrees(store, base, ours, theirs, prefer);
      if (result.status === 'merged') store.pin(result.ca_id);
      return result;
    } catch (e) {
      if (RunjsError.is(e, 'FS_SNAPSHOT_NOT_FOUND')) throw new RunjsError('FS_MERGE_FAILED', e.message);
      throw e;
    }
  }

  /**
   * Writes `files` (path → content, symlink or null for delete) over `base` (an id, a label, or
   * nothing for the empty snapshot) and returns the new snapshot id; no label moves. The way
   * trees are made until runs can write files (the mount slice), and by tests.
   */
  async commit(files: Readonly<Record<string, CommitFile>>, base?: string): Promise<string> {
    const store = this.store;
    const from = base === undefined ? undefined : ID_PATTERN.test(base) ? await this.#storedTree(base) : this.resolve(base).ca_id;
    const changes = new Map<string, FsChange>();
    for (const [path, f] of Object.entries(files)) {
      if (f === null) changes.set(path, { kind: 'delete' });
      else if (typeof f === 'string') changes.set(path, { kind: 'file', bytes: Buffer.from(f, 'utf8') });
      else if (f instanceof Uint8Array) changes.set(path, { kind: 'file', bytes: f });
      else changes.set(path, { kind: 'symlink', target: f.symlink });
    }
    return store.commit(from, changes);
  }

  /** A `fs` handle (label or id) as the mount slice will resolve it: the id, or undefined for an unknown label. */
  resolveHandle(handle: string): string | undefined {
    if (ID_PATTERN.test(handle)) return handle.toLowerCase();
    return this.#db.head(checkLabel(handle));
  }

  /**
   * As #storedTree, pinned first: between the check and the label move a collection that starts
   * reads the pin as a root, so the tree cannot be swept from under the label.
   */
  async #storedTreePinned(id: string): Promise<string> {
    this.pin(id);
    return this.#storedTree(id);
  }

  async #storedTree(caId: unknown): Promise<string> {
    const id = checkId(caId);
    if (!(await this.store.isTree(id))) throw new RunjsError('FS_SNAPSHOT_NOT_FOUND', id);
    return id;
  }
}

export function checkId(v: unknown): string {
  if (typeof v !== 'string' || !ID_PATTERN.test(v)) throw new RunjsError('FS_INVALID_ID', v);
  return v.toLowerCase();
}

export function checkLabel(v: unknown): string {
  if (typeof v !== 'string' || v.length > MAX_LABEL_LENGTH || !LABEL_PATTERN.test(v) || ID_PATTERN.test(v)) {
    throw new RunjsError('FS_INVALID_LABEL', v, MAX_LABEL_LENGTH);
  }
  return v;
}

function checkMessage(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new RunjsError('INVALID_BODY', '`message` must be a string');
  const bytes = Buffer.byteLength(v, 'utf8');
  if (bytes > MAX_MESSAGE_BYTES) throw new RunjsError('FS_MESSAGE_TOO_LONG', bytes, MAX_MESSAGE_BYTES);
  return v;
}

/** `ours`, `theirs`, or nothing (`none`, empty, absent: report conflicts); trimmed, any case. */
export function checkPrefer(v: unknown): Prefer | undefined {
  if (v === undefined || v === null) return undefined;
  const p = typeof v === 'string' ? v.trim().toLowerCase() : undefined;
  if (p === '' || p === 'none') return undefined;
  if (p === 'ours' || p === 'theirs') return p;
  throw new RunjsError('FS_INVALID_PREFER', v);
}
