// Engine and pool metrics (issue 2 §7), measured through the real supervisor pool and worker
// processes, from the supervisor's side: submit → outcome, cancel → worker free, kill → ready.
import { WorkerPool, type JobHandle, type PoolOptions } from '../../supervisor/pool/worker-pool.ts';
import type { EngineName, Outcome } from '../../shared/protocol.ts';
import { median, metric, sampleLoop, sleep, type BenchOptions, type Metric } from './bench-kit.ts';

export const metricPrefixes = ['engine.'];

/** The service's default worker count on this machine class (2 cores) and the throughput setup. */
const POOL_SIZE = 2;
const DEFAULT_HEAP_MB = 8;

export interface SubmitOptions {
  readonly engine?: EngineName;
  readonly heapMemoryMaxMb?: number;
  readonly timeoutMs?: number;
  readonly onStart?: () => void;
  readonly onOutput?: (data: string) => void;
}

/** Submits `code` with the service's defaults (V8, 8 MB heap, 30 s, 1 MiB of output) unless overridden. */
export function submit(pool: WorkerPool, code: string, o: SubmitOptions = {}): JobHandle {
  return pool.submit({
    code,
    engine: o.engine ?? 'v8',
    heapMemoryMaxMb: o.heapMemoryMaxMb ?? DEFAULT_HEAP_MB,
    timeoutMs: o.timeoutMs ?? 30_000,
    maxOutputBytes: 1 << 20,
    onOutput: o.onOutput ?? (() => {}),
    ...(o.onStart ? { onStart: o.onStart } : {}),
  });
}

/** How long workers may take to boot before a bench gives up (a worker that crashes at start respawns forever). */
const READY_TIMEOUT_MS = 60_000;

/** Resolves when every worker of `pool` is ready; rejects after READY_TIMEOUT_MS. */
export async function poolReady(pool: WorkerPool): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the worker pool was not ready within ${READY_TIMEOUT_MS / 1000} s (do workers crash at start? see the log above)`)), READY_TIMEOUT_MS);
  });
  try {
    await Promise.race([pool.ready(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * How long a fresh pool idles after `ready` before a bench uses it: workers finish their start-up
 * work (the V8 engine builds its prelude snapshot once idle), as a long-running service's have.
 */
const SETTLE_MS = 500;

/** Pool settings a bench may set besides size and queue (the pool's defaults otherwise). */
export type BenchPoolOptions = Omit<PoolOptions, 'size' | 'maxQueued' | 'log'>;

/**
 * What the service runs V8 executions on: workers that warm only V8, as supervisor/app.ts
 * configures them when no heap store is set (the default).
 */
export const V8_SERVICE_POOL: BenchPoolOptions = { warmEngines: ['v8'] };

/** Opens a pool, waits until every worker is ready and has settled, runs `body`, closes the pool. */
export async function withPool<T>(size: number, body: (pool: WorkerPool) => Promise<T>, maxQueued = 10_000, options: BenchPoolOptions = {}): Promise<T> {
  let lines = 0;
  const pool = new WorkerPool({
    ...options,
    size,
    maxQueued,
    // Worker stderr, capped: a worker crash-looping at start must not bury the report.
    log: (line) => { if (++lines <= 40) process.stderr.write(`  ${line}\n`); else if (lines === 41) process.stderr.write('  (further worker log lines suppressed)\n'); },
  });
  try {
    await poolReady(pool);
    await sleep(SETTLE_MS);
    return await body(pool);
  } finally {
    await pool.close();
  }
}

function expectCompleted(o: Outcome, result: string, what: string): void {
  if (o.status !== 'completed' || o.result !== result) throw new Error(`${what}: expected completed ${result}, got ${JSON.stringify(o)}`);
}

/** Submit → completed outcome, in ms. Each run's source differs, so no cache can serve it. */
async function trivialRun(pool: WorkerPool, i: number): Promise<number> {
  const t0 = performance.now();
  const outcome = await submit(pool, `${i} + 1`).outcome;
  const ms = performance.now() - t0;
  expectCompleted(outcome, String(i + 1), 'trivial run');
  return ms;
}

/** Starts `code`, which logs a line before it gets busy, and resolves once that line arrived plus `settleMs`. */
async function startBusy(pool: WorkerPool, code: string, heapMemoryMaxMb: number, settleMs: number): Promise<JobHandle> {
  let seen!: () => void;
  const started = new Promise<void>((r) => { seen = r; });
  const handle = submit(pool, code, { heapMemoryMaxMb, timeoutMs: 120_000, onOutput: () => seen() });
  await started;
  await sleep(settleMs);
  return handle;
}

/** Cancels `busy` and submits a trivial run at once; ms from the cancel request until that run starts on a worker. */
async function cancelToNextStart(pool: WorkerPool, busy: JobHandle, i: number): Promise<number> {
  let startedAt = Number.NaN;
  const t0 = performance.now();
  busy.cancel();
  const next = submit(pool, `${i} * 2`, { onStart: () => { startedAt = performance.now(); } });
  const cancelled = await busy.outcome;
  if (cancelled.status !== 'cancelled') throw new Error(`cancel: expected cancelled, got ${JSON.stringify(cancelled)}`);
  expectCompleted(await next.outcome, String(i * 2), 'run after cancel');
  return startedAt - t0;
}

const BUSY_LOOP = 'console.log("spinning"); while (true) {}';
/** Array.fill floods run past an isolate's disposal (engine-study Q7): only killing the worker stops them. */
const UNINTERRUPTIBLE = 'console.log("flooding"); const a = []; while (true) { a.push(new Array(64).fill(0)); if (a.length > 5000) a.length = 0 }';

export async function run(opts: BenchOptions): Promise<Metric[]> {
  const out: Metric[] = [];
  const { log, count } = opts;

  if (opts.wantsGroup('engine.trivial_run')) {
    await withPool(POOL_SIZE, async (pool) => {
      if (opts.wants('engine.trivial_run_ms')) {
        log('  engine.trivial_run_ms: sequential trivial runs, each submitted as the previous one settles');
        const samples = await sampleLoop((i) => trivialRun(pool, i), { warmup: count(50, 3), iterations: count(300, 5) });
        out.push(metric('engine.trivial_run_ms', 'ms', samples));
      }
      if (opts.wants('engine.trivial_run_spaced_ms')) {
        log('  engine.trivial_run_spaced_ms: trivial runs submitted 10 ms apart (the worker has refilled its warm realm)');
        const samples = await sampleLoop(async (i) => { await sleep(10); return trivialRun(pool, 1_000_000 + i); }, { warmup: count(10, 1), iterations: count(150, 3) });
        out.push(metric('engine.trivial_run_spaced_ms', 'ms', samples));
      }
    }, undefined, V8_SERVICE_POOL);
  }

  if (opts.wants('engine.throughput_trivial_per_s')) {
    log(`  engine.throughput_trivial_per_s: pool of ${POOL_SIZE}, batches of concurrent trivial runs`);
    const batch = count(600, 20);
    await withPool(POOL_SIZE, async (pool) => {
      let base = 0;
      const samples = await sampleLoop(async () => {
        const t0 = performance.now();
        const outcomes = await Promise.all(Array.from({ length: batch }, (_, k) => submit(pool, `${base + k} + 1`).outcome));
        const s = (performance.now() - t0) / 1000;
        outcomes.forEach((o, k) => expectCompleted(o, String(base + k + 1), 'throughput run'));
        base += batch;
        return batch / s;
      }, { warmup: 1, iterations: count(5, 1) });
      out.push(metric('engine.throughput_trivial_per_s', 'runs/s', samples));
    }, batch, V8_SERVICE_POOL);
  }

  if (opts.wants('engine.cancel_latency_ms')) {
    log('  engine.cancel_latency_ms: cancel a busy `while (true) {}` → the next queued trivial run starts (pool of 1)');
    await withPool(1, async (pool) => {
      let kills = 0;
      const samples = await sampleLoop(async (i) => {
        const pid = pool.pids()[0];
        const busy = await startBusy(pool, BUSY_LOOP, DEFAULT_HEAP_MB, 20);
        const ms = await cancelToNextStart(pool, busy, i);
        if (pool.pids()[0] !== pid) kills++;
        return ms;
      }, { warmup: count(3, 1), iterations: count(30, 2) });
      if (kills > 0) log(`  engine.cancel_latency_ms: WARNING ${kills} cancels killed the worker instead of interrupting it`);
      out.push(metric('engine.cancel_latency_ms', 'ms', samples));
    }, undefined, V8_SERVICE_POOL);
  }

  if (opts.wants('engine.cancel_kill_latency_ms')) {
    log('  engine.cancel_kill_latency_ms: cancel an Array.fill flood (cannot be interrupted) → replacement worker starts the next run');
    await withPool(1, async (pool) => {
      // The flood is not always beyond an interrupt (on a busy machine about half of them stop
      // in time): only cancels that replaced the worker are the kill path's samples; the others
      // are counted and logged, and the loop tries again (bounded).
      const wanted = count(8, 1);
      const warmup = count(1, 0);
      const samples: number[] = [];
      const interrupted: number[] = [];
      for (let i = 0; samples.length < wanted && i < warmup + 4 * wanted; i++) {
        const pid = pool.pids()[0];
        const busy = await startBusy(pool, UNINTERRUPTIBLE, 512, 50);
        const ms = await cancelToNextStart(pool, busy, i);
        if (i < warmup) continue;
        if (pool.pids()[0] === pid) interrupted.push(ms);
        else samples.push(ms);
      }
      if (interrupted.length > 0) log(`  engine.cancel_kill_latency_ms: ${interrupted.length} floods stopped at the interrupt (worker kept; median ${median(interrupted).toFixed(1)} ms), not counted`);
      if (samples.length === 0) throw new Error('engine.cancel_kill_latency_ms: no cancel replaced the worker');
      out.push(metric('engine.cancel_kill_latency_ms', 'ms', samples));
    }, undefined, V8_SERVICE_POOL);
  }

  if (opts.wants('engine.worker_respawn_ms')) {
    log('  engine.worker_respawn_ms: SIGKILL an idle worker → its replacement is ready');
    await withPool(1, async (pool) => {
      const samples = await sampleLoop(async (i) => {
        const pid = pool.pids()[0];
        if (pid === undefined) throw new Error('worker has no pid');
        const t0 = performance.now();
        process.kill(pid, 'SIGKILL');
        while (pool.pids()[0] === pid) await sleep(1);
        await poolReady(pool);
        const ms = performance.now() - t0;
        expectCompleted(await submit(pool, `${i} + 2`).outcome, String(i + 2), 'run after respawn');
        return ms;
      }, { warmup: count(1, 0), iterations: count(10, 1) });
      out.push(metric('engine.worker_respawn_ms', 'ms', samples));
    }, undefined, V8_SERVICE_POOL);
  }

  return out;
}
