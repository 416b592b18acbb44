// The session log in the metadata database: one entry per completed run with a session, in
// order. `index` is the entry's 0-based position in its session, so listings are stable and a
// caller can tell how far a session has come.
import type { DatabaseSync, StatementSync } from 'node:sqlite';

export interface SessionSnapshotEntry {
  readonly index: number;
  readonly code: string;
  readonly input_heap: string | null;
  /** Null for a run without a heap store (filesystem persistence alone). */
  readonly output_heap: string | null;
  readonly output_fs: string | null;
  readonly timestamp: string;
}

export interface NewSessionEntry {
  readonly code: string;
  readonly input_heap: string | null;
  /** Null for a run without a heap store (filesystem persistence alone). */
  readonly output_heap: string | null;
  readonly output_fs: string | null;
  readonly timestamp: string;
}

interface Row {
  idx: number;
  code: string;
  input_heap: string | null;
  output_heap: string | null;
  output_fs: string | null;
  timestamp: string;
}

export class SessionLog {
  readonly #db: DatabaseSync;
  readonly #append: StatementSync;
  readonly #entries: StatementSync;
  readonly #latest: StatementSync;
  readonly #sessions: StatementSync;
  readonly #allFs: StatementSync;
  readonly #latestFs: StatementSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
    // The next index is computed in the same statement, so concurrent appends (one writer,
    // synchronous sqlite) can never collide.
    this.#append = db.prepare(`INSERT INTO session_log (session, idx, code, input_heap, output_heap, output_fs, timestamp)
      VALUES (?, (SELECT COALESCE(MAX(idx) + 1, 0) FROM session_log WHERE session = ?), ?, ?, ?, ?, ?) RETURNING idx`);
    this.#entries = db.prepare('SELECT idx, code, input_heap, output_heap, output_fs, timestamp FROM session_log WHERE session = ? ORDER BY idx');
    this.#latest = db.prepare('SELECT idx, code, input_heap, output_heap, output_fs, timestamp FROM session_log WHERE session = ? ORDER BY idx DESC LIMIT 1');
    this.#sessions = db.prepare('SELECT DISTINCT session FROM session_log ORDER BY session');
    this.#latestFs = db.prepare('SELECT output_fs FROM session_log WHERE session = ? AND output_fs IS NOT NULL ORDER BY idx DESC LIMIT 1');
    this.#allFs = db.prepare('SELECT DISTINCT output_fs AS id FROM session_log WHERE output_fs IS NOT NULL');
  }

  /** Every filesystem snapshot any session's log names (roots of filesystem garbage collection). */
  allFs(): string[] {
    return (this.#allFs.all() as { id: string }[]).map((r) => r.id);
  }

  /** The filesystem snapshot the session's latest run with a mount produced (a session run starts from it). */
  latestFs(session: string): string | undefined {
    const row = this.#latestFs.get(session) as { output_fs: string } | undefined;
    return row?.output_fs;
  }

  append(session: string, e: NewSessionEntry): SessionSnapshotEntry {
    const row = this.#append.get(session, session, e.code, e.input_heap, e.output_heap, e.output_fs, e.timestamp) as { idx: number };
    return { index: row.idx, ...e };
  }

  /** Oldest first. */
  entries(session: string): SessionSnapshotEntry[] {
    return (this.#entries.all(session) as unknown as Row[]).map(toEntry);
  }

  latest(session: string): SessionSnapshotEntry | undefined {
    const row = this.#latest.get(session) as Row | undefined;
    return row ? toEntry(row) : undefined;
  }

  /** Sessions with at least one entry (a name merely mentioned is not a session). */
  sessions(): string[] {
    return (this.#sessions.all() as { session: string }[]).map((r) => r.session);
  }

  /**
   * `--session-fork-from from --session-id to`: when `to` has no history and `from` has some, one
   * entry is appended to `to` continuing from `from`'s latest output. Copy-on-write: heaps are
   * immutable and shared by key, so nothing is copied. Returns what happened, for the log.
   */
  fork(from: string, to: string, timestamp: string): 'forked' | 'target-has-history' | 'source-empty' {
    if (this.latest(to)) return 'target-has-history';
    const src = this.latest(from);
    if (!src) return 'source-empty';
    this.append(to, { code: `// forked from session ${from}`, input_heap: src.output_heap, output_heap: src.output_heap, output_fs: src.output_fs, timestamp });
    return 'forked';
  }

}

function toEntry(r: Row): SessionSnapshotEntry {
  return { index: r.idx, code: r.code, input_heap: r.input_heap, output_heap: r.output_heap, output_fs: r.output_fs, timestamp: r.timestamp };
}
