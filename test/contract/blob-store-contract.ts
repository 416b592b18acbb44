// The BlobStore contract: one suite, run once per backend (blob-store-dir.test.ts,
// blob-store-s3.test.ts). A harness gives the suite a store over empty storage plus out-of-band
// access to that storage, so tests can corrupt objects and check exactly what was written.
import { describe, it, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { BlobStore } from '../../supervisor/stores/blob/index.ts';
import { BlobCorruptError, InvalidBlobKeyError } from '../../supervisor/stores/blob/index.ts';

export interface BlobStoreHarness {
  /** The store under test, over empty storage. */
  readonly store: BlobStore;
  /** Another store over the same storage with nothing cached: what a second server process sees. */
  reopen(): Promise<BlobStore>;
  /** Replaces the stored object for `key` with `bytes`, behind the store's back. */
  tamper(key: string, bytes: Uint8Array): Promise<void>;
  /** The stored bytes for `key`, unverified; undefined when absent. */
  rawObject(key: string): Promise<Uint8Array | undefined>;
  /** put replaces a stored object whose size is wrong for its key (dir); otherwise it never writes over one. */
  readonly repairsWrongSize?: boolean;
  /** Every object in the storage as shard + rest of key; anything else (temp files) as its name. */
  listKeys(): Promise<string[]>;
  close(): Promise<void>;
}

const HELLO_KEY = '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824';
const EMPTY_KEY = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const text = (s: string) => new TextEncoder().encode(s);
const same = (a: Uint8Array | undefined, b: Uint8Array) => a !== undefined && Buffer.from(a).equals(b);

export function blobStoreContract(label: string, open: () => Promise<BlobStoreHarness>): void {
  describe(`BlobStore contract: ${label}`, () => {
    let h: BlobStoreHarness;
    const extra: BlobStore[] = [];
    const reopen = async () => {
      const store = await h.reopen();
      extra.push(store);
      return store;
    };
    beforeEach(async () => { h = await open(); });
    afterEach(async () => {
      for (const store of extra.splice(0)) await store.close();
      await h.close();
    });

    it('round-trips bytes under their sha256', async () => {
      const key = await h.store.put(text('hello'));
      assert.equal(key, HELLO_KEY);
      const got = await h.store.get(key);
      assert.ok(got instanceof Uint8Array);
      assert.deepEqual([...got], [...text('hello')]);
      assert.equal(await h.store.has(key), true);
      assert.equal(await h.store.size(key), 5);
      assert.deepEqual(await h.listKeys(), [HELLO_KEY]);
    });

    it('stores the empty blob', async () => {
      assert.equal(await h.store.put(new Uint8Array(0)), EMPTY_KEY);
      assert.equal((await h.store.get(EMPTY_KEY))?.byteLength, 0);
      assert.equal(await h.store.size(EMPTY_KEY), 0);
    });

    it('is visible to a second store over the same storage', async () => {
      const key = await h.store.put(text('shared'));
      const other = await reopen();
      assert.ok(same(await other.get(key), text('shared')));
      assert.equal(await other.has(key), true);
    });

    it('reports a missing key as absent', async () => {
      const key = sha256(text('never stored'));
      assert.equal(await h.store.get(key), undefined);
      assert.equal(await h.store.has(key), false);
      assert.equal(await h.store.size(key), undefined);
    });

    for (const [what, content] of [['an object', text('original')], ['the empty object', new Uint8Array(0)]] as const) {
      it(`never overwrites ${what} (put-if-absent)`, async () => {
        const key = await h.store.put(content);
        const impostor = text('impostor');
        await h.tamper(key, impostor);
        assert.equal(await h.store.put(content), key);
        assert.equal(await (await reopen()).put(content), key);
        // Same size: indistinguishable without reading it back, so it stands (reads catch it).
        // Wrong size (the empty object's impostor): a backend that checks sizes repairs it.
        const repaired = h.repairsWrongSize === true && impostor.byteLength !== content.byteLength;
        assert.ok(same(await h.rawObject(key), repaired ? content : impostor), repaired ? 'the wrong-size object was not repaired' : 'the second put replaced the stored object');
      });
    }

    it('verifies the hash on read and never returns bad bytes', async () => {
      const key = await h.store.put(text('precious state'));
      const rotten = text('precious stale');
      await h.tamper(key, rotten);
      const cold = await reopen();
      await assert.rejects(cold.get(key), (e: unknown) => {
        assert.ok(e instanceof BlobCorruptError);
        assert.equal(e.code, 'BLOB_CORRUPT');
        assert.equal(e.key, key);
        assert.equal(e.actualKey, sha256(rotten));
        assert.equal(e.message,
          `blob ${key} in ${cold.location} is corrupt: its content hashes to ${sha256(rotten)}; the bytes were not returned`);
        return true;
      });
    });

    it('detects a truncated object', async () => {
      const bytes = randomBytes(4096);
      const key = await h.store.put(bytes);
      await h.tamper(key, bytes.subarray(0, 1000));
      await assert.rejects((await reopen()).get(key), BlobCorruptError);
    });

    it('rejects keys that are not 64 lowercase hex characters, before touching storage', async () => {
      const bad: unknown[] = [
        '', 'abc', HELLO_KEY.toUpperCase(), HELLO_KEY.slice(1), `${HELLO_KEY}0`, `../${HELLO_KEY.slice(3)}`,
        `${HELLO_KEY.slice(0, 2)}/${HELLO_KEY.slice(3)}`, `${HELLO_KEY.slice(0, 63)}g`, `${HELLO_KEY.slice(0, 63)}\0`,
        ` ${HELLO_KEY.slice(1)}`, 42, undefined, null,
      ];
      for (const key of bad) {
        for (const op of ['get', 'has', 'size', 'delete'] as const) {
          await assert.rejects(h.store[op](key as string), (e: unknown) => {
            assert.ok(e instanceof InvalidBlobKeyError, `${op}(${String(key)}) threw ${String(e)}`);
            assert.equal(e.code, 'BLOB_INVALID_KEY');
            return true;
          });
        }
      }
      await assert.rejects(h.store.get('../../etc/passwd'), {
        message: 'invalid blob key "../../etc/passwd": expected a sha256 digest as 64 lowercase hex characters',
      });
      await assert.rejects(h.store.get(7 as unknown as string), {
        message: 'invalid blob key (number): expected a sha256 digest as 64 lowercase hex characters',
      });
      assert.deepEqual(await h.listKeys(), []);
    });

    it('deletes an object (cache included); deleting an absent one is no error; a later put stores it again', async () => {
      const key = await h.store.put(text('hello'));
      const other = await h.store.put(text('other'));
      assert.ok(same(await h.store.get(key), text('hello'))); // now in the read cache, where there is one
      await h.store.delete(key);
      assert.equal(await h.store.has(key), false);
      assert.equal(await h.store.size(key), undefined);
      assert.equal(await h.store.get(key), undefined);
      assert.equal(await h.rawObject(key), undefined);
      assert.deepEqual(await h.listKeys(), [other]);
      await h.store.delete(key);
      assert.equal(await (await reopen()).has(key), false);
      assert.equal(await h.store.put(text('hello')), key);
      assert.ok(same(await (await reopen()).get(key), text('hello')));
      assert.deepEqual(await h.listKeys(), [key, other].sort());
    });

    it('handles 50 parallel puts of overlapping content', async () => {
      const contents = Array.from({ length: 10 }, (_, i) => randomBytes(1000 + i * 997));
      const keys = await Promise.all(Array.from({ length: 50 }, (_, i) => h.store.put(contents[i % 10]!)));
      assert.deepEqual(keys, Array.from({ length: 50 }, (_, i) => sha256(contents[i % 10]!)));
      assert.deepEqual(await h.listKeys(), contents.map(sha256).sort());
      const cold = await reopen();
      for (const content of contents) assert.ok(same(await cold.get(sha256(content)), content));
    });

    it('putAll stores a batch: keys in order, duplicates and stored objects once', async () => {
      const stored = await h.store.put(text('hello'));
      const batch = [text('one'), text('hello'), text('two'), text('one'), new Uint8Array(0)];
      const keys = await h.store.putAll(batch);
      assert.deepEqual(keys, batch.map(sha256));
      assert.equal(keys[1], stored);
      assert.deepEqual(await h.listKeys(), [...new Set(keys)].sort());
      const cold = await reopen();
      for (const bytes of batch) assert.ok(same(await cold.get(sha256(bytes)), bytes));
      assert.deepEqual(await h.store.putAll([]), []);
    });

    it('stores a 20 MiB blob', async () => {
      const big = randomBytes(20 * 1024 * 1024);
      const key = await h.store.put(big);
      assert.equal(key, sha256(big));
      assert.equal(await h.store.size(key), big.byteLength);
      assert.ok(same(await (await reopen()).get(key), big));
    });

    it('puts a stream under the hash of its concatenated chunks', async () => {
      async function* chunks() {
        yield text('hel');
        yield new Uint8Array(0);
        yield text('lo');
      }
      assert.equal(await h.store.putStream(chunks()), HELLO_KEY);
      assert.ok(same(await h.store.get(HELLO_KEY), text('hello')));
      assert.deepEqual(await h.listKeys(), [HELLO_KEY]);
    });

    it('passes a failing stream source through and stores nothing', async () => {
      const boom = new Error('source broke');
      async function* chunks() {
        yield text('partial');
        throw boom;
      }
      await assert.rejects(h.store.putStream(chunks()), (e) => e === boom);
      assert.deepEqual(await h.listKeys(), []);
    });
  });
}
