// The Rego bench module in quick mode: it reports policy.rego_decision_p50_us, and the 20-rule
// allow-list it times decides as intended (the module refuses to report otherwise).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { metricProblem } from '../../../scripts/bench/bench-kit.ts';

const RUN = fileURLToPath(new URL('../../../scripts/bench/run.ts', import.meta.url));

test('run.ts --json --only policy. --quick reports the Rego and JavaScript-hook decision times', { timeout: 250_000 }, async () => {
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [RUN, '--json', '--only', 'policy.', '--quick'], { timeout: 240_000 }, (err, out, errOut) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout: out, stderr: errOut });
    });
  });
  assert.equal(code, 0, stderr);
  const metrics = (JSON.parse(stdout) as { metrics: { name: string; unit: string }[] }).metrics;
  assert.deepEqual(metrics.map((m) => [m.name, m.unit]).sort(), [['policy.js_hook_decision_p50_ms', 'ms'], ['policy.rego_decision_p50_us', 'us']]);
  for (const m of metrics) assert.equal(metricProblem(m), undefined);
});
