// The metadata database (node:sqlite): one file under --session-db-path, WAL, one writer (this
// process), a versioned schema applied by ordered migrations. Other stores prepare their
// statements against the handle once, at construction.
import { DatabaseSync } from 'node:sqlite';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { migrateSqlite } from './sqlite-migrate.ts';

export const DB_FILENAME = 'runjs.db';

/** Migrations in order; index + 1 is the schema version they produce. Never edit a shipped one. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE executions (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     id TEXT NOT NULL UNIQUE,
     status TEXT NOT NULL,
     result TEXT,
     error TEXT,
     heap TEXT,
     fs TEXT,
     session TEXT,
     started_at TEXT NOT NULL,
     completed_at TEXT
   );
   CREATE INDEX executions_status ON executions (status, seq);
   CREATE TABLE execution_output (
     execution_id TEXT NOT NULL,
     chunk INTEGER NOT NULL,
     data BLOB NOT NULL,
     PRIMARY KEY (execution_id, chunk)
   ) WITHOUT ROWID;`,
  // 2: artifacts (payloads live in the blob store), what each execution emitted, upload tokens.
  `CREATE TABLE artifacts (
     key TEXT PRIMARY KEY,
     mime_type TEXT NOT NULL,
     size_bytes INTEGER NOT NULL,
     blob TEXT NOT NULL,
     created_at TEXT NOT NULL,
     execution_id TEXT
   ) WITHOUT ROWID;
   CREATE TABLE execution_artifacts (
     execution_id TEXT NOT NULL,
     key TEXT NOT NULL,
     mime_type TEXT NOT NULL,
     size_bytes INTEGER NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (execution_id, key)
   ) WITHOUT ROWID;
   CREATE TABLE upload_tokens (
     token_hash TEXT PRIMARY KEY,
     key TEXT NOT NULL,
     mime_type TEXT,
     expires_at TEXT NOT NULL,
     state TEXT NOT NULL
   ) WITHOUT ROWID;`,
  // 3: heap tags (one row per pair) and the session log (index is the 0-based position in its session).
  `CREATE TABLE heap_tags (
     heap TEXT NOT NULL,
     name TEXT NOT NULL,
     value TEXT NOT NULL,
     PRIMARY KEY (heap, name)
   ) WITHOUT ROWID;
   CREATE INDEX heap_tags_pair ON heap_tags (name, value);
   CREATE TABLE session_log (
     session TEXT NOT NULL,
     idx INTEGER NOT NULL,
     code TEXT NOT NULL,
     input_heap TEXT,
     output_heap TEXT NOT NULL,
     output_fs TEXT,
     timestamp TEXT NOT NULL,
     PRIMARY KEY (session, idx)
   ) WITHOUT ROWID;`,
  // 4: each execution's policy decision log (shared/decision-log.ts), one JSON document, bounded by the pool.
  `CREATE TABLE execution_decisions (
     execution_id TEXT PRIMARY KEY,
     entries TEXT NOT NULL,
     dropped INTEGER NOT NULL
   ) WITHOUT ROWID;`,
  // 5: each execution's network traffic per category (DecisionLog.egress), JSON; NULL when none.
  `ALTER TABLE execution_decisions ADD COLUMN egress TEXT;`,
  // 6: session log entries of runs without a heap store (filesystem persistence alone) have no output_heap.
  `CREATE TABLE session_log_6 (
     session TEXT NOT NULL,
     idx INTEGER NOT NULL,
     code TEXT NOT NULL,
     input_heap TEXT,
     output_heap TEXT,
     output_fs TEXT,
     timestamp TEXT NOT NULL,
     PRIMARY KEY (session, idx)
   ) WITHOUT ROWID;
   INSERT INTO session_log_6 (session, idx, code, input_heap, output_heap, output_fs, timestamp)
     SELECT session, idx, code, input_heap, output_heap, output_fs, timestamp FROM session_log;
   DROP TABLE session_log;
   ALTER TABLE session_log_6 RENAME TO session_log;`,
];

export function openMetadataDb(dir: string): DatabaseSync {
  mkdirSync(dir, { recursive: true });
  const db = new DatabaseSync(join(dir, DB_FILENAME));
  // busy_timeout first: switching to WAL takes the write lock another process may hold.
  db.exec('PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
  migrateSqlite(db, MIGRATIONS, 'metadata database', '--session-db-path');
  return db;
}
