// The peer bench module in quick mode: both peers are measured beside runjs's trivial run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { metricProblem } from '../../../scripts/bench/bench-kit.ts';

const RUN = fileURLToPath(new URL('../../../scripts/bench/run.ts', import.meta.url));

test('run.ts --json --only peer. --quick reports a process per run and a bare isolate beside runjs', { timeout: 250_000 }, async () => {
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [RUN, '--json', '--only', 'peer.', '--quick'], { timeout: 240_000 }, (err, out, errOut) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout: out, stderr: errOut });
    });
  });
  assert.equal(code, 0, stderr);
  const metrics = (JSON.parse(stdout) as { metrics: { name: string; unit: string; peer?: { name: string } }[] }).metrics;
  assert.deepEqual(metrics.map((m) => [m.name, m.unit, m.peer?.name]), [
    ['peer.process_per_run_ms', 'ms', 'runjs_trivial_run'],
    ['peer.isolated_vm_bare_ms', 'ms', 'runjs_trivial_run'],
  ]);
  for (const m of metrics) assert.equal(metricProblem(m as never), undefined);
});
