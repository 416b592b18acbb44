// Execution records and their output in the metadata database. Statements are prepared once;
// multi-row changes run in transactions.
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { ExecutionStatus } from './execution-types.ts';
import type { DecisionEntry, DecisionLog, EgressCounts } from '../../shared/decision-log.ts';

export interface ExecutionRow {
  readonly id: string;
  readonly status: ExecutionStatus;
  readonly result: string | null;
  readonly error: string | null;
  readonly heap: string | null;
  readonly fs: string | null;
  readonly session: string | null;
  readonly started_at: string;
  readonly completed_at: string | null;
}

/** What a listing shows: no result, error or heap (results may be megabytes each). */
export type ExecutionSummaryRow = Pick<ExecutionRow, 'id' | 'status' | 'started_at' | 'completed_at'>;

export interface Finish {
  readonly status: Exclude<ExecutionStatus, 'running'>;
  readonly result: string | null;
  readonly error: string | null;
  readonly heap: string | null;
  /** The snapshot a run with a mount produced (ExecutionInfo.fs). */
  readonly fs?: string | null;
  readonly completedAt: string;
}

export class ExecutionStore {
  readonly #db: DatabaseSync;
  readonly #insert: StatementSync;
  readonly #finish: StatementSync;
  readonly #get: StatementSync;
  readonly #ofSession: StatementSync;
  readonly #listRunning: StatementSync;
  readonly #listFinished: StatementSync;
  readonly #appendChunk: StatementSync;
  readonly #chunks: StatementSync;
  readonly #failRunning: StatementSync;
  readonly #pruneIds: StatementSync;
  readonly #countFinished: StatementSync;
  readonly #deleteExecution: StatementSync;
  readonly #deleteOutput: StatementSync;
  readonly #putDecisions: StatementSync;
  readonly #getDecisions: StatementSync;
  readonly #deleteDecisions: StatementSync;

  /**
   * Finished rows in the table, kept in step with every change this store makes (this process is
   * the database's one writer), so `prune` queries only when the table is over its bound.
   */
  #finished: number;

  constructor(db: DatabaseSync) {
    this.#db = db;
    this.#insert = db.prepare('INSERT INTO executions (id, status, session, started_at) VALUES (?, \'running\', ?, ?)');
    this.#finish = db.prepare('UPDATE executions SET status = ?, result = ?, error = ?, heap = ?, fs = ?, completed_at = ? WHERE id = ? AND status = \'running\'');
    this.#get = db.prepare('SELECT id, status, result, error, heap, fs, session, started_at, completed_at FROM executions WHERE id = ?');
    this.#ofSession = db.prepare('SELECT id FROM executions WHERE session = ?');
    // Listings read summary columns only: reading every retained result would make one list call
    // copy megabytes out of SQLite on the event loop.
    this.#listRunning = db.prepare('SELECT id, status, started_at, completed_at FROM executions WHERE status = \'running\' ORDER BY seq');
    this.#listFinished = db.prepare('SELECT id, status, started_at, completed_at FROM executions WHERE status != \'running\' ORDER BY seq DESC LIMIT ?');
    this.#appendChunk = db.prepare('INSERT INTO execution_output (execution_id, chunk, data) VALUES (?, ?, ?)');
    this.#chunks = db.prepare('SELECT data FROM execution_output WHERE execution_id = ? ORDER BY chunk');
    this.#failRunning = db.prepare('UPDATE executions SET status = \'failed\', error = ?, completed_at = ? WHERE status = \'running\'');
    // The oldest finished rows first: pruning takes what is over the bound from that end, so it
    // reads only the rows it deletes (not the `keep` retained ones before them).
    this.#pruneIds = db.prepare('SELECT id FROM executions WHERE status != \'running\' ORDER BY seq LIMIT ?');
    this.#countFinished = db.prepare('SELECT COUNT(*) AS n FROM executions WHERE status != \'running\'');
    this.#finished = this.#recount();
    this.#deleteExecution = db.prepare('DELETE FROM executions WHERE id = ?');
    this.#deleteOutput = db.prepare('DELETE FROM execution_output WHERE execution_id = ?');
    // Only for a recorded execution: a log that arrives after its execution was pruned is dropped.
    this.#putDecisions = db.prepare('INSERT OR REPLACE INTO execution_decisions (execution_id, entries, dropped, egress) SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM executions WHERE id = ?)');
    this.#getDecisions = db.prepare('SELECT entries, dropped, egress FROM execution_decisions WHERE execution_id = ?');
    this.#deleteDecisions = db.prepare('DELETE FROM execution_decisions WHERE execution_id = ?');
  }

  /** The ids of the retained executions of `session`. */
  idsOfSession(session: string): Set<string> {
    return new Set((this.#ofSession.all(session) as unknown as { id: string }[]).map((r) => r.id));
  }

  insert(id: string, session: string | null, startedAt: string): void {
    this.#insert.run(id, session, startedAt);
  }

  /** Undoes an insert whose submission failed (nothing else refers to it yet). */
  remove(id: string): void {
    this.#deleteOutput.run(id);
    this.#deleteDecisions.run(id);
    this.#deleteExecution.run(id);
  }

  transaction<T>(fn: () => T): T {
    const finished = this.#finished;
    this.#db.exec('BEGIN');
    try {
      const v = fn();
      this.#db.exec('COMMIT');
      return v;
    } catch (e) {
      // What the rolled-back statements counted did not happen.
      this.#finished = finished;
      this.#db.exec('ROLLBACK');
      throw e;
    }
  }

  /** Sets the terminal state once; a second terminal transition is ignored (cancelled is final). */
  finish(id: string, f: Finish): boolean {
    const finished = Number(this.#finish.run(f.status, f.result, f.error, f.heap, f.fs ?? null, f.completedAt, id).changes) > 0;
    if (finished) this.#finished++;
    return finished;
  }

  get(id: string): ExecutionRow | undefined {
    return this.#get.get(id) as ExecutionRow | undefined;
  }

  running(): ExecutionSummaryRow[] {
    return this.#listRunning.all() as unknown as ExecutionSummaryRow[];
  }

  recentFinished(limit: number): ExecutionSummaryRow[] {
    return this.#listFinished.all(limit) as unknown as ExecutionSummaryRow[];
  }

  appendOutput(id: string, chunk: number, data: Uint8Array): void {
    this.#appendChunk.run(id, chunk, data);
  }

  output(id: string): Buffer {
    const rows = this.#chunks.all(id) as unknown as { data: Uint8Array }[];
    return Buffer.concat(rows.map((r) => r.data));
  }

  putDecisions(id: string, log: DecisionLog): void {
    this.#putDecisions.run(id, JSON.stringify(log.entries), log.dropped, log.egress === undefined ? null : JSON.stringify(log.egress), id);
  }

  /** The stored decision log, or an empty one. */
  decisions(id: string): DecisionLog {
    const row = this.#getDecisions.get(id) as { entries: string; dropped: number; egress: string | null } | undefined;
    if (!row) return { entries: [], dropped: 0 };
    const log = { entries: JSON.parse(row.entries) as DecisionEntry[], dropped: Number(row.dropped) };
    return row.egress === null ? log : { ...log, egress: JSON.parse(row.egress) as Record<string, EgressCounts> };
  }

  /** After a restart nothing is running: mark what was, with `error`. Returns how many. */
  failRunning(error: string, at: string): number {
    const n = Number(this.#failRunning.run(error, at).changes);
    this.#finished += n;
    return n;
  }

  #recount(): number {
    return Number((this.#countFinished.get() as { n: number | bigint }).n);
  }

  /**
   * Deletes finished executions (and their output) beyond the newest `keep` (by submission
   * order). Free while the table is within its bound: no query at all.
   */
  prune(keep: number): string[] {
    const excess = this.#finished - keep;
    if (excess <= 0) return [];
    const ids = (this.#pruneIds.all(excess) as unknown as { id: string }[]).map((r) => r.id);
    const removeAll = (): void => { for (const id of ids) this.remove(id); };
    // Inside the finish transaction of the run that went over the bound: join it (one commit).
    if (this.#db.isTransaction) removeAll();
    else if (ids.length > 0) this.transaction(removeAll);
    // Fewer rows than counted (a row removed behind this store's back): count again.
    this.#finished = ids.length === excess ? keep : this.#recount();
    return ids;
  }
}
