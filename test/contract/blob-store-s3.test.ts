// The s3 backend against a real S3-compatible server process (s3rver, test/helpers/s3-server.ts):
// the shared contract, then what only S3 has (the local read cache, outages, a missing bucket).
import { describe, it, before, after, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { blobStoreContract } from './blob-store-contract.ts';
import { startS3Server, type S3TestServer } from '../helpers/s3-server.ts';
import { BlobCache, BlobStoreUnavailableError, createBlobStore, S3BlobStore, type BlobListing, type BlobStore, type S3BlobStoreConfig } from '../../supervisor/stores/blob/index.ts';
import { cacheDirName } from '../../supervisor/stores/blob/create-blob-store.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const objectKey = (prefix: string, key: string) => `${prefix}${key.slice(0, 2)}/${key.slice(2)}`;

let server: S3TestServer;
let raw: S3Client;
let scratch: string;
let harnesses = 0;

before(async () => {
  server = await startS3Server();
  raw = new S3Client({
    endpoint: server.endpoint, forcePathStyle: true, region: 'us-east-1', credentials: server.credentials,
  });
  scratch = await mkdtemp(join(tmpdir(), 'runjs-blob-s3-'));
});
after(async () => {
  raw.destroy();
  await server.stop();
  await rm(scratch, { recursive: true, force: true });
});

type Options = S3BlobStoreConfig & { log?: (line: string) => void };

/** Options for a store on `srv` (the shared server by default); each call gets its own cache dir. */
async function options(prefix: string, extra: Partial<Options> = {}, srv = server): Promise<Options> {
  return {
    backend: 's3', s3Bucket: srv.bucket, s3Prefix: prefix, s3Endpoint: srv.endpoint, s3ForcePathStyle: true,
    s3Region: 'us-east-1', s3Credentials: srv.credentials,
    cacheDir: await mkdtemp(join(scratch, 'cache-')),
    ...extra,
  };
}

/** Server responses by method and status since the previous call. */
let last: Record<string, number> = {};
async function requestsSince(): Promise<Record<string, number>> {
  const now = await server.counts();
  const delta: Record<string, number> = {};
  for (const [response, n] of Object.entries(now)) if (n !== (last[response] ?? 0)) delta[response] = n - (last[response] ?? 0);
  last = now;
  return delta;
}

blobStoreContract('s3', async () => {
  // A fresh prefix per test keeps tests apart inside the one bucket.
  const prefix = `contract-${++harnesses}/`;
  const store = createBlobStore(await options(prefix));
  return {
    store,
    reopen: async () => createBlobStore(await options(prefix)),
    tamper: async (key, bytes) => {
      await raw.send(new PutObjectCommand({ Bucket: server.bucket, Key: objectKey(prefix, key), Body: bytes }));
    },
    rawObject: async (key) => {
      try {
        const object = await raw.send(new GetObjectCommand({ Bucket: server.bucket, Key: objectKey(prefix, key) }));
        return await object.Body!.transformToByteArray();
      } catch (e) {
        if ((e as Error).name === 'NoSuchKey') return undefined;
        throw e;
      }
    },
    listKeys: async () => {
      const listed = await raw.send(new ListObjectsV2Command({ Bucket: server.bucket, Prefix: prefix }));
      return (listed.Contents ?? []).map((o) => o.Key!.slice(prefix.length).replace(/^([0-9a-f]{2})\//, '$1')).sort();
    },
    close: () => store.close(),
  };
});

describe('s3 blob store: read cache', () => {
  let prefix: string;
  const stores: BlobStore[] = [];
  const open = async (extra: Partial<S3BlobStoreConfig> = {}) => {
    const store = createBlobStore(await options(prefix, extra));
    stores.push(store);
    return store;
  };
  beforeEach(async () => { prefix = `cache-${++harnesses}/`; await requestsSince(); });
  afterEach(async () => { for (const store of stores.splice(0)) await store.close(); });

  it('serves a second read from the cache without asking S3', async () => {
    const writer = await open();
    const bytes = randomBytes(10_000);
    const key = await writer.put(bytes);
    assert.deepEqual(await requestsSince(), { 'HEAD 404': 1, 'PUT 200': 1 });
    // Write-through: the writer's own reads, has and repeated puts never reach S3.
    assert.ok(Buffer.from((await writer.get(key))!).equals(bytes));
    assert.equal(await writer.has(key), true);
    assert.equal(await writer.put(bytes), key);
    assert.deepEqual(await requestsSince(), {});
    // A cold reader fetches once, then serves from its own cache.
    const reader = await open();
    assert.ok(Buffer.from((await reader.get(key))!).equals(bytes));
    assert.deepEqual(await requestsSince(), { 'GET 200': 1 });
    assert.ok(Buffer.from((await reader.get(key))!).equals(bytes));
    assert.deepEqual(await requestsSince(), {});
  });

  it('shares one download among concurrent reads of a key', async () => {
    const key = await (await open()).put(randomBytes(50_000));
    const reader = await open();
    await requestsSince();
    const results = await Promise.all(Array.from({ length: 20 }, () => reader.get(key)));
    assert.deepEqual(await requestsSince(), { 'GET 200': 1 });
    assert.equal(new Set(results.map((r) => sha256(r!))).size, 1);
    assert.equal(sha256(results[0]!), key);
  });

  for (const [what, bytes] of [['an object', randomBytes(1000)], ['the empty object', new Uint8Array(0)]] as const) {
    it(`skips the upload when ${what} is already in the bucket`, async () => {
      await (await open()).put(bytes);
      await requestsSince();
      await (await open()).put(bytes);
      assert.deepEqual(await requestsSince(), { 'HEAD 200': 1 });
    });
  }

  it('evicts least recently used entries beyond its byte cap', async () => {
    const store = await open({ cacheMaxBytes: 3000 });
    const [a, b, c, d] = Array.from({ length: 4 }, () => randomBytes(1000));
    const ka = await store.put(a!);
    const kb = await store.put(b!);
    await store.put(c!);
    await store.get(ka); // a is now the most recently used entry, b the least
    await store.put(d!); // 4000 bytes > 3000: exactly one entry, b, must go
    await requestsSince();
    for (const key of [ka, sha256(c!), sha256(d!)]) await store.get(key);
    assert.deepEqual(await requestsSince(), {});
    await store.get(kb);
    assert.deepEqual(await requestsSince(), { 'GET 200': 1 });
  });

  it('never caches a blob larger than the cap', async () => {
    const store = await open({ cacheMaxBytes: 3000 });
    const key = await store.put(randomBytes(4000));
    await requestsSince();
    await store.get(key);
    await store.get(key);
    assert.deepEqual(await requestsSince(), { 'GET 200': 2 });
  });

  it('verifies cache entries, refetching and repairing a corrupt one', async () => {
    const logged: string[] = [];
    const config = await options(prefix, { log: (line) => logged.push(line) });
    const store = createBlobStore(config);
    stores.push(store);
    const bytes = randomBytes(2000);
    const key = await store.put(bytes);
    const file = join(config.cacheDir!, cacheDirName(config), key.slice(0, 2), key.slice(2));
    await chmod(file, 0o644);
    await writeFile(file, randomBytes(2000));
    await requestsSince();
    assert.ok(Buffer.from((await store.get(key))!).equals(bytes));
    assert.deepEqual(await requestsSince(), { 'GET 200': 1 });
    assert.equal(logged.length, 1);
    assert.ok(logged[0]!.startsWith(`runjs: blob cache entry ${key} unusable, dropping it: blob ${key} in dir:`), logged[0]);
    assert.ok(Buffer.from((await store.get(key))!).equals(bytes));
    assert.deepEqual(await requestsSince(), {});
  });

  it('keeps its cache across a restart', async () => {
    const config = await options(prefix);
    const first = createBlobStore(config);
    const key = await first.put(randomBytes(3000));
    await first.close();
    const second = createBlobStore(config);
    stores.push(second);
    await requestsSince();
    assert.equal(sha256((await second.get(key))!), key);
    assert.deepEqual(await requestsSince(), {});
    assert.deepEqual(await readdir(join(config.cacheDir!, cacheDirName(config))), [key.slice(0, 2)]);
  });
});

describe('s3 blob store: conditional writes', () => {
  // A HEAD that misses an existing object (negative caching, or a racing writer) sends the PUT.
  let prefix: string;
  const stores: BlobStore[] = [];
  const open = async () => {
    const store = createBlobStore(await options(prefix));
    stores.push(store);
    return store;
  };
  const rawBytes = async (key: string) => {
    const object = await raw.send(new GetObjectCommand({ Bucket: server.bucket, Key: objectKey(prefix, key) }));
    return object.Body!.transformToByteArray();
  };
  beforeEach(async () => { prefix = `conditional-${++harnesses}/`; await requestsSince(); });
  afterEach(async () => {
    await server.configure({ conditionalWrites: 'ignore', staleHead: false });
    for (const store of stores.splice(0)) await store.close();
  });

  it('sends If-None-Match: * and treats 412 as already stored, leaving the object alone', async () => {
    await server.configure({ conditionalWrites: 'enforce', staleHead: true });
    const bytes = randomBytes(500);
    const key = await (await open()).put(bytes);
    const impostor = new TextEncoder().encode('impostor');
    await raw.send(new PutObjectCommand({ Bucket: server.bucket, Key: objectKey(prefix, key), Body: impostor }));
    await requestsSince();
    assert.equal(await (await open()).put(bytes), key);
    assert.deepEqual(await requestsSince(), { 'HEAD 404': 1, 'PUT 412': 1 });
    assert.deepEqual(await rawBytes(key), new Uint8Array(impostor));
  });

  it('falls back to plain PUTs, once, on a server that answers 501 to the header', async () => {
    await server.configure({ conditionalWrites: 'not-implemented', staleHead: false });
    const store = await open();
    const first = randomBytes(500);
    const second = randomBytes(500);
    assert.equal(await store.put(first), sha256(first));
    assert.deepEqual(await requestsSince(), { 'HEAD 404': 1, 'PUT 501': 1, 'PUT 200': 1 });
    assert.equal(await store.put(second), sha256(second));
    assert.deepEqual(await requestsSince(), { 'HEAD 404': 1, 'PUT 200': 1 });
    assert.equal(sha256(await rawBytes(sha256(first))), sha256(first));
  });
});

describe('s3 blob store: outages', () => {
  // Small timeouts so the bounds below are tight; the defaults are 3 s connect, 10 s idle, 3 attempts.
  const fast = { connectTimeoutMs: 500, idleTimeoutMs: 500, maxAttempts: 2 };
  const missing = sha256(new TextEncoder().encode('not there'));

  it('fails clearly and quickly when the server is gone, while cached reads keep working', async () => {
    const own = await startS3Server();
    const store = createBlobStore(await options('outage/', fast, own));
    try {
      const cachedKey = await store.put(new TextEncoder().encode('cached before the outage'));
      await own.stop();
      const location = `s3://${own.bucket}/outage/ at ${own.endpoint}`;
      for (const [op, attempt] of [
        ['reading', () => store.get(missing)],
        ['reading', () => store.has(missing)],
        ['writing', () => store.put(new TextEncoder().encode('after the outage'))],
      ] as const) {
        const t0 = performance.now();
        await assert.rejects(attempt(), (e: unknown) => {
          assert.ok(e instanceof BlobStoreUnavailableError);
          assert.equal(e.code, 'BLOB_STORE_UNAVAILABLE');
          assert.match(e.message, /^blob store unavailable: (reading|writing) blob [0-9a-f]{64} in /);
          assert.ok(e.message.startsWith(`blob store unavailable: ${op} blob `), e.message);
          assert.ok(e.message.includes(` in ${location}: `), e.message);
          assert.ok(e.message.includes('ECONNREFUSED'), e.message);
          return true;
        });
        assert.ok(performance.now() - t0 < 5_000, `took ${performance.now() - t0} ms`);
      }
      assert.equal(new TextDecoder().decode(await store.get(cachedKey)), 'cached before the outage');
    } finally {
      await store.close();
      await own.stop();
    }
  });

  it('gives up on a hung server within its timeouts, and recovers when it answers again', async () => {
    const own = await startS3Server();
    const store = createBlobStore(await options('hung/', fast, own));
    try {
      // The setup write uses default timeouts: on a loaded machine a healthy s3rver can pause
      // longer than the fast store's 500 ms, and only the frozen-server read is under test.
      const healthy = createBlobStore(await options('hung/', {}, own));
      const key = await healthy.put(new TextEncoder().encode('stored while healthy'));
      await healthy.close();
      own.freeze();
      const t0 = performance.now();
      await assert.rejects(store.get(missing), (e: unknown) => {
        assert.ok(e instanceof BlobStoreUnavailableError);
        assert.ok(e.message.startsWith(`blob store unavailable: reading blob ${missing} in s3://${own.bucket}/hung/`), e.message);
        return true;
      });
      const elapsed = performance.now() - t0;
      // Two attempts of at most ~500 ms each plus backoff; far below anything that looks like a hang.
      assert.ok(elapsed >= 400 && elapsed < 5_000, `took ${elapsed} ms`);
      own.thaw();
      assert.equal(await store.get(missing), undefined);
      const cold = createBlobStore(await options('hung/', fast, own));
      assert.equal(new TextDecoder().decode(await cold.get(key)), 'stored while healthy');
      await cold.close();
    } finally {
      own.thaw();
      await store.close();
      await own.stop();
    }
  });

  it('names a missing bucket', async () => {
    const store = createBlobStore(await options('x/', { ...fast, s3Bucket: 'no-such-bucket' }));
    try {
      await assert.rejects(store.put(new TextEncoder().encode('x')), (e: unknown) => {
        assert.ok(e instanceof BlobStoreUnavailableError);
        assert.equal(e.message, `blob store unavailable: writing blob ${sha256(new TextEncoder().encode('x'))} ` +
          `in s3://no-such-bucket/x/ at ${server.endpoint}: NoSuchBucket (HTTP 404): The specified bucket does not exist`);
        return true;
      });
    } finally {
      await store.close();
    }
  });

  it('requires a bucket', () => {
    assert.throws(() => createBlobStore({ backend: 's3', s3Bucket: '' }), {
      message: '--s3-bucket is required when a store is s3',
    });
  });
});

describe('s3 blob store: what garbage collection relies on', () => {
  /** A store whose clock runs two minutes ahead: every stored object looks older than refreshAfterMs. */
  async function sweepable(prefix: string, cache: boolean): Promise<S3BlobStore> {
    const o = await options(prefix);
    return new S3BlobStore({
      bucket: o.s3Bucket, prefix, endpoint: server.endpoint, forcePathStyle: true, region: 'us-east-1', credentials: server.credentials,
      refreshAfterMs: 60_000, now: () => Date.now() + 120_000,
      ...(cache ? { cache: new BlobCache({ dir: o.cacheDir!, maxBytes: 1 << 20, log: () => {} }) } : {}),
    });
  }

  async function listed(store: S3BlobStore): Promise<BlobListing[]> {
    const out: BlobListing[] = [];
    for await (const o of store.list()) out.push(o);
    return out;
  }

  it('lists its own objects, refreshes an old one a put re-uses, and deletes only what is older than the cutoff', async () => {
    const store = await sweepable('gc-a/', false);
    try {
      const bytes = new TextEncoder().encode('re-used content');
      const key = await store.put(bytes);
      await raw.send(new PutObjectCommand({ Bucket: server.bucket, Key: 'gc-a/not-an-object', Body: 'x' }));
      const [first] = await listed(store);
      assert.deepEqual([(await listed(store)).length, first?.key, first?.size], [1, key, bytes.length]);
      await new Promise((r) => setTimeout(r, 1100));
      await requestsSince();
      assert.equal(await store.put(bytes), key);
      // HEAD, then the same bytes written again (which sets LastModified on every server).
      assert.deepEqual(await requestsSince(), { 'HEAD 200': 1, 'PUT 200': 1 });
      const [second] = await listed(store);
      assert.ok(second!.modifiedMs > first!.modifiedMs, `${second!.modifiedMs} > ${first!.modifiedMs}`);
      assert.deepEqual(await store.get(key), bytes);
      assert.equal(await store.deleteIfOlder(key, second!.modifiedMs + 999), false);
      assert.equal(await store.has(key), true);
      assert.equal(await store.deleteIfOlder(key, second!.modifiedMs + 1000), true);
      assert.equal(await store.has(key), false);
      assert.equal(await store.deleteIfOlder(key, Date.now() + 3_600_000), false);
    } finally {
      await store.close();
    }
  });

  it('a re-using put asks the bucket, not the cache, so an object collected elsewhere is written again', async () => {
    const store = await sweepable('gc-b/', true);
    try {
      const bytes = new TextEncoder().encode('collected by another server');
      const key = await store.put(bytes);
      await raw.send(new DeleteObjectCommand({ Bucket: server.bucket, Key: objectKey('gc-b/', key) }));
      await store.put(bytes);
      const object = await raw.send(new GetObjectCommand({ Bucket: server.bucket, Key: objectKey('gc-b/', key) }));
      assert.equal(await object.Body?.transformToString(), 'collected by another server');
    } finally {
      await store.close();
    }
  });
});
