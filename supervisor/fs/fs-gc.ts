// Garbage collection of the filesystem store: mark and sweep from the roots (every label head,
// every `from` and `to` of every reflog entry, every session log's `output_fs`, and every id
// pinned within the grace period), deleting only objects last written or re-used before the
// cutoff. docs/filesystem.md#garbage-collection explains why this is safe against writers that
// run during a collection; in short:
//
// - An object written after the cutoff is never deleted (deleteIfOlder re-checks its time at the
//   moment of deletion). A put that finds an old object refreshes its time (the store's
//   `refreshAfterMs`), so re-used content counts as new.
// - A commit keeps its base's unchanged subtrees without writing them; the base is pinned when
//   the commit starts (and a mount's when the run starts), so it is a root of any collection that
//   begins within the grace period after.
// - Roots are read again after the listing: a label moved or a session run logged meanwhile
//   is marked before anything is deleted.
import { RunjsError } from '../../shared/errors.ts';
import type { BlobListing, SweepableBlobStore } from '../stores/blob/index.ts';
import type { FsStore } from './fs-store.ts';

/** Filesystem timestamps come from a coarse clock (and S3's from another machine): the cutoff keeps this much slack. */
export const GC_CLOCK_SLACK_MS = 2000;
/** A put refreshes an object it finds older than this (the fs store's `refreshAfterMs`). */
export const GC_REFRESH_AFTER_MS = 60_000;
export const DEFAULT_GC_GRACE_SECS = 3600;
export const MAX_GC_GRACE_SECS = 365 * 24 * 3600;

export interface GcOptions {
  /** Objects last written or used within this many seconds before the collection starts are kept. */
  readonly graceSecs: number;
  /** Report what would be deleted, delete nothing. */
  readonly dryRun: boolean;
}

export interface GcRoots {
  /** Every root id: labels, reflogs, session logs, and ids pinned at or after `pinnedSince`. */
  roots(pinnedSince: number): Iterable<string>;
  /** Pins before `before` can be forgotten once a collection has finished. */
  unpinBefore(before: number): void;
}

export interface GcReport {
  readonly dry_run: boolean;
  readonly grace_secs: number;
  /** The cutoff (ISO 8601): objects last written before it and unreachable were deleted. */
  readonly cutoff: string;
  readonly roots: number;
  /** Reachable objects (tree nodes, file contents, chunk lists and chunks). */
  readonly reachable: number;
  /** Objects the store holds, as listed. */
  readonly scanned: number;
  /** Unreachable objects kept because they were written or re-used after the cutoff. */
  readonly kept_recent: number;
  readonly deleted: number;
  readonly deleted_bytes: number;
  /** Roots or referenced objects that were not in the store (nothing to keep; the server log names them). */
  readonly missing: number;
}

export interface GcDeps {
  readonly store: FsStore;
  readonly blobs: SweepableBlobStore;
  readonly roots: GcRoots;
  readonly now?: () => number;
  readonly log?: (line: string) => void;
}

/** Marks everything reachable from `ids` into `marked` (subtrees already marked are skipped). */
async function mark(store: FsStore, ids: Iterable<string>, marked: Set<string>, missing: Set<string>, log: (line: string) => void): Promise<void> {
  const todo = [...ids].filter((id) => !marked.has(id));
  while (todo.length > 0) {
    const id = todo.pop()!;
    if (marked.has(id)) continue;
    marked.add(id);
    let refs;
    try {
      refs = await store.references(id);
    } catch (e) {
      // Nothing stored under it: nothing to keep. A node that does not parse aborts the collection
      // (its children are unknown, so nothing may be swept).
      if (RunjsError.is(e, 'FS_SNAPSHOT_NOT_FOUND')) {
        if (!missing.has(id)) log(`fs gc: ${id} is referenced but not in the store`);
        missing.add(id);
        continue;
      }
      throw e;
    }
    for (const b of refs.blobs) marked.add(b);
    for (const t of refs.trees) if (!marked.has(t)) todo.push(t);
  }
}

export async function collectGarbage(deps: GcDeps, opts: GcOptions): Promise<GcReport> {
  const now = deps.now ?? Date.now;
  const log = deps.log ?? ((line) => process.stderr.write(`${line}\n`));
  const cutoff = now() - opts.graceSecs * 1000 - GC_CLOCK_SLACK_MS;
  const marked = new Set<string>();
  const missing = new Set<string>();
  const roots = new Set(deps.roots.roots(cutoff));
  await mark(deps.store, roots, marked, missing, log);
  const candidates: BlobListing[] = [];
  let scanned = 0;
  let keptRecent = 0;
  for await (const o of deps.blobs.list()) {
    scanned++;
    if (marked.has(o.key)) continue;
    if (o.modifiedMs >= cutoff) keptRecent++;
    else candidates.push(o);
  }
  // Labels may have moved and runs been logged while the store was listed: mark from the roots as they are now.
  const again = [...deps.roots.roots(cutoff)];
  for (const id of again) roots.add(id);
  await mark(deps.store, again, marked, missing, log);
  let deleted = 0;
  let deletedBytes = 0;
  for (const c of candidates) {
    if (marked.has(c.key)) continue;
    if (opts.dryRun || await deps.blobs.deleteIfOlder(c.key, cutoff)) {
      deleted++;
      deletedBytes += c.size;
    } else keptRecent++;
  }
  if (!opts.dryRun) deps.roots.unpinBefore(cutoff);
  const report: GcReport = {
    dry_run: opts.dryRun, grace_secs: opts.graceSecs, cutoff: new Date(cutoff).toISOString(), roots: roots.size,
    reachable: marked.size - missing.size, scanned, kept_recent: keptRecent, deleted, deleted_bytes: deletedBytes, missing: missing.size,
  };
  log(`fs gc: ${JSON.stringify(report)}`);
  return report;
}
