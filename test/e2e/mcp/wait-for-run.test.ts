// The waiting behind stateless run_js and tasks, over a real pool and service: the outcome when a
// run ends, the polling-timeout result (output so far, the spec's text) when it does not, and
// giving up on abort. The 300 s limit itself is the same code with a larger number.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkerPool } from '../../../supervisor/pool/worker-pool.ts';
import { openMetadataDb } from '../../../supervisor/stores/metadata-db.ts';
import { ExecutionService } from '../../../supervisor/executions/execution-service.ts';
import { EXECUTION_ERRORS } from '../../../shared/errors.ts';
import { WAIT_LIMIT_MS, waitForRun } from '../../../supervisor/mcp/wait-for-run.ts';

let dir: string;
let pool: WorkerPool;
let service: ExecutionService;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'runjs-wait-'));
  pool = new WorkerPool({ size: 1, maxQueued: 10, log: () => {} });
  await pool.ready();
  service = new ExecutionService({
    db: openMetadataDb(dir), pool, limits: { defaultTimeoutSecs: 30, defaultHeapMb: 8, maxHeapMb: 4096 },
    maxOutputBytes: 1 << 20, retention: 100, heapEnabled: false, fsEnabled: false,
  });
});
after(async () => {
  service.close();
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the spec bound: 6000 polls of 50 ms', () => {
  assert.equal(WAIT_LIMIT_MS, 6000 * 50);
});

test('a finished run: its status, all its output, and its error when it failed', async () => {
  const okId = service.submit({ code: 'console.log("a"); console.log("b")' });
  assert.deepEqual(await waitForRun(service, okId), { status: 'completed', output: 'a\nb\n' });
  const badId = service.submit({ code: 'console.log("a"); null.x' });
  const bad = await waitForRun(service, badId);
  assert.deepEqual([bad.status, bad.output], ['failed', 'a\n']);
  assert.match(String(bad.error), /^Uncaught TypeError/);
});

test('past the limit: the output so far and "Execution did not complete within polling timeout"', async () => {
  const id = service.submit({ code: 'console.log("early"); await new Promise((r) => setTimeout(r, 3000)); console.log("late")' });
  const outcome = await waitForRun(service, id, { limitMs: 600 });
  assert.deepEqual(outcome, { status: 'running', output: 'early\n', error: EXECUTION_ERRORS.POLLING_TIMEOUT });
  assert.deepEqual(service.cancel(id), { ok: true }, 'the run itself is left alone');
});

test('an abort gives up the wait with the abort reason', async () => {
  const id = service.submit({ code: 'await new Promise((r) => setTimeout(r, 3000))' });
  const abort = new AbortController();
  setTimeout(() => abort.abort(new Error('client went away')), 100);
  await assert.rejects(waitForRun(service, id, { signal: abort.signal }), /client went away/);
  service.cancel(id);
});
