// The on-disk base-image cache: a valid entry is found by key, anything else is ignored, and only
// a directory private to this user is trusted (every fresh run would boot from its contents).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCachedBaseImage, setBaseImageCacheDir, writeCachedBaseImage, type BaseImageKey } from '../../../worker/engines/quickjs/base-image-cache.ts';
import type { HeapImage } from '../../../shared/heap-image.ts';

const build = 'ab'.repeat(32);
const key: BaseImageKey = { build, prelude: '0123456789abcdef', bridgeSource: 'bridge v1' };
const image: HeapImage = {
  manifest: { format: 1, engine: 'quickjs', build, prelude: key.prelude, pages: 90, ranges: [[0, 1]], handles: { rt: 5333248, ctx: 5347968, internal: 5400000, bridge: 5400016, scratch: 5400032 }, generation: 0 },
  bytes: new Uint8Array(65536).fill(3),
};

let root: string;
before(() => { root = mkdtempSync(join(tmpdir(), 'runjs-cache-test-')); });

function inDir<T>(dir: string, fn: () => T): T {
  setBaseImageCacheDir(dir);
  try {
    return fn();
  } finally {
    setBaseImageCacheDir(undefined);
  }
}

test('a stored base image is read back under the same key, not under another', () => {
  const dir = join(root, 'ok');
  inDir(dir, () => {
    assert.equal(readCachedBaseImage(key), undefined);
    writeCachedBaseImage(key, image);
    const back = readCachedBaseImage(key);
    assert.deepEqual(back?.manifest, image.manifest);
    assert.equal(back?.bytes[0], 3);
    assert.equal(readCachedBaseImage({ ...key, bridgeSource: 'bridge v2' }), undefined);
    assert.equal(readCachedBaseImage({ ...key, prelude: 'fedcba9876543210' }), undefined);
  });
  assert.equal(readdirSync(dir).length, 1, 'one file, no temporary left behind');
});

test('a corrupt cache file is ignored', () => {
  const dir = join(root, 'corrupt');
  inDir(dir, () => {
    writeCachedBaseImage(key, image);
    for (const f of readdirSync(dir)) writeFileSync(join(dir, f), 'garbage');
    assert.equal(readCachedBaseImage(key), undefined);
  });
});

test('a directory others may write to is not trusted', () => {
  const dir = join(root, 'shared');
  inDir(dir, () => {
    writeCachedBaseImage(key, image);
    assert.ok(readCachedBaseImage(key));
    chmodSync(dir, 0o777);
    assert.equal(readCachedBaseImage(key), undefined);
  });
});
