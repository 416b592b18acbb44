// Lazy reads end to end: a real server with an S3 filesystem store (a local S3 server) and a
// heap store, so its runs use QuickJS (V8 runs read lazily in fs-mount.test.ts, whose server has
// no heap store). The worker is sent the tree's structure and fetches contents over its object
// pipe; a file the run moved without reading goes back by id and is committed intact.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { api, openBackend, type Backend } from './fs-helpers.ts';

/** ~600 KB of distinct lines: stored as a chunk list (files over 256 KiB are chunked). */
const BIG = Array.from({ length: 20_000 }, (_, i) => `row ${i} ${(i * 7919) % 10007}\n`).join('');
const BIG_SHA = createHash('sha256').update(BIG).digest('hex');

let backend: Backend;
let server: ServerProcess;
let heapDir: string;
before(async () => {
  backend = await openBackend('s3');
  heapDir = mkdtempSync(join(tmpdir(), 'runjs-fs-lazy-heaps-'));
  server = await startServer([...backend.flags, '--heap-store', 'dir', '--heap-dir', heapDir], { env: backend.env });
});
after(async () => {
  await server?.stop();
  await backend?.close();
  rmSync(heapDir, { recursive: true, force: true });
});

async function exec(body: Record<string, unknown>): Promise<any> {
  const r = await api(server.base, 'POST', '/api/exec', body);
  assert.ok(r.status === 200 || r.status === 202, JSON.stringify(r));
  for (const until = Date.now() + 60_000; Date.now() < until;) {
    const got = await api(server.base, 'GET', `/api/executions/${r.json.execution_id}?wait_ms=10000`);
    if (got.json.status !== 'running') return got.json;
  }
  throw new Error(`execution ${r.json.execution_id} did not finish`);
}

test('runs read mounted files on demand from S3; an unread moved file keeps its content', async () => {
  const tree = await backend.commit({ 'a.txt': 'alpha\n', 'big.txt': BIG, 'dir/b.txt': 'bravo\n' });
  const first = await exec({
    session: 'lazy-1', fs: tree,
    code: `const fs = require('fs'); const big = fs.readFileSync('/work/big.txt'); fs.renameSync('/work/dir/b.txt', '/work/moved.txt'); fs.appendFileSync('/work/a.txt', 'again\\n'); [fs.readFileSync('/work/a.txt', 'utf8'), big.length, require('crypto').createHash('sha256').update(big).digest('hex')]`,
  });
  assert.equal(first.status, 'completed', JSON.stringify(first));
  assert.deepEqual(JSON.parse(first.result), ['alpha\nagain\n', BIG.length, BIG_SHA]);
  assert.equal(await backend.read(first.fs, 'moved.txt'), 'bravo\n');
  assert.equal(await backend.read(first.fs, 'dir/b.txt'), undefined);
  assert.equal(await backend.read(first.fs, 'big.txt'), BIG);
  const second = await exec({ fs: first.fs, code: `const fs = require('fs'); [fs.readFileSync('/work/moved.txt', 'utf8'), fs.statSync('/work/big.txt').size]` });
  assert.equal(second.status, 'completed', JSON.stringify(second));
  assert.deepEqual(JSON.parse(second.result), ['bravo\n', BIG.length]);
  assert.equal(second.fs, first.fs, 'nothing written: the same tree');
});
