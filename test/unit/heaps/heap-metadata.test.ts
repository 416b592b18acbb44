// Heap tags and the session log on a real SQLite file: replace/delete/query semantics, tag and
// key validation, session indexes and forks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMetadataDb } from '../../../supervisor/stores/metadata-db.ts';
import { HeapService } from '../../../supervisor/heaps/index.ts';
import { RunjsError } from '../../../shared/errors.ts';
import { HeapStore } from '../../../supervisor/heaps/index.ts';
import { createBlobStore } from '../../../supervisor/stores/blob/index.ts';

function withService(fn: (h: HeapService) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-heapmeta-'));
  const db = openMetadataDb(dir);
  try {
    fn(new HeapService(db, new HeapStore({ blobs: createBlobStore({ backend: 'dir', dir: join(dir, 'heaps') }) })));
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const K1 = '1'.repeat(64);
const K2 = '2'.repeat(64);

test('tags: set replaces, delete by name or all, query is an exact subset match', () => withService((h) => {
  h.setTags(K1, { a: '1', b: '2' });
  h.setTags(K2, { a: '1' });
  assert.deepEqual(h.queryByTags({ a: '1' }).map((r) => r.heap), [K1, K2]);
  assert.deepEqual(h.queryByTags({ a: '1', b: '2' }), [{ heap: K1, tags: { a: '1', b: '2' } }]);
  assert.deepEqual(h.queryByTags({ a: '1', b: '3' }), []);
  assert.deepEqual(h.queryByTags({ A: '1' }), []);
  assert.deepEqual(h.setTags(K1, { c: '3' }), { c: '3' });
  assert.deepEqual(h.queryByTags({ b: '2' }), []);
  assert.deepEqual(h.deleteTags(K1, ['c', 'missing']), {});
  assert.deepEqual(h.queryByTags({}).map((r) => r.heap), [K2], 'an empty filter lists tagged heaps only');
  assert.deepEqual(h.deleteTags(K2), {});
  assert.deepEqual(h.queryByTags({}), []);
}));

test('a tag named __proto__ is stored, shown and queried like any other', () => withService((h) => {
  const tags = JSON.parse('{"__proto__": "x", "a": "1"}') as Record<string, string>;
  const got = h.setTags(K1, tags);
  assert.deepEqual(Object.entries(got), [['__proto__', 'x'], ['a', '1']]);
  assert.equal(JSON.stringify(h.getTags(K1)), '{"__proto__":"x","a":"1"}');
  assert.deepEqual(h.queryByTags(JSON.parse('{"__proto__": "x"}')).map((r) => r.heap), [K1]);
}));

test('bad keys, tags and sessions are 400 RunjsErrors', () => withService((h) => {
  const is400 = (fn: () => unknown, re: RegExp) => assert.throws(fn, (e: unknown) => e instanceof RunjsError && e.status === 400 && re.test(e.message));
  is400(() => h.getTags('abc'), /invalid heap key/);
  is400(() => h.setTags(K1, { x: 1 }), /must be a string/);
  is400(() => h.setTags(K1, { '': 'x' }), /tag names/);
  is400(() => h.setTags(K1, Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, 'v']))), /at most 64/);
  is400(() => h.queryByTags([]), /expected an object/);
  is400(() => h.snapshots(undefined), /no session/);
  is400(() => h.snapshots('bad\nname'), /control characters/);
  is400(() => h.snapshots(' padded'), /must not begin or end with whitespace/);
  is400(() => h.snapshots('padded '), /must not begin or end with whitespace/);
}));

test('session log: 0-based indexes per session, latest, fork once', () => withService((h) => {
  const at = '2026-01-01T00:00:00.000Z';
  h.log.append('x', { code: 'a', input_heap: null, output_heap: K1, output_fs: null, timestamp: at });
  h.log.append('x', { code: 'b', input_heap: K1, output_heap: K2, output_fs: null, timestamp: at });
  h.log.append('y', { code: 'c', input_heap: null, output_heap: K1, output_fs: null, timestamp: at });
  assert.deepEqual(h.snapshots('x').map((e) => [e.index, e.code]), [[0, 'a'], [1, 'b']]);
  assert.equal(h.log.latest('x')?.output_heap, K2);
  assert.equal(h.log.fork('x', 'z', at), 'forked');
  assert.deepEqual(h.snapshots('z'), [{ index: 0, code: '// forked from session x', input_heap: K2, output_heap: K2, output_fs: null, timestamp: at }]);
  assert.equal(h.log.fork('x', 'z', at), 'target-has-history');
  assert.equal(h.log.fork('nobody', 'w', at), 'source-empty');
  assert.deepEqual(h.sessions(), ['x', 'y', 'z']);
}));

test('without a store every call says how to enable it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-heapmeta-'));
  const db = openMetadataDb(dir);
  try {
    const h = new HeapService(db, undefined);
    assert.equal(h.enabled, false);
    assert.throws(() => h.getTags(K1), /--heap-store/);
    assert.throws(() => h.snapshots('x'), /sessions are not configured/);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
