// Artifacts on S3 (a real s3rver process): with --heap-store s3 a script's artifact and a REST
// upload land in the bucket under `artifacts/`, come back byte-identical over REST and MCP, and
// nothing is written to the local <session-db-path>/blobs directory. On a shared prefix an
// overwritten or deleted payload is kept (another server may hold the same content).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startS3Server, type S3TestServer } from '../../helpers/s3-server.ts';
import { startServer } from '../server/server-process.ts';
import { httpClient } from '../mcp/mcp-clients.ts';

let s3: S3TestServer;
before(async () => { s3 = await startS3Server('runjs-artifacts'); });
after(async () => { await s3.stop(); });

const objectKey = (content: Uint8Array) => {
  const h = createHash('sha256').update(content).digest('hex');
  return `artifacts/${h.slice(0, 2)}/${h.slice(2)}`;
};

test('artifacts go to the bucket under artifacts/, not to the local blobs directory', async () => {
  const env = s3.serverEnv();
  const server = await startServer(s3.serverFlags(), { env });
  const client = await httpClient(server.base);
  const raw = new S3Client({ endpoint: s3.endpoint, forcePathStyle: true, region: 'us-east-1', credentials: s3.credentials });
  try {
    const emitted = new Uint8Array([0, 1, 2, 250, 251, 252]);
    const res = await client.callTool({ name: 'run_js', arguments: { code: `await artifact('from-script.bin', 'application/octet-stream', new Uint8Array(${JSON.stringify([...emitted])}))` } }) as CallToolResult;
    assert.notEqual(res.isError, true, JSON.stringify(res));
    // run_js is asynchronous in stateful mode: wait for the execution to finish.
    const id = (res.structuredContent as { execution_id: string }).execution_id;
    for (;;) {
      const info = await (await fetch(`${server.base}/api/executions/${id}`)).json() as { status: string };
      if (info.status !== 'running') { assert.equal(info.status, 'completed'); break; }
      await new Promise((r) => setTimeout(r, 20));
    }
    const uploaded = new TextEncoder().encode('uploaded over REST to S3');
    const put = await fetch(`${server.base}/api/artifacts/uploaded.txt`, { method: 'PUT', headers: { 'Content-Type': 'text/plain' }, body: uploaded });
    assert.equal(put.status, 200);
    assert.equal(((await put.json()) as { size_bytes: number }).size_bytes, uploaded.byteLength);

    const script = await fetch(`${server.base}/api/artifacts/from-script.bin`);
    assert.equal(script.status, 200);
    assert.deepEqual(new Uint8Array(await script.arrayBuffer()), emitted);
    const text = await fetch(`${server.base}/api/artifacts/uploaded.txt`);
    assert.equal(text.headers.get('content-type'), 'text/plain');
    assert.equal(await text.text(), 'uploaded over REST to S3');
    const got = await client.callTool({ name: 'get_artifact', arguments: { key: 'uploaded.txt' } }) as CallToolResult;
    assert.deepEqual(got.content[1], { type: 'text', text: 'uploaded over REST to S3' });

    const list = async (prefix?: string) => ((await raw.send(new ListObjectsV2Command({ Bucket: s3.bucket, ...(prefix === undefined ? {} : { Prefix: prefix }) }))).Contents ?? []).map((o) => o.Key ?? '').sort();
    assert.deepEqual(await list('artifacts/'), [objectKey(emitted), objectKey(uploaded)].sort());
    // The rest of the bucket is the run's heap image (stateful run_js).
    const all = await list();
    assert.ok(all.every((k) => k.startsWith('artifacts/') || k.startsWith('heaps/')), all.join(','));
    assert.equal(existsSync(join(server.dbDir, 'blobs')), false);

    // Shared prefix: deleting the artifact keeps the object (another server may reference it).
    assert.equal((await fetch(`${server.base}/api/artifacts/uploaded.txt`, { method: 'DELETE' })).status, 200);
    assert.equal((await fetch(`${server.base}/api/artifacts/uploaded.txt`)).status, 404);
    assert.deepEqual(await list('artifacts/'), [objectKey(emitted), objectKey(uploaded)].sort());
  } finally {
    raw.destroy();
    await client.close();
    assert.equal(await server.stop(), 0);
  }
});
