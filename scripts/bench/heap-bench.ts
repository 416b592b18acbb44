// Heap persistence (issue 5 targets), measured the way a client sees them: the real server as a
// child process (service-rig.ts) with a `dir` heap store, driven over keep-alive REST. A step is
// POST /api/exec {code, heap} then GET /api/executions/{id}?wait_ms=… (long-poll) until it is terminal,
// and counts only when it `completed` with a new heap key. Metrics: a stateful step, the bytes a
// small step adds to the store, a step of a session whose state grows, a 100-way fork fan-out
// from one key, and the speedup of 2 workers over 1 on distinct heaps.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dirBytes, median, metric, roundFigure, sampleLoop, timeLoop, type BenchOptions, type Metric } from './bench-kit.ts';
import { HttpClient, startServer, type BenchServer } from './service-rig.ts';

export const metricPrefixes = ['heap.'];

const RUN_DEADLINE_MS = 60_000;
/** Long-poll wait per GET (the API's maximum is 30 s). */
const WAIT_MS = 10_000;

interface Rig {
  readonly server: BenchServer;
  readonly http: HttpClient;
  readonly heapDir: string;
  close(): Promise<void>;
}

async function rig(workers: number, connections: number): Promise<Rig> {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-heap-bench-'));
  const heapDir = join(dir, 'heaps');
  const server = await startServer(workers, ['--heap-store', 'dir', '--heap-dir', heapDir, '--heap-memory-max', '64'], 'heap');
  const http = new HttpClient(server.port, connections);
  return {
    server, http, heapDir,
    close: async () => { http.close(); await server.stop(); rmSync(dir, { recursive: true, force: true }); },
  };
}

interface StepInfo {
  readonly heap: string;
  /** completed_at − started_at as the server recorded them. */
  readonly serverMs: number;
}

/**
 * One run over REST to completion. The client long-polls (`wait_ms`), as the API offers for this:
 * the answer comes the moment the run is terminal, and no polling loop competes with the server
 * for CPU. (Until 2026-11-23 these figures were taken with clients polling back to back or every
 * 5 ms; 100 clients polling every 5 ms kept the supervisor's event loop busy serving GETs and made
 * the fan-out 3–4× slower than the runs themselves: see docs/benchmarks.md.)
 */
async function step(http: HttpClient, req: { code: string; heap?: string }): Promise<StepInfo> {
  const t0 = performance.now();
  const posted = await http.request('POST', '/api/exec', req);
  if (posted.status !== 202) throw new Error(`POST /api/exec: ${posted.status} ${JSON.stringify(posted.json)}`);
  const id = (posted.json as { execution_id: string }).execution_id;
  for (;;) {
    const got = await http.request('GET', `/api/executions/${id}?wait_ms=${WAIT_MS}`);
    const info = got.json as { status: string; heap: string | null; started_at: string; completed_at: string | null };
    if (info.status !== 'running') {
      if (info.status !== 'completed' || info.heap === null) throw new Error(`heap bench step: ${JSON.stringify(info)}`);
      return { heap: info.heap, serverMs: Date.parse(info.completed_at ?? '') - Date.parse(info.started_at) };
    }
    if (performance.now() - t0 > RUN_DEADLINE_MS) throw new Error(`heap bench step ${id} still running after ${RUN_DEADLINE_MS} ms`);
  }
}

/** A few hundred KB of live state, then `counter++` steps. */
const STATE = `globalThis.counter = 0; globalThis.rows = Array.from({ length: 4000 }, (_, i) => ({ id: i, name: 'row ' + i, tags: ['a', 'b'] })); 0`;

export async function run(opts: BenchOptions): Promise<Metric[]> {
  const out: Metric[] = [];
  if (opts.wantsGroup('heap.stateful_step') || opts.wantsGroup('heap.growing_step') || opts.wantsGroup('heap.bytes_written') || opts.wantsGroup('heap.fork_fanout') || opts.wantsGroup('heap.fresh_run')) {
    const r = await rig(2, 100);
    try {
      if (opts.wants('heap.stateful_step_p50_ms') || opts.wants('heap.bytes_written_per_small_step') || opts.wants('heap.bytes_written_mean_per_step')) {
        opts.log('  heap.stateful_step_p50_ms / heap.bytes_written_per_small_step: REST steps `counter++` on ~400 KB of live state');
        let heap = (await step(r.http, { code: STATE })).heap;
        const warm = opts.count(10, 2);
        const iterations = opts.count(200, 5);
        let before = 0;
        const stepBytes: number[] = [];
        const serverMs: number[] = [];
        let last = dirBytes(r.heapDir);
        // Only the step is timed: the walk of the store directory that measures its bytes
        // (≈ 400 files by the end) is not part of it. Until 2026-11-24 it was, and added ≈ 5–7 ms
        // to this median (docs/benchmarks.md, "The heap step, end to end").
        const samples = await sampleLoop(async (i) => {
          if (i === warm) before = dirBytes(r.heapDir);
          const t0 = performance.now();
          const s = await step(r.http, { code: 'counter++', heap });
          const ms = performance.now() - t0;
          heap = s.heap;
          serverMs.push(s.serverMs);
          const now = dirBytes(r.heapDir);
          stepBytes.push(now - last);
          last = now;
          return ms;
        }, { warmup: warm, iterations });
        const written = (dirBytes(r.heapDir) - before) / iterations;
        opts.log(`    server-side (completed_at − started_at) median ${median(serverMs.slice(warm))} ms`);
        if (opts.wants('heap.stateful_step_p50_ms')) out.push(metric('heap.stateful_step_p50_ms', 'ms', samples));
        // The median step is a delta against its parent; the mean includes the periodic step at
        // the chain's depth limit, a delta against the chain's first step (what a long session
        // pays on average).
        if (opts.wants('heap.bytes_written_per_small_step')) out.push({ name: 'heap.bytes_written_per_small_step', median: roundFigure(median(stepBytes.slice(warm))), unit: 'bytes', runs: iterations });
        if (opts.wants('heap.bytes_written_mean_per_step')) out.push({ name: 'heap.bytes_written_mean_per_step', median: roundFigure(written), unit: 'bytes', runs: iterations });
      }
      if (opts.wants('heap.growing_step_p50_ms')) {
        opts.log('  heap.growing_step_p50_ms: REST steps that each add ~40 KB of state (the image grows a page every step or two)');
        let heap = (await step(r.http, { code: STATE })).heap;
        const samples = await sampleLoop(async () => {
          const t0 = performance.now();
          heap = (await step(r.http, { code: "globalThis.acc ??= []; acc.push('x'.repeat(40000) + acc.length); acc.length", heap })).heap;
          return performance.now() - t0;
        }, { warmup: opts.count(10, 2), iterations: opts.count(60, 5) });
        out.push(metric('heap.growing_step_p50_ms', 'ms', samples));
      }
      if (opts.wants('heap.fresh_run_bytes_written')) {
        opts.log('  heap.fresh_run_bytes_written: bytes a fresh heap-mode run (no input heap) adds to the store');
        const sizes: number[] = [];
        for (let i = 0; i < opts.count(10, 2); i++) {
          const b0 = dirBytes(r.heapDir);
          await step(r.http, { code: `globalThis.x = ${i}; x` });
          sizes.push(dirBytes(r.heapDir) - b0);
        }
        out.push({ name: 'heap.fresh_run_bytes_written', median: roundFigure(median(sizes)), unit: 'bytes', runs: sizes.length });
      }
      if (opts.wants('heap.fork_fanout_100_ms')) {
        opts.log('  heap.fork_fanout_100_ms: 100 concurrent REST runs from one key to completion (2 workers; clients long-poll)');
        const base = (await step(r.http, { code: STATE })).heap;
        const fan = opts.count(100, 10);
        const samples = await timeLoop(async (i) => {
          await Promise.all(Array.from({ length: fan }, (_, k) => step(r.http, { code: `counter += ${i * fan + k}`, heap: base })));
        }, { warmup: opts.count(1, 0), iterations: opts.count(5, 1) });
        out.push(metric('heap.fork_fanout_100_ms', 'ms', samples));
      }
    } finally {
      await r.close();
    }
  }
  if (opts.wants('heap.parallel_speedup')) {
    opts.log('  heap.parallel_speedup: 2 workers vs 1, REST steps on 4 distinct heaps (warmed up; median of 3 pairs)');
    const work = `{ let s = 0; for (let i = 0; i < 1500000; i++) s += i % 7; counter += s > 0 ? 1 : 0; }`;
    const timed = async (workers: number): Promise<number> => {
      const r = await rig(workers, 8);
      try {
        const heaps = await Promise.all(Array.from({ length: 4 }, async () => (await step(r.http, { code: STATE })).heap));
        const round = async (): Promise<void> => {
          const next = await Promise.all(heaps.map(async (h) => (await step(r.http, { code: work, heap: h })).heap));
          heaps.splice(0, heaps.length, ...next);
        };
        // Untimed rounds first: until a worker's image cache is full (8 images, 2-4 rounds here)
        // each step faults a new capture buffer in, a one-time cost per worker process, not
        // a measure of parallelism (docs/benchmarks.md, "Changes of 2026-11-25: capture buffers and page faults").
        for (let i = 0; i < opts.count(4, 1); i++) await round();
        const rounds = opts.count(8, 2);
        const t0 = performance.now();
        for (let i = 0; i < rounds; i++) await round();
        return performance.now() - t0;
      } finally {
        await r.close();
      }
    };
    const ratios: number[] = [];
    for (let i = 0; i < opts.count(3, 1); i++) {
      const one = await timed(1);
      const two = await timed(2);
      ratios.push(one / two);
    }
    out.push({ name: 'heap.parallel_speedup', median: roundFigure(median(ratios)), unit: 'x', runs: ratios.length });
  }
  return out;
}
