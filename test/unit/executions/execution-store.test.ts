// The execution store on a real SQLite file. Listings must never read result or error: with
// retained runs of a megabyte each, one list call would copy all of them on the event loop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMetadataDb } from '../../../supervisor/stores/metadata-db.ts';
import { ExecutionStore } from '../../../supervisor/executions/execution-store.ts';

const SUMMARY_COLUMNS = ['completed_at', 'id', 'started_at', 'status'];
/** SQLite rows have a null prototype; compare their own fields. */
const plain = (rows: readonly object[]): object[] => rows.map((r) => ({ ...r }));

test('running() and recentFinished() carry summary columns only, even when results are huge', () => {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-execstore-'));
  const db = openMetadataDb(dir);
  try {
    const store = new ExecutionStore(db);
    const big = 'x'.repeat(1 << 20);
    store.insert('done', 's1', '2025-01-01T00:00:00.000Z');
    store.finish('done', { status: 'completed', result: big, error: null, heap: 'h'.repeat(64), completedAt: '2025-01-01T00:00:01.000Z' });
    store.insert('bad', null, '2025-01-01T00:00:02.000Z');
    store.finish('bad', { status: 'failed', result: null, error: big, heap: null, completedAt: '2025-01-01T00:00:03.000Z' });
    store.insert('live', null, '2025-01-01T00:00:04.000Z');

    assert.deepEqual(plain(store.running()), [{ id: 'live', status: 'running', started_at: '2025-01-01T00:00:04.000Z', completed_at: null }]);
    const finished = store.recentFinished(10);
    assert.deepEqual(plain(finished), [
      { id: 'bad', status: 'failed', started_at: '2025-01-01T00:00:02.000Z', completed_at: '2025-01-01T00:00:03.000Z' },
      { id: 'done', status: 'completed', started_at: '2025-01-01T00:00:00.000Z', completed_at: '2025-01-01T00:00:01.000Z' },
    ]);
    for (const row of [...store.running(), ...finished]) assert.deepEqual(Object.keys(row).sort(), SUMMARY_COLUMNS);
    assert.deepEqual(store.recentFinished(1).map((r) => r.id), ['bad']);
    // The full record is still there for get().
    assert.equal(store.get('done')?.result, big);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

const ids = (store: ExecutionStore): string[] => [...store.running(), ...store.recentFinished(100)].map((r) => r.id).sort();
const done = (at: string) => ({ status: 'completed' as const, result: '1', error: null, heap: null, completedAt: at });

test('prune keeps the newest `keep` finished rows by submission order, counts rows a restart finds, and forgets rolled-back finishes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-execstore-'));
  let db = openMetadataDb(dir);
  try {
    let store = new ExecutionStore(db);
    for (const id of ['a', 'b', 'c', 'd']) store.insert(id, null, '2025-01-01T00:00:00.000Z');
    // Within the bound: nothing goes.
    store.finish('b', done('2025-01-01T00:00:01.000Z'));
    store.finish('d', done('2025-01-01T00:00:02.000Z'));
    assert.deepEqual(store.prune(2), []);
    // `a` finishes last but was submitted first: it is the oldest, so it is what goes.
    store.finish('a', done('2025-01-01T00:00:03.000Z'));
    assert.deepEqual(store.prune(2), ['a']);
    assert.deepEqual(ids(store), ['b', 'c', 'd']);
    // A second terminal transition (cancelled is final) counts nothing.
    assert.equal(store.finish('b', done('2025-01-01T00:00:04.000Z')), false);
    assert.deepEqual(store.prune(2), []);
    // A finish rolled back with its transaction was never counted.
    assert.throws(() => store.transaction(() => { store.finish('c', done('2025-01-01T00:00:05.000Z')); throw new Error('boom'); }), /boom/);
    assert.equal(store.get('c')?.status, 'running');
    assert.deepEqual(store.prune(2), []);
    assert.deepEqual(ids(store), ['b', 'c', 'd']);

    // A restart: the rows already finished count, and what the restart fails counts too.
    db.close();
    db = openMetadataDb(dir);
    store = new ExecutionStore(db);
    assert.deepEqual(store.prune(2), []);
    assert.equal(store.failRunning('restarted', '2025-01-01T00:00:06.000Z'), 1);
    assert.deepEqual(store.prune(2), ['b']);
    assert.deepEqual(store.prune(0), ['c', 'd']);
    assert.deepEqual(ids(store), []);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
