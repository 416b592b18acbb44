// Heap tags in the metadata database: string pairs attached to a heap key. Tags are metadata
// about a key, not part of the image, so setting or deleting them never touches the heap store
// (and a key's tags may be set before or without the heap existing in this process's store).
import type { DatabaseSync, StatementSync } from 'node:sqlite';

export type Tags = Readonly<Record<string, string>>;

export interface HeapTagMatch {
  readonly heap: string;
  readonly tags: Tags;
}

export class HeapTagStore {
  readonly #db: DatabaseSync;
  readonly #get: StatementSync;
  readonly #clear: StatementSync;
  readonly #deleteOne: StatementSync;
  readonly #insert: StatementSync;
  readonly #all: StatementSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
    this.#get = db.prepare('SELECT name, value FROM heap_tags WHERE heap = ? ORDER BY name');
    this.#clear = db.prepare('DELETE FROM heap_tags WHERE heap = ?');
    this.#deleteOne = db.prepare('DELETE FROM heap_tags WHERE heap = ? AND name = ?');
    this.#insert = db.prepare('INSERT INTO heap_tags (heap, name, value) VALUES (?, ?, ?)');
    this.#all = db.prepare('SELECT heap, name, value FROM heap_tags ORDER BY heap, name');
  }

  get(heap: string): Tags {
    const out: Record<string, string> = {};
    // defineProperty, not assignment: a tag named `__proto__` is an own property like any other.
    for (const r of this.#get.all(heap) as { name: string; value: string }[]) {
      Object.defineProperty(out, r.name, { value: r.value, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }

  /** Replaces all of the heap's tags (an empty map clears them). */
  set(heap: string, tags: Tags): void {
    this.#tx(() => {
      this.#clear.run(heap);
      for (const [k, v] of Object.entries(tags)) this.#insert.run(heap, k, v);
    });
  }

  /** Deletes the named tags, or all of them when `names` is undefined; returns the tags left. */
  delete(heap: string, names?: readonly string[]): Tags {
    this.#tx(() => {
      if (names === undefined) this.#clear.run(heap);
      else for (const n of names) this.#deleteOne.run(heap, n);
    });
    return this.get(heap);
  }

  /** Heaps having every given pair with an equal value (case-sensitive); an empty filter matches every tagged heap. */
  query(filter: Tags): HeapTagMatch[] {
    const pairs = Object.entries(filter);
    let heaps: string[];
    if (pairs.length === 0) {
      heaps = [...new Set((this.#all.all() as { heap: string }[]).map((r) => r.heap))];
    } else {
      const where = pairs.map(() => '(name = ? AND value = ?)').join(' OR ');
      // Names are unique per heap (primary key), so matching all pairs = matching `pairs.length` rows.
      const rows = this.#db.prepare(`SELECT heap FROM heap_tags WHERE ${where} GROUP BY heap HAVING COUNT(*) = ? ORDER BY heap`)
        .all(...pairs.flat(), pairs.length) as { heap: string }[];
      heaps = rows.map((r) => r.heap);
    }
    return heaps.map((heap) => ({ heap, tags: this.get(heap) }));
  }

  #tx(fn: () => void): void {
    // Inside the execution service's finish transaction already: join it.
    if (this.#db.isTransaction) { fn(); return; }
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      fn();
      this.#db.exec('COMMIT');
    } catch (e) {
      this.#db.exec('ROLLBACK');
      throw e;
    }
  }
}
