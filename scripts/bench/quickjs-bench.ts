// The QuickJS engine (issue 4 targets): boot from the base image, restore + run + snapshot of a
// small heap, a trivial run through the pool, the base image's size, cancel latency through the
// side channel, and the compute suite against plain V8 and against bare QuickJS (the same wasm
// with a fresh context and nothing of ours: no prelude, no bridge, no interrupt handler).
//
// Boot and restore are measured in this process on the engine the worker uses (the realm work
// is the same; there is no IPC in those figures); everything else goes through real workers.
import { randomUUID } from 'node:crypto';
import type { WorkerPool } from '../../supervisor/pool/worker-pool.ts';
import type { HeapImage } from '../../shared/heap-image.ts';
import type { EngineName, Outcome } from '../../shared/protocol.ts';
import type { HostCall } from '../../worker/engine.ts';
import { QuickJSEngine, maxStackBytes } from '../../worker/engines/quickjs/quickjs-engine.ts';
import { loadQuickJSBinary } from '../../worker/engines/quickjs/quickjs-binary.ts';
import { WasmVm, MIN_PAGES } from '../../worker/engines/quickjs/wasm-vm.ts';
import { EVAL_GLOBAL } from '../../worker/engines/quickjs/raw-ffi.ts';
import { RunLoop } from '../../worker/runtime/execute-run.ts';
import { createOps } from '../../worker/ops/capabilities.ts';
import { TEST_WORKER_SETTINGS } from '../../test/helpers/worker-settings.ts';

const OPS = createOps(TEST_WORKER_SETTINGS);
import { comparedMetric, medianRatio, metric, roundFigure, roundRobin, sampleLoop, sleep, timeLoop, type BenchOptions, type Metric } from './bench-kit.ts';
import { COMPUTE_SUITE, guestScript, plainFunction, type ComputeBench, type ComputeTiming } from './compute-suite.ts';
import { withPool } from './engine-bench.ts';

export const metricPrefixes = ['quickjs.', 'compute.'];

function submit(pool: WorkerPool, code: string, engine: EngineName, o: { heapMemoryMaxMb?: number; timeoutMs?: number; onOutput?: () => void } = {}) {
  return pool.submit({
    code, engine, heapMemoryMaxMb: o.heapMemoryMaxMb ?? 8, timeoutMs: o.timeoutMs ?? 60_000, maxOutputBytes: 1 << 20, onOutput: o.onOutput ?? (() => {}),
  });
}

async function expectResult(outcome: Promise<Outcome>, result: string, what: string): Promise<void> {
  const o = await outcome;
  if (o.status !== 'completed' || o.result !== result) throw new Error(`${what}: expected ${result}, got ${JSON.stringify(o)}`);
}

// --- in-process engine: boot and restore ---

async function engineMetrics(opts: BenchOptions): Promise<Metric[]> {
  const out: Metric[] = [];
  const engine = new QuickJSEngine();
  await engine.warmUp();
  let current: HostCall = () => 'v';
  const hostCall: HostCall = (op, args, bytes) => current(op, args, bytes);
  /** Runs `code` in a realm booted from `image` (or the base image); returns the realm, not yet disposed. */
  const runIn = async (image: HeapImage | undefined, code: string) => {
    const loop = new RunLoop({ runId: 'bench', code, timeoutMs: 10_000 }, OPS, new Map(), { output: () => {} });
    const realm = await engine.createRealm({ memoryLimitMb: 8, hostCall, ...(image ? { image } : {}) });
    current = loop.hostCall;
    const outcome = await loop.run(realm);
    if (outcome.status !== 'completed') throw new Error(`quickjs bench run: ${JSON.stringify(outcome)}`);
    return realm;
  };

  if (opts.wants('quickjs.base_image_bytes')) {
    out.push({ name: 'quickjs.base_image_bytes', median: engine.baseImage.bytes.byteLength, unit: 'bytes', runs: 1 });
  }
  if (opts.wants('quickjs.boot_from_base_image_ms')) {
    opts.log('  quickjs.boot_from_base_image_ms: after a small script ran, reset the VM to the base image in place and boot a realm (reseeded)');
    const samples = await sampleLoop(async (i) => {
      const used = await runIn(undefined, `globalThis.junk = Array.from({ length: 2000 }, (_, k) => ({ k, s: 'x${i}-' + k })); 1`);
      const t0 = performance.now();
      used.dispose(); // restores the base image over the VM
      const next = await engine.createRealm({ memoryLimitMb: 8, hostCall }); // reseeds Math.random
      const ms = performance.now() - t0;
      next.dispose();
      return ms;
    }, { warmup: opts.count(20, 2), iterations: opts.count(200, 5) });
    out.push(metric('quickjs.boot_from_base_image_ms', 'ms', samples));
  }
  if (opts.wants('quickjs.restore_run_snapshot_ms')) {
    opts.log('  quickjs.restore_run_snapshot_ms: restore a small heap image, run a step of it, snapshot the result');
    const first = await runIn(undefined, 'globalThis.state = { count: 0, todos: [] as string[] }; globalThis.add = (t: string) => { state.todos.push(t); return ++state.count }; 0');
    let image = first.snapshot!();
    first.dispose();
    const samples = await timeLoop(async (i) => {
      const realm = await runIn(image, `add("todo ${i}")`);
      image = realm.snapshot!();
      realm.dispose();
    }, { warmup: opts.count(20, 2), iterations: opts.count(200, 5) });
    out.push(metric('quickjs.restore_run_snapshot_ms', 'ms', samples));
    out.push({ name: 'quickjs.small_heap_image_bytes', median: image.bytes.byteLength, unit: 'bytes', runs: 1 });
  }
  return out;
}

// --- through the pool ---

async function poolMetrics(opts: BenchOptions): Promise<Metric[]> {
  const out: Metric[] = [];
  await withPool(1, async (pool) => {
    if (opts.wants('quickjs.trivial_run_ms')) {
      opts.log('  quickjs.trivial_run_ms: trivial runs through the pool, QuickJS vs V8 round-robin');
      const run = (engine: EngineName) => async (i: number): Promise<number> => {
        const t0 = performance.now();
        await expectResult(submit(pool, `${i} + 1`, engine).outcome, String(i + 1), `${engine} trivial run`);
        return performance.now() - t0;
      };
      let n = 0;
      const samples = await roundRobin({ quickjs: () => run('quickjs')(n++), v8: () => run('v8')(n++) }, { warmup: opts.count(30, 2), rounds: opts.count(200, 5) });
      out.push(comparedMetric('quickjs.trivial_run_ms', 'ms', samples.quickjs, 'v8', samples.v8));
    }
    if (opts.wants('quickjs.cancel_spinning_ms')) {
      opts.log('  quickjs.cancel_spinning_ms: cancel a script spinning in QuickJS → the next run starts on the freed worker');
      const samples = await sampleLoop(async (i) => {
        let seen!: () => void;
        const started = new Promise<void>((r) => { seen = r; });
        const busy = submit(pool, 'console.log("spin"); while (true) {}', 'quickjs', { onOutput: () => seen() });
        await started;
        await sleep(20);
        let startedAt = Number.NaN;
        const t0 = performance.now();
        busy.cancel();
        const next = pool.submit({ code: `${i}`, engine: 'quickjs', heapMemoryMaxMb: 8, timeoutMs: 10_000, maxOutputBytes: 1024, onOutput: () => {}, onStart: () => { startedAt = performance.now(); } });
        await expectResult(next.outcome, String(i), 'run after cancel');
        return startedAt - t0;
      }, { warmup: opts.count(3, 1), iterations: opts.count(30, 3) });
      out.push(metric('quickjs.cancel_spinning_ms', 'ms', samples));
    }
  });
  return out;
}

// --- the compute suite: QuickJS engine vs plain V8 vs bare QuickJS ---

function timing(text: string, what: string): ComputeTiming {
  const v: unknown = JSON.parse(text);
  if (typeof v !== 'object' || v === null || typeof (v as { ms?: unknown }).ms !== 'number') throw new Error(`${what}: unexpected result ${text.slice(0, 200)}`);
  return v as ComputeTiming;
}

/** The bench in a fresh bare QuickJS context: same wasm, nothing of runjs's. */
async function bareTiming(bench: ComputeBench, salt: string): Promise<ComputeTiming> {
  const binary = await loadQuickJSBinary();
  const vm = await WasmVm.create(binary, MIN_PAGES + bench.heapMb * 16);
  const rt = vm.ffi.QTS_NewRuntime();
  const ctx = vm.ffi.QTS_NewContext(rt, 0);
  vm.ffi.QTS_RuntimeSetMaxStackSize(rt, maxStackBytes());
  const r = vm.evaluate(ctx, `${guestScript(bench, salt)};JSON.stringify({ ms: __ms, check: __check })`, 'bare.js', EVAL_GLOBAL);
  const text = vm.getString(ctx, r);
  if (vm.isException(r)) throw new Error(`bare QuickJS ${bench.name} failed`);
  return timing(text, `bare ${bench.name}`);
}

async function computeMetrics(opts: BenchOptions): Promise<Metric[]> {
  const out: Metric[] = [];
  const benches = COMPUTE_SUITE.filter((b) => ['quickjs_ratio_vs_v8', 'quickjs_ratio_vs_bare', 'quickjs_ms'].some((m) => opts.wants(`compute.${b.name}.${m}`)));
  if (benches.length === 0) return out;
  // Tier this process's copy of the wasm up too, as the worker does at start, so the bare
  // contender is not measured on cold code.
  await new QuickJSEngine().warmUp();
  await withPool(1, async (pool) => {
    for (const bench of benches) {
      let expected: string | undefined;
      const check = (side: string, t: ComputeTiming): number => {
        const c = JSON.stringify(t.check);
        expected ??= c;
        if (c !== expected) throw new Error(`compute.${bench.name}: ${side} computed ${c}, expected ${expected}`);
        return t.ms;
      };
      const engineRun = async (salt: string): Promise<ComputeTiming> => {
        const o = await submit(pool, guestScript(bench, salt), 'quickjs', { heapMemoryMaxMb: bench.heapMb, timeoutMs: 300_000 }).outcome;
        if (o.status !== 'completed') throw new Error(`compute.${bench.name} on QuickJS: ${o.status}: ${o.error}`);
        return timing(o.result, `compute.${bench.name}`);
      };
      const salt = randomUUID();
      const samples = await roundRobin({
        quickjs: async (round) => check('quickjs', await engineRun(`${salt} ${round}`)),
        bare: async (round) => check('bare', await bareTiming(bench, `${salt} ${round}`)),
        v8: (round) => check('v8', plainFunction(bench, `${salt} ${round}`)()),
      }, { warmup: opts.count(1, 0), rounds: opts.count(5, 1) });
      opts.log(`  compute.${bench.name}: quickjs ${samples.quickjs.join(' ')} | bare ${samples.bare.join(' ')} | v8 ${samples.v8.join(' ')} ms`);
      // Ratios are medians of per-round ratios (rounds share the machine's state); unit "x".
      const ratio = (name: string, peer: number[]): Metric => ({ name, median: roundFigure(medianRatio(samples.quickjs, peer)), unit: 'x', runs: peer.length });
      if (opts.wants(`compute.${bench.name}.quickjs_ratio_vs_v8`)) out.push(ratio(`compute.${bench.name}.quickjs_ratio_vs_v8`, samples.v8));
      if (opts.wants(`compute.${bench.name}.quickjs_ratio_vs_bare`)) out.push(ratio(`compute.${bench.name}.quickjs_ratio_vs_bare`, samples.bare));
      if (opts.wants(`compute.${bench.name}.quickjs_ms`)) out.push(comparedMetric(`compute.${bench.name}.quickjs_ms`, 'ms', samples.quickjs, 'bare_quickjs', samples.bare));
    }
  });
  return out;
}

export async function run(opts: BenchOptions): Promise<Metric[]> {
  const out: Metric[] = [];
  if (opts.wantsGroup('quickjs.')) {
    out.push(...await engineMetrics(opts));
    out.push(...await poolMetrics(opts));
  }
  if (opts.wantsGroup('compute.')) out.push(...await computeMetrics(opts));
  return out;
}
