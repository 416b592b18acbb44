// Reclaiming artifact payloads (issue 6 audit, item 2): a blob no artifact references any more is
// deleted from the real dir store on overwrite and on delete; shared content survives; a write of
// the same content during a deletion pass waits for it and re-stores the blob; streamed puts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMetadataDb } from '../../../supervisor/stores/metadata-db.ts';
import { blobKeyOf, DirBlobStore, type BlobStore } from '../../../supervisor/stores/blob/index.ts';
import { ArtifactService } from '../../../supervisor/artifacts/artifact-service.ts';
import { ArtifactRuleError, MAX_ARTIFACT_BYTES } from '../../../supervisor/artifacts/artifact-rules.ts';

const bytes = (s: string) => new TextEncoder().encode(s);

function setup(wrap: (store: DirBlobStore) => BlobStore = (s) => s, reclaim = true) {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-reclaim-'));
  const store = new DirBlobStore({ root: join(dir, 'blobs') });
  const svc = new ArtifactService(openMetadataDb(dir), wrap(store), { reclaim });
  const stored = (content: string) => existsSync(store.objectPath(blobKeyOf(bytes(content))));
  return { svc, store, stored };
}

test('overwriting a key deletes the payload it pointed at; content another key shares is kept', async () => {
  const { svc, stored } = setup();
  await svc.put('a', 'text/plain', bytes('one'), null);
  await svc.put('b', 'text/plain', bytes('shared'), null);
  await svc.put('c', 'text/plain', bytes('shared'), null);
  await svc.put('a', 'text/plain', bytes('two'), null);
  assert.equal(stored('one'), false);
  assert.equal(stored('two'), true);
  await svc.put('b', 'text/plain', bytes('other'), null);
  assert.equal(stored('shared'), true, 'c still references it');
  assert.equal(new TextDecoder().decode((await svc.get('c'))!.bytes), 'shared');
  // Rewriting the same content under the same key keeps the blob.
  await svc.put('a', 'text/markdown', bytes('two'), null);
  assert.equal(stored('two'), true);
});

test('delete removes the row and the payload; unknown keys answer undefined; emissions stay listed', async () => {
  const { svc, stored } = setup();
  const meta = await svc.put('gone.txt', 'text/plain', bytes('bye'), 'exec-1');
  assert.deepEqual(await svc.delete('gone.txt'), meta);
  assert.equal(svc.meta('gone.txt'), undefined);
  assert.equal(await svc.get('gone.txt'), undefined);
  assert.equal(stored('bye'), false);
  assert.equal(await svc.delete('gone.txt'), undefined);
  assert.deepEqual(svc.forExecution('exec-1'), [meta]);
  // The key can be written again.
  await svc.put('gone.txt', 'text/plain', bytes('bye'), null);
  assert.equal(stored('bye'), true);
});

test('without reclaim (a shared S3 prefix) payloads stay', async () => {
  const { svc, stored } = setup(undefined, false);
  await svc.put('a', 'text/plain', bytes('one'), null);
  await svc.put('a', 'text/plain', bytes('two'), null);
  await svc.delete('a');
  assert.equal(stored('one'), true);
  assert.equal(stored('two'), true);
});

test('a write of the same content during a deletion pass waits for it, then stores the blob again', async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => { release = resolve; });
  const deleting: string[] = [];
  const { svc, stored } = setup((store) => ({
    location: store.location,
    put: (b) => store.put(b),
    putStream: (c) => store.putStream(c),
    putAll: (bs) => store.putAll(bs),
    get: (k) => store.get(k),
    has: (k) => store.has(k),
    size: (k) => store.size(k),
    close: () => store.close(),
    delete: async (k) => {
      deleting.push(k);
      await gate;
      await store.delete(k);
    },
  }));
  await svc.put('old', 'text/plain', bytes('same'), null);
  const deleted = svc.delete('old');
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(deleting, [blobKeyOf(bytes('same'))], 'the pass is deleting the blob');
  const written = svc.put('new', 'text/plain', bytes('same'), null);
  await new Promise((r) => setImmediate(r));
  assert.equal(svc.meta('new'), undefined, 'the write waits for the pass');
  release();
  await deleted;
  await written;
  assert.equal(stored('same'), true);
  assert.equal(new TextDecoder().decode((await svc.get('new'))!.bytes), 'same');
});

test('concurrent overwrite and write of the replaced content: nothing dangles', async () => {
  const { svc, stored } = setup();
  await svc.put('k1', 'text/plain', bytes('X'), null);
  await Promise.all([svc.put('k1', 'text/plain', bytes('Y'), null), svc.put('k2', 'text/plain', bytes('X'), null)]);
  assert.equal(stored('X'), true);
  assert.equal(new TextDecoder().decode((await svc.get('k2'))!.bytes), 'X');
  assert.equal(new TextDecoder().decode((await svc.get('k1'))!.bytes), 'Y');
});

test('putStream stores the chunks; over 16 MiB is a 413 and stores nothing', async () => {
  const { svc, store } = setup();
  async function* chunks(n: number, size: number) {
    for (let i = 0; i < n; i++) yield new Uint8Array(size).fill(i);
  }
  const meta = await svc.putStream('s.bin', 'application/octet-stream', chunks(4, 1024), null);
  assert.equal(meta.size_bytes, 4096);
  assert.deepEqual([...(await svc.get('s.bin'))!.bytes.subarray(1023, 1025)], [0, 1]);
  await assert.rejects(svc.putStream('big.bin', 'application/octet-stream', chunks(17, 1024 * 1024), null),
    (e: unknown) => e instanceof ArtifactRuleError && e.status === 413 && e.message === `artifact payload exceeds the limit of ${MAX_ARTIFACT_BYTES} bytes (16 MiB)`);
  assert.equal(svc.meta('big.bin'), undefined);
  assert.equal(await store.has(blobKeyOf(new Uint8Array(0))), false);
  await assert.rejects(svc.putStream('bad/key', 'text/plain', chunks(1, 1), null), ArtifactRuleError);
});
