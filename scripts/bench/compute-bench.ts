// The compute suite through our V8 engine versus plain V8 in this process (issue 2 §7).
// Guest time only: each script times its own workload with Date.now() and returns it, so pool,
// transpile and realm overheads are excluded. Round-robin rounds pair one engine run with one
// plain run; the ratio is computed per round, then the median is taken.
//
// A third contender runs the same function in a fresh Node worker_thread: plain V8 too, but in a
// new isolate rather than this process's main one. Some workloads run markedly faster in a
// process's main isolate than in any later isolate, runjs or not; `ratio_vs_fresh_isolate`
// separates that from runjs's own overhead (docs/benchmarks.md).
import { Worker } from 'node:worker_threads';
import { comparedMetric, medianRatio, roundFigure, roundRobin, type BenchOptions, type Metric } from './bench-kit.ts';
import { COMPUTE_SUITE, guestScript, plainFunction, plainSource, type ComputeBench, type ComputeTiming } from './compute-suite.ts';
import { submit, V8_SERVICE_POOL, withPool } from './engine-bench.ts';
import type { WorkerPool } from '../../supervisor/pool/worker-pool.ts';

export const metricPrefixes = ['compute.'];

/** The peers' names in reports. */
export const PLAIN_V8 = 'plain_v8';
export const FRESH_ISOLATE = 'fresh_isolate';

const WORKER_SOURCE = `const { parentPort, workerData } = require('node:worker_threads');
parentPort.postMessage(new Function(workerData)());`;

/** Runs `bench` as plain V8 in a new worker_thread (a fresh isolate with Node's defaults) and returns its own timing. */
export async function freshIsolateTiming(bench: ComputeBench, salt: string): Promise<ComputeTiming> {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: plainSource(bench, salt) });
  try {
    return await new Promise<ComputeTiming>((resolve, reject) => {
      worker.once('message', (m: ComputeTiming) => resolve(m));
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`compute.${bench.name}: worker_thread exited with code ${code} before reporting`)));
    });
  } finally {
    await worker.terminate();
  }
}

function parseTiming(result: string, what: string): ComputeTiming {
  const v: unknown = JSON.parse(result);
  if (typeof v !== 'object' || v === null || typeof (v as { ms?: unknown }).ms !== 'number') throw new Error(`${what}: unexpected result ${result.slice(0, 200)}`);
  return v as ComputeTiming;
}

/** Runs `bench` once in the engine (a fresh isolate, as every execution gets) and returns its own timing. */
export async function engineTiming(pool: WorkerPool, bench: ComputeBench, salt: string): Promise<ComputeTiming> {
  const outcome = await submit(pool, guestScript(bench, salt), { heapMemoryMaxMb: bench.heapMb, timeoutMs: 120_000 }).outcome;
  if (outcome.status !== 'completed') throw new Error(`compute.${bench.name}: ${outcome.status}: ${outcome.error}`);
  return parseTiming(outcome.result, `compute.${bench.name}`);
}

export async function run(opts: BenchOptions): Promise<Metric[]> {
  const out: Metric[] = [];
  const benches = COMPUTE_SUITE.filter((b) => opts.wantsGroup(`compute.${b.name}.`));
  if (benches.length === 0) return out;
  await withPool(1, async (pool) => {
    for (const bench of benches) {
      let expected: string | undefined;
      const check = (side: string, t: ComputeTiming): number => {
        const c = JSON.stringify(t.check);
        expected ??= c;
        if (c !== expected) throw new Error(`compute.${bench.name}: ${side} computed ${c}, expected ${expected}`);
        return t.ms;
      };
      const samples = await roundRobin({
        engine: async (round) => check('engine', await engineTiming(pool, bench, `round ${round}`)),
        [PLAIN_V8]: (round) => check(PLAIN_V8, plainFunction(bench, `round ${round}`)()),
        [FRESH_ISOLATE]: async (round) => check(FRESH_ISOLATE, await freshIsolateTiming(bench, `round ${round}`)),
      }, { warmup: opts.count(1, 0), rounds: opts.count(7, 1) });
      const engine = samples.engine;
      const plain = samples[PLAIN_V8];
      const fresh = samples[FRESH_ISOLATE];
      const ratio = medianRatio(engine, plain);
      opts.log(`  compute.${bench.name}: engine ${engine.join(' ')} ms | plain ${plain.join(' ')} ms | fresh isolate ${fresh.join(' ')} ms | ratio ${roundFigure(ratio)}`);
      out.push({ name: `compute.${bench.name}.ratio_vs_v8`, median: roundFigure(ratio), unit: 'x', runs: engine.length });
      out.push(comparedMetric(`compute.${bench.name}.v8_ms`, 'ms', engine, PLAIN_V8, plain));
      out.push({ name: `compute.${bench.name}.ratio_vs_fresh_isolate`, median: roundFigure(medianRatio(engine, fresh)), unit: 'x', runs: engine.length });
    }
  }, undefined, V8_SERVICE_POOL);
  return out;
}
