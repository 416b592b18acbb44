// Ordered schema migrations for a runjs SQLite file: migration i produces schema version i + 1,
// kept in `PRAGMA user_version`. Each runs in a BEGIN IMMEDIATE transaction that reads the version
// again once it holds the write lock, so two processes opening one file at once (servers sharing
// --session-db-path or --fs-labels-db) never both apply a migration. A file newer than this runjs
// knows is refused, naming the flag that points at it.
import type { DatabaseSync } from 'node:sqlite';

const versionOf = (db: DatabaseSync): number => (db.prepare('PRAGMA user_version').get() as { user_version: number } | undefined)?.user_version ?? 0;

/** `what`: e.g. "metadata database"; `flag`: the option that names its location. Never edit a shipped migration. */
export function migrateSqlite(db: DatabaseSync, migrations: readonly string[], what: string, flag: string): void {
  const version = versionOf(db);
  if (version > migrations.length) {
    throw new Error(`the ${what} at ${flag} has schema version ${version}, newer than this runjs supports (${migrations.length}); upgrade runjs or point ${flag} elsewhere`);
  }
  for (let v = version; v < migrations.length; v++) {
    db.exec('BEGIN IMMEDIATE');
    try {
      if (versionOf(db) === v) {
        db.exec(migrations[v]!);
        db.exec(`PRAGMA user_version = ${v + 1}`);
      }
      db.exec('COMMIT');
    } catch (e) {
      db.exec('ROLLBACK');
      throw e;
    }
  }
}
