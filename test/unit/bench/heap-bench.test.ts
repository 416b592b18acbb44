// The heap bench module runs end to end in quick mode and reports every issue-5 metric in shape
// (the figures themselves are not judged here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { metricProblem } from '../../../scripts/bench/bench-kit.ts';

const RUN = fileURLToPath(new URL('../../../scripts/bench/run.ts', import.meta.url));

test('run.ts --json --only heap. --quick reports the heap metrics', { timeout: 250_000 }, async () => {
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [RUN, '--json', '--only', 'heap.', '--quick'], { timeout: 240_000, maxBuffer: 16 << 20 }, (err, out, errOut) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout: out, stderr: errOut });
    });
  });
  assert.equal(code, 0, stderr);
  const metrics = (JSON.parse(stdout) as { metrics: { name: string; median: number }[] }).metrics;
  for (const m of metrics) assert.equal(metricProblem(m), undefined, JSON.stringify(m));
  assert.deepEqual(metrics.map((m) => m.name).sort(), [
    'heap.bytes_written_mean_per_step', 'heap.bytes_written_per_small_step', 'heap.fork_fanout_100_ms',
    'heap.fresh_run_bytes_written', 'heap.growing_step_p50_ms', 'heap.parallel_speedup', 'heap.stateful_step_p50_ms',
  ]);
  const perStep = metrics.find((m) => m.name === 'heap.bytes_written_per_small_step')!;
  assert.ok(perStep.median > 0 && perStep.median < 64 * 1024, `a small step writes a delta, not an image: ${perStep.median}`);
  const fresh = metrics.find((m) => m.name === 'heap.fresh_run_bytes_written')!;
  assert.ok(fresh.median > 0 && fresh.median < 64 * 1024, `a fresh run writes a delta against the base image: ${fresh.median}`);
});
