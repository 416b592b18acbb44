// The fs bench module runs end to end in quick mode and reports both issue-15 metrics in shape
// (the figures themselves are not judged here, beyond "a one-line change stores a delta").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { metricProblem } from '../../../scripts/bench/bench-kit.ts';

const RUN = fileURLToPath(new URL('../../../scripts/bench/run.ts', import.meta.url));

test('run.ts --json --only fs. --quick reports the fs metrics', { timeout: 250_000 }, async () => {
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [RUN, '--json', '--only', 'fs.', '--quick'], { timeout: 240_000, maxBuffer: 16 << 20 }, (err, out, errOut) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout: out, stderr: errOut });
    });
  });
  assert.equal(code, 0, stderr);
  const metrics = (JSON.parse(stdout) as { metrics: { name: string; median: number }[] }).metrics;
  for (const m of metrics) assert.equal(metricProblem(m), undefined, JSON.stringify(m));
  assert.deepEqual(metrics.map((m) => m.name).sort(), ['fs.bytes_stored_per_small_change', 'fs.mount_run_small_ms']);
  const bytes = metrics.find((m) => m.name === 'fs.bytes_stored_per_small_change')!;
  assert.ok(bytes.median > 0 && bytes.median <= 8 * 1024, `a one-line edit stores a delta: ${bytes.median}`);
});
