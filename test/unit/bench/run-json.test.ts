// `npm run bench -- --json` prints exactly one JSON document on stdout. Quick mode keeps the
// iteration counts tiny; the figures are not looked at, only the report's shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { metricProblem } from '../../../scripts/bench/bench-kit.ts';

const RUN = fileURLToPath(new URL('../../../scripts/bench/run.ts', import.meta.url));

function runBench(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [RUN, ...args], { timeout: 90_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr });
    });
  });
}

test('run.ts --json --only engine.trivial --quick prints one JSON document of well-formed metrics', async () => {
  const { code, stdout, stderr } = await runBench(['--json', '--only', 'engine.trivial', '--quick']);
  let report: unknown;
  assert.doesNotThrow(() => { report = JSON.parse(stdout); }, `stdout is not one JSON document:\n${stdout}\nstderr:\n${stderr}`);
  assert.equal(code, 0, stderr);
  assert.ok(typeof report === 'object' && report !== null && Array.isArray((report as { metrics?: unknown }).metrics), stdout);
  const metrics = (report as { metrics: unknown[] }).metrics;
  for (const m of metrics) assert.equal(metricProblem(m), undefined, JSON.stringify(m));
  const names = metrics.map((m) => (m as { name: string }).name);
  assert.ok(names.includes('engine.trivial_run_ms'), names.join(', '));
  assert.ok(names.every((n) => n.startsWith('engine.trivial')), `--only leaked other metrics: ${names.join(', ')}`);
  const trivial = metrics.find((m) => (m as { name: string }).name === 'engine.trivial_run_ms') as { unit: string; runs: number };
  assert.equal(trivial.unit, 'ms');
  assert.ok(trivial.runs > 0);
  assert.match(stderr, /bench engine-bench\.ts/, 'progress goes to stderr');
});

test('run.ts rejects unknown arguments without running anything', async () => {
  const { code, stdout, stderr } = await runBench(['--frobnicate']);
  assert.equal(code, 2);
  assert.equal(stdout, '');
  assert.match(stderr, /unknown argument '--frobnicate'/);
});

test('npm run bench -- --json: stdout is the JSON document alone (npm prints no banner there)', async () => {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile('npm', ['run', 'bench', '--', '--json', '--only', 'no-such-metric'], { cwd: root, timeout: 60_000 }, (err, out, errOut) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout: out, stderr: errOut });
    });
  });
  assert.equal(code, 0, stderr);
  assert.deepEqual(JSON.parse(stdout), { metrics: [] }, `stdout: ${JSON.stringify(stdout)}`);
});
