// Workers that die before they are ready (a broken install, a crash at boot): the pool respawns
// them with a growing delay instead of a tight loop, and after a few deaths in a row it says so —
// ready() rejects with the worker's stderr, waiting and new runs fail instead of waiting forever.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkerPool, WorkerStartError } from '../../../supervisor/pool/worker-pool.ts';

let dir: string;
let entry: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'runjs-worker-start-'));
  entry = join(dir, 'crash-at-boot.mjs');
  writeFileSync(entry, "process.stderr.write('boot failed: cannot load the engine\\n');\nprocess.exit(3);\n");
});
after(() => rmSync(dir, { recursive: true, force: true }));

const EXPECTED = 'workers keep failing to start: 5 in a row, the last with exit code 3; its stderr: boot failed: cannot load the engine';

test('a worker that crashes at boot: ready() rejects with its stderr, queued and new runs fail', async () => {
  const logs: string[] = [];
  const pool = new WorkerPool({ size: 1, maxQueued: 10, log: (l) => logs.push(l), workerEntry: entry });
  try {
    const job = { code: '1', engine: 'v8' as const, heapMemoryMaxMb: 8, timeoutMs: 5000, maxOutputBytes: 1e6, onOutput: () => {} };
    const queued = pool.submit(job);
    await assert.rejects(pool.ready(), (e: unknown) => e instanceof WorkerStartError && e.message === EXPECTED);
    assert.deepEqual(await queued.outcome, { status: 'failed', error: `Worker process died during execution (${EXPECTED})` });
    assert.deepEqual(await pool.submit(job).outcome, { status: 'failed', error: `Worker process died during execution (${EXPECTED})` });
    assert.ok(logs.includes(`runjs: ${EXPECTED}; retrying every 0.8 s`), logs.join('\n'));
    // Five boots (a sixth if the 0.8 s retry came meanwhile), not hundreds: the deaths before the
    // limit were spaced 50, 100, 200, 400 ms apart.
    const boots = logs.filter((l) => l.endsWith('boot failed: cannot load the engine')).length;
    assert.ok(boots === 5 || boots === 6, `${boots} boots`);
  } finally {
    await pool.close();
  }
});

test('runs quote a failing worker\'s stderr without host directories; ready() and the log keep it whole', async () => {
  const leaky = join(dir, 'leaky-boot.mjs');
  writeFileSync(leaky, `process.stderr.write("Error: Cannot find module '${dir}/engine.ts'\\n");\nprocess.exit(3);\n`);
  const logs: string[] = [];
  const pool = new WorkerPool({ size: 1, maxQueued: 10, log: (l) => logs.push(l), workerEntry: leaky });
  try {
    const whole = `workers keep failing to start: 5 in a row, the last with exit code 3; its stderr: Error: Cannot find module '${dir}/engine.ts'`;
    const job = { code: '1', engine: 'v8' as const, heapMemoryMaxMb: 8, timeoutMs: 5000, maxOutputBytes: 1e6, onOutput: () => {} };
    const queued = pool.submit(job);
    await assert.rejects(pool.ready(), (e: unknown) => e instanceof WorkerStartError && e.message === whole);
    const quoted = `Worker process died during execution (${whole.replace(tmpdir(), '<host>')})`;
    assert.ok(!quoted.includes(tmpdir()));
    assert.deepEqual(await queued.outcome, { status: 'failed', error: quoted });
    assert.deepEqual(await pool.submit(job).outcome, { status: 'failed', error: quoted });
    assert.ok(logs.includes(`runjs: ${whole}; retrying every 0.8 s`), logs.join('\n'));
  } finally {
    await pool.close();
  }
});
