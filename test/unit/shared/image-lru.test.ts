// The bounded LRU behind the workers' heap-image caches and the pool's mirrors of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ByteLru } from '../../../shared/image-lru.ts';

test('evicts the least recently used entry beyond the entry bound; get refreshes, has does not', () => {
  const lru = new ByteLru<string>(1000, 2);
  lru.set('a', 'A', 1);
  lru.set('b', 'B', 1);
  assert.equal(lru.get('a'), 'A'); // a is now the most recent
  lru.set('c', 'C', 1);
  assert.equal(lru.has('b'), false);
  assert.equal(lru.has('a'), true);
  assert.equal(lru.has('c'), true);
  assert.equal(lru.has('a'), true); // has() did not refresh a …
  lru.set('d', 'D', 1);
  assert.equal(lru.has('a'), false); // … so a, the oldest, goes next
  assert.equal(lru.size, 2);
});

test('evicts beyond the byte bound, never keeps an entry larger than the bound, and replaces in place', () => {
  const lru = new ByteLru<number>(10, 100);
  lru.set('a', 1, 4);
  lru.set('b', 2, 4);
  lru.set('c', 3, 4);
  assert.equal(lru.has('a'), false);
  assert.deepEqual([lru.has('b'), lru.has('c')], [true, true]);
  lru.set('huge', 4, 11);
  assert.equal(lru.has('huge'), false);
  assert.equal(lru.size, 2);
  lru.set('b', 5, 6); // replaces b (4 → 6 bytes): 6 + 4 = 10 fits
  assert.equal(lru.get('b'), 5);
  assert.equal(lru.has('c'), true);
  lru.delete('b');
  lru.set('d', 6, 6);
  assert.deepEqual([lru.has('c'), lru.has('d')], [true, true]);
  lru.clear();
  assert.equal(lru.size, 0);
});

test('bytes is the sum of the sizes held, within the bound', () => {
  const lru = new ByteLru<number>(10, 100);
  lru.set('a', 1, 4);
  lru.set('b', 2, 4);
  assert.equal(lru.bytes, 8);
  lru.set('c', 3, 4);
  assert.equal(lru.bytes, 8, 'a was evicted');
  lru.delete('b');
  assert.equal(lru.bytes, 4);
  lru.set('big', 4, 11);
  assert.equal(lru.bytes, 4, 'an entry over the bound is not kept');
  lru.clear();
  assert.equal(lru.bytes, 0);
});
