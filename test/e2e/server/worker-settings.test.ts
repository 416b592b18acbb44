// Workers get their settings as arguments from the supervisor (supervisor/pool/worker-process.ts)
// and read no environment: the QuickJS base-image cache lands under the *supervisor's* temp
// directory (TMPDIR honoured) although the worker's own environment is scrubbed. (The cancel fd,
// the other argument, is covered by test/e2e/pool/quickjs-hostile.test.ts: a cancel that stops a
// spinning QuickJS script without replacing the worker only arrives through it.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../rest/rest-harness.ts';
import { startServer } from './server-process.ts';

test('the QuickJS base image is cached under the supervisor TMPDIR, passed to the worker in its settings (init message)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-worker-settings-'));
  // A heap store makes the pool warm QuickJS, which builds and caches its base image.
  const server = await startServer(['--heap-store', 'dir', '--heap-dir', join(dir, 'heaps')], { env: { PATH: process.env['PATH'] ?? '', TMPDIR: dir } });
  try {
    const res = await fetch(`${server.base}/api/exec`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: '6 * 7' }) });
    assert.equal(res.status, 202);
    const { execution_id: id } = await res.json() as { execution_id: string };
    // The run can only start once the worker is ready, which is after the image was written.
    const done = await eventually('the run to finish', async () => await (await fetch(`${server.base}/api/executions/${id}`)).json() as Record<string, unknown>,
      (b) => b['status'] !== 'running');
    assert.deepEqual([done['status'], done['result']], ['completed', '42']);
    const cacheDir = `runjs-quickjs-${process.getuid?.() ?? 'user'}`;
    assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('runjs-quickjs-')), [cacheDir]);
    const files = readdirSync(join(dir, cacheDir));
    assert.equal(files.length, 1);
    assert.match(files[0]!, /^base-[0-9a-f]{32}\.img$/);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
