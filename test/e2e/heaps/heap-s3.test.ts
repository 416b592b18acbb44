// Heap persistence on S3 (a real s3rver process): two server processes sharing one bucket, one
// with a local --cache-dir, continue each other's heaps; objects live under the heaps/ prefix.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { startS3Server, type S3TestServer } from '../../helpers/s3-server.ts';
import { runOnce, startServer, startServerPair } from '../server/server-process.ts';
import { CHECK, run, runFailed, SETUP } from './heap-helpers.ts';

let s3: S3TestServer;
let cacheDir: string;
before(async () => {
  s3 = await startS3Server('runjs-heaps');
  cacheDir = mkdtempSync(join(tmpdir(), 'runjs-heap-cache-'));
});
after(async () => {
  await s3.stop();
  rmSync(cacheDir, { recursive: true, force: true });
});

test('two servers on one bucket continue each other\'s heaps', async () => {
  const env = s3.serverEnv();
  const flags = s3.serverFlags();
  const [a, b] = await startServerPair([[...flags, '--cache-dir', cacheDir], { env }], [flags, { env }]);
  try {
    const first = await run(a.base, { code: SETUP });
    const cont = await run(b.base, { code: CHECK, heap: first.heap });
    assert.deepEqual(cont.value, ['hello', [1, 2, 3], 15, 42, 2, true, 'main', 2]);
    const back = await run(a.base, { code: '[nextSecret(), c.inc()]', heap: cont.heap });
    assert.deepEqual(back.value, [43, 3]);
    const info = await runFailed(b.base, { code: '1', heap: 'd'.repeat(64) });
    assert.equal(info.error, `cannot restore heap: heap ${'d'.repeat(64)} was not found in the heap store; it was never stored there, or the store was changed or cleaned`);
    // The bucket and endpoint are the operator's business: in the server log, not in the error.
    for (const secret of [s3.bucket, s3.endpoint]) assert.ok(!info.error.includes(secret), `${secret} in ${info.error}`);
    assert.ok(b.stderr().includes(`cannot restore heap ${'d'.repeat(64)} from s3://${s3.bucket}/heaps/ at ${s3.endpoint}: `), b.stderr());
    const client = new S3Client({ endpoint: s3.endpoint, forcePathStyle: true, region: 'us-east-1', credentials: s3.credentials });
    try {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
      const keys = (listed.Contents ?? []).map((o) => o.Key ?? '');
      assert.ok(keys.length >= 4, keys.join(','));
      assert.ok(keys.every((k) => k.startsWith('heaps/')), keys.join(','));
    } finally {
      client.destroy();
    }
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
});

test('a misconfigured heap bucket fails startup with a message naming the flags and environment', async () => {
  const env = s3.serverEnv();
  const flags = (bucket: string) => s3.serverFlags(bucket);
  const missing = await runOnce(flags('no-such-bucket'), env);
  assert.notEqual(missing.code, 0);
  assert.match(missing.stderr, new RegExp(`--heap-store s3: the heap bucket cannot be used: bucket 'no-such-bucket' does not exist\\. Checked bucket 'no-such-bucket' \\(--s3-bucket\\) at --s3-endpoint ${s3.endpoint.replace(/[.]/g, '\\.')} with --s3-force-path-style`));
  const { AWS_REGION: _region, ...noRegion } = env;
  const regionless = await runOnce(flags(s3.bucket), noRegion);
  assert.notEqual(regionless.code, 0);
  assert.match(regionless.stderr, /--heap-store s3: the heap bucket cannot be used: no AWS region configured: set AWS_REGION/);
  assert.doesNotMatch(regionless.stderr, /listening/);
});

test('an S3 outage fails runs that need the store with the store\'s error; the server keeps serving', async () => {
  const down = await startS3Server('runjs-outage');
  const env = down.serverEnv();
  let s3Up = true;
  const server = await startServer(down.serverFlags(), { env });
  try {
    const first = await run(server.base, { code: 'globalThis.n = 1; n' });
    s3Up = false;
    await down.stop(); // connections refused from now on
    const step = await runFailed(server.base, { code: 'n + 1', heap: first.heap });
    assert.equal(step.error, 'the run completed but its heap could not be stored: blob store unavailable (the server log has the details)');
    const cold = await runFailed(server.base, { code: '1', heap: 'c'.repeat(64) });
    assert.equal(cold.error, 'cannot restore heap: blob store unavailable (the server log has the details)');
    // Where the store is shows in the server log only.
    assert.ok(server.stderr().includes(`execution ${step.execution_id}: storing its heap in s3://${down.bucket}/heaps/ at ${down.endpoint} failed: blob store unavailable: `), server.stderr());
    assert.ok(server.stderr().includes(`execution ${cold.execution_id}: cannot restore heap ${'c'.repeat(64)} from s3://${down.bucket}/heaps/ at ${down.endpoint}: blob store unavailable: reading blob ${'c'.repeat(64)}`), server.stderr());
    const caps = await fetch(`${server.base}/api/capabilities`);
    assert.equal(caps.status, 200, 'the server itself is unaffected');
  } finally {
    await server.stop();
    if (s3Up) await down.stop();
  }
});
