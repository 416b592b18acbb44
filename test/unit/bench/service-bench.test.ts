// The service bench module (issue 3 targets) runs end to end in quick mode against the real
// server as a child process and reports every metric in shape; the figures are not judged. It
// also leaves no server or worker process behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { metricProblem, type Metric } from '../../../scripts/bench/bench-kit.ts';

const RUN = fileURLToPath(new URL('../../../scripts/bench/run.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '');

/**
 * Processes of this checkout (their working directory is the repository root, as the bench's
 * servers and their workers have) whose command line mentions `needle`: servers the bench may
 * have left running. Other checkouts' test runs on the same machine are not ours to count.
 */
function processesWith(needle: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(needle) && readlinkSync(`/proc/${name}/cwd`) === ROOT) out.push(Number(name));
    } catch { /* gone */ }
  }
  return out;
}

test('run.ts --json --only rest.,mcp.stateless,server. --quick reports the service metrics', { timeout: 250_000 }, async () => {
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [RUN, '--json', '--only', 'rest.,mcp.stateless,server.', '--quick'], { timeout: 240_000, maxBuffer: 16 << 20 }, (err, out, errOut) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout: out, stderr: errOut });
    });
  });
  assert.equal(code, 0, stderr);
  const metrics = (JSON.parse(stdout) as { metrics: Metric[] }).metrics;
  for (const m of metrics) assert.equal(metricProblem(m), undefined, JSON.stringify(m));
  assert.deepEqual(metrics.map((m) => m.name).sort(), [
    'mcp.stateless_run_js_p50_ms', 'rest.throughput_polling_per_s', 'rest.throughput_trivial_per_s', 'rest.trivial_run_p50_ms',
    'rest.trivial_run_polling_p50_ms', 'server.idle_pss_mb', 'server.idle_rss_mb', 'server.rss_after_load_mb',
  ]);
  const byName = new Map(metrics.map((m) => [m.name, m]));
  for (const name of ['rest.trivial_run_p50_ms', 'rest.trivial_run_polling_p50_ms', 'mcp.stateless_run_js_p50_ms']) {
    const m = byName.get(name)!;
    assert.equal(m.unit, 'ms');
    assert.ok(m.runs > 0 && m.median > 0, JSON.stringify(m));
    assert.equal(m.peer?.name, 'engine.trivial_run_ms', 'the in-process pool is the peer');
    assert.ok(m.ratio !== undefined && m.ratio > 0, JSON.stringify(m));
  }
  const throughput = byName.get('rest.throughput_trivial_per_s')!;
  assert.equal(throughput.unit, 'runs/s');
  assert.ok(throughput.median > 0 && throughput.peer !== undefined, JSON.stringify(throughput));
  const idle = byName.get('server.idle_rss_mb')!;
  assert.equal(idle.unit, 'MB');
  // A supervisor and two workers are each tens of MB at least: the whole tree was counted.
  assert.ok(idle.median > 60, `the supervisor and its workers: ${idle.median} MB`);
  assert.match(stderr, /worker\/main\.ts .*worker\/main\.ts/, 'the memory breakdown names both workers');
  // Every server the bench started is gone (their --session-db-path dirs are named runjs-service-bench-).
  assert.deepEqual(processesWith('runjs-service-bench-'), [], 'no bench server left running');
});

test('a bench ended by SIGTERM (a harness timeout) stops its servers before it exits', { timeout: 90_000 }, async () => {
  const bench = spawn(process.execPath, [RUN, '--json', '--only', 'rest.trivial_run_p50', '--quick'], { stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => bench.once('exit', (code) => resolve(code)));
  let stderr = '';
  bench.stderr.setEncoding('utf8');
  // The server is up once the bench names it; then the harness gives up on the bench.
  await new Promise<void>((resolve, reject) => {
    bench.stderr.on('data', (chunk: string) => { stderr += chunk; if (/server pid \d+/.test(stderr)) resolve(); });
    void exited.then((code) => reject(new Error(`the bench exited (${code}) before it started a server:\n${stderr}`)));
  });
  const server = Number(/server pid (\d+)/.exec(stderr)![1]);
  bench.kill('SIGTERM');
  assert.equal(await exited, 143);
  assert.deepEqual(processesWith('runjs-service-bench-'), [], 'no bench server left running');
  assert.throws(() => process.kill(server, 0), { code: 'ESRCH' }, 'the server process is gone');
});
