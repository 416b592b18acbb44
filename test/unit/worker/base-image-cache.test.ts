// The on-disk base-image cache: a valid entry is found by key, anything else is ignored, and only
// a directory private to this user is trusted (every fresh run would boot from its contents);
// an image that passes the checks but breaks the engine is deleted and rebuilt.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discardCachedBaseImage, readCachedBaseImage, writeCachedBaseImage, type BaseImageKey } from '../../../worker/engines/quickjs/base-image-cache.ts';
import { BRIDGE_SOURCE } from '../../../worker/engines/quickjs/base-image.ts';
import { loadQuickJSBinary } from '../../../worker/engines/quickjs/quickjs-binary.ts';
import { QuickJSEngine } from '../../../worker/engines/quickjs/quickjs-engine.ts';
import { guestVersion } from '../../../worker/engines/quickjs/guest-version.ts';
import { RunLoop } from '../../../worker/runtime/execute-run.ts';
import { createOps } from '../../../worker/ops/capabilities.ts';
import { TEST_WORKER_SETTINGS } from '../../helpers/worker-settings.ts';
import type { Outcome } from '../../../shared/protocol.ts';
import type { HeapImage } from '../../../shared/heap-image.ts';

const build = 'ab'.repeat(32);
const key: BaseImageKey = { build, prelude: '0123456789abcdef', bridgeSource: 'bridge v1' };
const image: HeapImage = {
  manifest: { format: 1, engine: 'quickjs', build, prelude: key.prelude, pages: 90, ranges: [[0, 1]], handles: { rt: 5333248, ctx: 5347968, internal: 5400000, bridge: 5400016, scratch: 5400032 }, generation: 0 },
  bytes: new Uint8Array(65536).fill(3),
};

let root: string;
before(() => { root = mkdtempSync(join(tmpdir(), 'runjs-cache-test-')); });

/** Runs `fn` for a cache in `dir` (each test its own directory). */
function inDir<T>(_dir: string, fn: () => T): T {
  return fn();
}

test('a stored base image is read back under the same key, not under another', () => {
  const dir = join(root, 'ok');
  inDir(dir, () => {
    assert.equal(readCachedBaseImage(dir, key), undefined);
    writeCachedBaseImage(dir, key, image);
    const back = readCachedBaseImage(dir, key);
    assert.deepEqual(back?.manifest, image.manifest);
    assert.equal(back?.bytes[0], 3);
    assert.equal(readCachedBaseImage(dir, { ...key, bridgeSource: 'bridge v2' }), undefined);
    assert.equal(readCachedBaseImage(dir, { ...key, prelude: 'fedcba9876543210' }), undefined);
  });
  assert.equal(readdirSync(dir).length, 1, 'one file, no temporary left behind');
});

test('a corrupt cache file is ignored', () => {
  const dir = join(root, 'corrupt');
  inDir(dir, () => {
    writeCachedBaseImage(dir, key, image);
    for (const f of readdirSync(dir)) writeFileSync(join(dir, f), 'garbage');
    assert.equal(readCachedBaseImage(dir, key), undefined);
  });
});

test('a cache file whose page bytes changed is ignored (content hash)', () => {
  const dir = join(root, 'flipped');
  inDir(dir, () => {
    writeCachedBaseImage(dir, key, image);
    const [f] = readdirSync(dir);
    const file = readFileSync(join(dir, f!));
    file[file.byteLength - 100] = 0x41; // one byte of page data
    writeFileSync(join(dir, f!), file);
    assert.equal(readCachedBaseImage(dir, key), undefined);
    discardCachedBaseImage(dir, key);
    assert.deepEqual(readdirSync(dir), []);
  });
});

test('a failed write leaves no temporary file behind', () => {
  const dir = join(root, 'failing');
  inDir(dir, () => {
    writeCachedBaseImage(dir, key, image);
    const [f] = readdirSync(dir);
    // The target is now a non-empty directory: the rename fails after the temporary was written.
    rmSync(join(dir, f!));
    mkdirSync(join(dir, f!, 'x'), { recursive: true });
    writeCachedBaseImage(dir, key, image);
    assert.deepEqual(readdirSync(dir), [f]);
  });
});

/** The real engine's cache key (quickjs-engine.ts #boot). */
async function engineKey(): Promise<BaseImageKey> {
  const binary = await loadQuickJSBinary();
  return { build: binary.buildId, prelude: guestVersion(), bridgeSource: BRIDGE_SOURCE };
}

async function runOnNewEngine(dir: string, code: string): Promise<Outcome> {
  const engine = new QuickJSEngine({ cacheDir: dir });
  await engine.warmUp();
  const loop = new RunLoop({ runId: 'r', code, timeoutMs: 5000 }, createOps(TEST_WORKER_SETTINGS), new Map(), { output: () => {} });
  const realm = await engine.createRealm({ memoryLimitMb: 8, hostCall: (op, args, bytes) => loop.hostCall(op, args, bytes) });
  try {
    return await loop.run(realm);
  } finally {
    realm.dispose();
  }
}

test('a cached base image that passes the hash but breaks the engine is deleted and rebuilt', async () => {
  const dir = join(root, 'engine');
  {
    const k = await engineKey();
    assert.deepEqual(await runOnNewEngine(dir, '1 + 1'), { status: 'completed', result: '2' });
    const good = readCachedBaseImage(dir, k);
    assert.ok(good, 'the first engine stored its base image');
    // Damage 4 KiB in every stored page but the first: the file is then re-hashed, as if the
    // engine itself had written a bad image.
    const bytes = good.bytes.slice();
    for (let p = 1; p < bytes.byteLength / 65536; p++) bytes.fill(0x41, p * 65536 + 8192, p * 65536 + 12288);
    writeCachedBaseImage(dir, k, { manifest: good.manifest, bytes });
    assert.equal(readCachedBaseImage(dir, k)?.bytes[65536 + 8192], 0x41);
    // A new engine (a respawned worker) still serves runs, and leaves a good file for the next one.
    assert.deepEqual(await runOnNewEngine(dir, '[1, 2].map((x) => x * 3).join()'), { status: 'completed', result: '"3,6"' });
    const healed = readCachedBaseImage(dir, k);
    assert.ok(healed);
    assert.equal(Buffer.from(healed.bytes).equals(Buffer.from(bytes)), false, 'the damaged image was replaced');
    assert.deepEqual(await runOnNewEngine(dir, '"third"'), { status: 'completed', result: '"third"' });
  }
});

test('a directory others may write to is not trusted', () => {
  const dir = join(root, 'shared');
  inDir(dir, () => {
    writeCachedBaseImage(dir, key, image);
    assert.ok(readCachedBaseImage(dir, key));
    chmodSync(dir, 0o777);
    assert.equal(readCachedBaseImage(dir, key), undefined);
  });
});
