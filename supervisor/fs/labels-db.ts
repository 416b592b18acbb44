// Filesystem labels and their reflog, in their own SQLite file under --fs-labels-db (not the
// metadata database: labels outlive executions and may be shared by several server processes on
// one host). Every move of a label is one transaction writing the head and its reflog entry
// together; BEGIN IMMEDIATE takes the write lock before the head is read, so a compare-and-set
// is atomic across processes too, not only within this one.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import { migrateSqlite } from '../stores/sqlite-migrate.ts';

export const LABELS_DB_FILENAME = 'fs-labels.sqlite';

/** Reflog ops. A forced push and a repoint record `reset`, as mcp-v8 does. */
export type ReflogOp = 'create' | 'push' | 'reset';

export interface LabelHead {
  readonly name: string;
  readonly ca_id: string;
}

export interface ReflogEntry {
  /** Unix milliseconds. */
  readonly at: number;
  readonly from: string | null;
  readonly to: string;
  readonly op: ReflogOp;
  readonly message?: string;
}

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE fs_labels (
     name TEXT PRIMARY KEY,
     ca_id TEXT NOT NULL,
     updated_at INTEGER NOT NULL
   ) STRICT;
   CREATE TABLE fs_reflog (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     label TEXT NOT NULL,
     at INTEGER NOT NULL,
     from_id TEXT,
     to_id TEXT NOT NULL,
     op TEXT NOT NULL CHECK (op IN ('create', 'push', 'reset')),
     message TEXT
   ) STRICT;
   CREATE INDEX fs_reflog_by_label ON fs_reflog (label, seq);`,
  // Snapshots recently used without a label (mounted, committed, merged): GC keeps them for its
  // grace period, so an id a client holds between a run and its push is not collected under it.
  `CREATE TABLE fs_pins (
     ca_id TEXT PRIMARY KEY,
     at INTEGER NOT NULL
   ) STRICT;`,
];

type LogRow = { at: number; from_id: string | null; to_id: string; op: ReflogOp; message: string | null };

export class LabelsDb {
  readonly #db: DatabaseSync;
  readonly #list: StatementSync;
  readonly #get: StatementSync;
  readonly #upsert: StatementSync;
  readonly #append: StatementSync;
  readonly #logAll: StatementSync;
  readonly #logLast: StatementSync;
  readonly #inLog: StatementSync;
  readonly #reachable: StatementSync;
  readonly #pin: StatementSync;
  readonly #pinnedSince: StatementSync;
  readonly #unpinBefore: StatementSync;
  readonly #now: () => number;

  constructor(dir: string, now: () => number = Date.now) {
    mkdirSync(dir, { recursive: true });
    this.#db = new DatabaseSync(join(dir, LABELS_DB_FILENAME));
    // busy_timeout first: another server process on this file may hold the write lock for a
    // moment, and switching to WAL already needs it (two servers starting together collided here).
    this.#db.exec('PRAGMA busy_timeout = 10000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;');
    migrateSqlite(this.#db, MIGRATIONS, 'label database', '--fs-labels-db');
    this.#now = now;
    this.#list = this.#db.prepare('SELECT name, ca_id FROM fs_labels ORDER BY name');
    this.#get = this.#db.prepare('SELECT ca_id FROM fs_labels WHERE name = ?');
    this.#upsert = this.#db.prepare('INSERT INTO fs_labels (name, ca_id, updated_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET ca_id = excluded.ca_id, updated_at = excluded.updated_at');
    this.#append = this.#db.prepare('INSERT INTO fs_reflog (label, at, from_id, to_id, op, message) VALUES (?, ?, ?, ?, ?, ?)');
    this.#logAll = this.#db.prepare('SELECT at, from_id, to_id, op, message FROM fs_reflog WHERE label = ? ORDER BY seq');
    this.#logLast = this.#db.prepare('SELECT * FROM (SELECT seq, at, from_id, to_id, op, message FROM fs_reflog WHERE label = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq');
    this.#inLog = this.#db.prepare('SELECT 1 AS hit FROM fs_reflog WHERE label = ? AND (to_id = ? OR from_id = ?) LIMIT 1');
    this.#reachable = this.#db.prepare('SELECT ca_id AS id FROM fs_labels UNION SELECT to_id FROM fs_reflog UNION SELECT from_id FROM fs_reflog WHERE from_id IS NOT NULL');
    this.#pin = this.#db.prepare('INSERT INTO fs_pins (ca_id, at) VALUES (?, ?) ON CONFLICT (ca_id) DO UPDATE SET at = max(at, excluded.at)');
    this.#pinnedSince = this.#db.prepare('SELECT ca_id AS id FROM fs_pins WHERE at >= ?');
    this.#unpinBefore = this.#db.prepare('DELETE FROM fs_pins WHERE at < ?');
  }

  list(): LabelHead[] {
    return (this.#list.all() as unknown as LabelHead[]).map((r) => ({ name: r.name, ca_id: r.ca_id }));
  }

  head(name: string): string | undefined {
    return (this.#get.get(name) as { ca_id: string } | undefined)?.ca_id;
  }

  /** Oldest first; with `limit`, the newest `limit` entries (still oldest first). */
  log(name: string, limit?: number): ReflogEntry[] {
    const rows = (limit === undefined ? this.#logAll.all(name) : this.#logLast.all(name, limit)) as unknown as LogRow[];
    return rows.map((r) => ({ at: r.at, from: r.from_id, to: r.to_id, op: r.op, ...(r.message === null ? {} : { message: r.message }) }));
  }

  /** Whether `id` is the `to` or the `from` of any entry of the label's reflog. */
  inReflog(name: string, id: string): boolean {
    return this.#inLog.get(name, id, id) !== undefined;
  }

  /** Moves (or creates) the label unconditionally: `create` when it was absent, else `op`. Returns the previous head. */
  set(name: string, id: string, op: 'push' | 'reset', message: string | undefined): string | undefined {
    return this.#tx(() => {
      const from = this.head(name);
      this.#move(name, from, id, from === undefined ? 'create' : op, message);
      return from;
    });
  }

  /**
   * Moves the label to `id` only if its head is `expected` (undefined: the label must not exist).
   * Returns `{ok: true}` or the head found instead.
   */
  compareAndSet(name: string, expected: string | undefined, id: string, message: string | undefined): { ok: true } | { ok: false; current: string | undefined } {
    return this.#tx(() => {
      const current = this.head(name);
      if (current !== expected) return { ok: false, current } as const;
      this.#move(name, current, id, current === undefined ? 'create' : 'push', message);
      return { ok: true } as const;
    });
  }

  /** Every id a label or reflog entry names, and every id pinned at or after `pinnedSince`: GC's roots here. */
  roots(pinnedSince = Number.POSITIVE_INFINITY): Set<string> {
    const ids = new Set((this.#reachable.all() as { id: string }[]).map((r) => r.id));
    if (Number.isFinite(pinnedSince)) for (const r of this.#pinnedSince.all(pinnedSince) as { id: string }[]) ids.add(r.id);
    return ids;
  }

  /** Records that `id` is in use now (a mount, a commit's base or result, a merge's inputs or result). */
  pin(id: string): void {
    this.#pin.run(id, this.#now());
  }

  /** Forgets pins older than `before` (no later collection can count them). */
  unpinBefore(before: number): void {
    this.#unpinBefore.run(before);
  }

  close(): void {
    this.#db.close();
  }

  #move(name: string, from: string | undefined, to: string, op: ReflogOp, message: string | undefined): void {
    const at = this.#now();
    this.#upsert.run(name, to, at);
    this.#append.run(name, at, from ?? null, to, op, message ?? null);
  }

  #tx<T>(fn: () => T): T {
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      const out = fn();
      this.#db.exec('COMMIT');
      return out;
    } catch (e) {
      this.#db.exec('ROLLBACK');
      throw e;
    }
  }
}
