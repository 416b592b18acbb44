// Peers (issue 18 deliverable 4): what other ways of running untrusted JavaScript cost on this
// machine, measured in the same rounds as runjs's own trivial run through the real pool:
//
//   peer.process_per_run_ms   a fresh `node` child per trivial script (`node -e "1 + 1"`, wait
//                             for its exit): what a naive sandbox does.
//   peer.isolated_vm_bare_ms  isolated-vm with nothing of runjs: create an isolate and a context,
//                             evaluate `1 + 1`, dispose.
//
// Each metric's median is the peer's own time; its `peer` field is runjs's trivial run through
// the pool (submit → outcome) in the same rounds, so `ratio` = that way / runjs's way.
//
// The subject is the in-process pool (engine.trivial_run_ms's quantity): REST and MCP add their
// own cost on top (rest.trivial_run_p50_ms reports it against the same pool).
import { spawn } from 'node:child_process';
import ivm from 'isolated-vm';
import { comparedMetric, roundRobin, type BenchOptions, type Metric } from './bench-kit.ts';
import { submit, V8_SERVICE_POOL, withPool } from './engine-bench.ts';

export const metricPrefixes = ['peer.'];

function processRun(): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', '1 + 1'], { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`node -e exited with ${code}`))));
  });
}

function bareIsolate(): number {
  const t0 = performance.now();
  const isolate = new ivm.Isolate({ memoryLimit: 8 });
  try {
    const context = isolate.createContextSync();
    if (context.evalSync('1 + 1') !== 2) throw new Error('bare isolate: wrong answer');
  } finally {
    isolate.dispose();
  }
  return performance.now() - t0;
}

export async function run(opts: BenchOptions): Promise<Metric[]> {
  const wantProcess = opts.wants('peer.process_per_run_ms');
  const wantIsolate = opts.wants('peer.isolated_vm_bare_ms');
  if (!wantProcess && !wantIsolate) return [];
  return withPool(2, async (pool) => {
    let i = 0;
    const runjs = async (): Promise<number> => {
      const t0 = performance.now();
      const o = await submit(pool, `${i++} + 1`).outcome;
      if (o.status !== 'completed') throw new Error(`trivial run ${o.status}`);
      return performance.now() - t0;
    };
    const contenders: Record<string, (round: number) => Promise<number> | number> = { runjs };
    if (wantProcess) contenders['process'] = processRun;
    if (wantIsolate) contenders['isolate'] = bareIsolate;
    const samples = await roundRobin(contenders, { warmup: opts.count(10, 1), rounds: opts.count(60, 3) });
    const out: Metric[] = [];
    const r = samples;
    if (wantProcess) out.push(comparedMetric('peer.process_per_run_ms', 'ms', r['process']!, 'runjs_trivial_run', r['runjs']!));
    if (wantIsolate) out.push(comparedMetric('peer.isolated_vm_bare_ms', 'ms', r['isolate']!, 'runjs_trivial_run', r['runjs']!));
    return out;
  }, 10_000, V8_SERVICE_POOL);
}
