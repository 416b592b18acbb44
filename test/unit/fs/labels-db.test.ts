// The label database: two connections on one file (as two server processes have) see each
// other's moves, a compare-and-set loses cleanly to a concurrent one, and the reflog is kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LabelsDb } from '../../../supervisor/fs/labels-db.ts';

const id = (c: string): string => c.repeat(64);

test('two connections share labels; compare-and-set is atomic between them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-labels-'));
  let now = 1000;
  const a = new LabelsDb(dir, () => now++);
  const b = new LabelsDb(dir, () => now++);
  try {
    assert.deepEqual(a.compareAndSet('main', undefined, id('a'), 'init'), { ok: true });
    assert.equal(b.head('main'), id('a'));
    assert.deepEqual(b.compareAndSet('main', id('a'), id('b'), undefined), { ok: true });
    assert.deepEqual(a.compareAndSet('main', id('a'), id('c'), undefined), { ok: false, current: id('b') });
    assert.deepEqual(a.compareAndSet('other', id('a'), id('c'), undefined), { ok: false, current: undefined });
    assert.equal(a.set('main', id('d'), 'reset', 'force'), id('b'));
    assert.deepEqual(b.log('main'), [
      { at: 1000, from: null, to: id('a'), op: 'create', message: 'init' },
      { at: 1001, from: id('a'), to: id('b'), op: 'push' },
      { at: 1002, from: id('b'), to: id('d'), op: 'reset', message: 'force' },
    ]);
    assert.deepEqual(b.log('main', 1).map((e) => e.to), [id('d')]);
    assert.ok(b.inReflog('main', id('a')) && b.inReflog('main', id('b')) && !b.inReflog('main', id('c')));
    assert.deepEqual([...a.roots()].sort(), [id('a'), id('b'), id('d')]);
    assert.deepEqual(a.list(), [{ name: 'main', ca_id: id('d') }]);
  } finally {
    a.close();
    b.close();
  }
  // Reopening runs no migration twice.
  const again = new LabelsDb(dir);
  assert.equal(again.head('main'), id('d'));
  again.close();
});
