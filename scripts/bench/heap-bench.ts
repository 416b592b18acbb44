// Heap persistence (issue 5 targets), through the execution service over real workers and a dir
// heap store: a stateful session step, the bytes a small step writes, a 100-way fork fan-out
// from one key, and the speedup of 2 workers over 1 on distinct heaps. The service is driven
// in-process (no HTTP): the REST layer adds the same small constant to every figure.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExecutionService } from '../../supervisor/executions/execution-service.ts';
import { HeapService, HeapStore } from '../../supervisor/heaps/index.ts';
import { createBlobStore } from '../../supervisor/stores/blob/index.ts';
import { openMetadataDb } from '../../supervisor/stores/metadata-db.ts';
import type { WorkerPool } from '../../supervisor/pool/worker-pool.ts';
import { median, metric, roundFigure, timeLoop, type BenchOptions, type Metric } from './bench-kit.ts';
import { withPool } from './engine-bench.ts';

export const metricPrefixes = ['heap.'];

interface Rig {
  readonly service: ExecutionService;
  readonly heapDir: string;
  close(): void;
}

function rig(pool: WorkerPool): Rig {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-heap-bench-'));
  const heapDir = join(dir, 'heaps');
  const db = openMetadataDb(join(dir, 'db'));
  const heaps = new HeapService(db, new HeapStore({ blobs: createBlobStore({ backend: 'dir', dir: heapDir }) }));
  const service = new ExecutionService({
    db, pool, defaultTimeoutSecs: 60, defaultHeapMb: 64, maxHeapMb: 512, maxOutputBytes: 1 << 20, retention: 100_000,
    heapEnabled: true, heaps, fsEnabled: false,
  });
  return { service, heapDir, close: () => { service.close(); db.close(); rmSync(dir, { recursive: true, force: true }); } };
}

async function step(service: ExecutionService, req: { code: string; heap?: string; session?: string }): Promise<string> {
  const info = await service.wait(service.submit(req));
  if (info.status !== 'completed' || info.heap === null) throw new Error(`heap bench step: ${JSON.stringify(info)}`);
  return info.heap;
}

function dirBytes(dir: string): number {
  let n = 0;
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const s = statSync(p);
      if (s.isDirectory()) walk(p);
      else n += s.size;
    }
  };
  try { walk(dir); } catch { /* not created yet */ }
  return n;
}

/** A few hundred KB of live state, then `counter++` steps. */
const STATE = `globalThis.counter = 0; globalThis.rows = Array.from({ length: 4000 }, (_, i) => ({ id: i, name: 'row ' + i, tags: ['a', 'b'] })); 0`;

export async function run(opts: BenchOptions): Promise<Metric[]> {
  const out: Metric[] = [];
  if (opts.wantsGroup('heap.stateful_step') || opts.wantsGroup('heap.bytes_written') || opts.wantsGroup('heap.fork_fanout')) {
    await withPool(2, async (pool) => {
      const r = rig(pool);
      try {
        if (opts.wants('heap.stateful_step_p50_ms') || opts.wants('heap.bytes_written_per_small_step')) {
          opts.log('  heap.stateful_step_p50_ms / heap.bytes_written_per_small_step: session steps `counter++` on ~400 KB of live state');
          await step(r.service, { code: STATE, session: 'bench' });
          const warm = opts.count(10, 2);
          const iterations = opts.count(200, 5);
          let before = 0;
          const stepBytes: number[] = [];
          let last = dirBytes(r.heapDir);
          const samples = await timeLoop(async (i) => {
            if (i === warm) before = dirBytes(r.heapDir);
            await step(r.service, { code: 'counter++', session: 'bench' });
            const now = dirBytes(r.heapDir);
            stepBytes.push(now - last);
            last = now;
          }, { warmup: warm, iterations });
          const written = (dirBytes(r.heapDir) - before) / iterations;
          if (opts.wants('heap.stateful_step_p50_ms')) out.push(metric('heap.stateful_step_p50_ms', 'ms', samples));
          // The median step is a delta; the mean includes the full image every 9th step writes
          // (what a long session pays on average), reported alongside.
          if (opts.wants('heap.bytes_written_per_small_step')) out.push({ name: 'heap.bytes_written_per_small_step', median: roundFigure(median(stepBytes.slice(warm))), unit: 'bytes', runs: iterations });
          if (opts.wants('heap.bytes_written_mean_per_step')) out.push({ name: 'heap.bytes_written_mean_per_step', median: roundFigure(written), unit: 'bytes', runs: iterations });
        }
        if (opts.wants('heap.fork_fanout_100_ms')) {
          opts.log('  heap.fork_fanout_100_ms: 100 concurrent runs from one key to completion (2 workers)');
          const base = await step(r.service, { code: STATE });
          const fan = opts.count(100, 10);
          const samples = await timeLoop(async (i) => {
            await Promise.all(Array.from({ length: fan }, (_, k) => step(r.service, { code: `counter += ${i * fan + k}`, heap: base })));
          }, { warmup: opts.count(1, 0), iterations: opts.count(5, 1) });
          out.push(metric('heap.fork_fanout_100_ms', 'ms', samples));
        }
      } finally {
        r.close();
      }
    });
  }
  if (opts.wants('heap.parallel_speedup')) {
    opts.log('  heap.parallel_speedup: 2 workers vs 1, steps on distinct heaps');
    const work = `{ let s = 0; for (let i = 0; i < 1500000; i++) s += i % 7; counter += s > 0 ? 1 : 0; }`;
    const timed = async (size: number): Promise<number> => withPool(size, async (pool) => {
      const r = rig(pool);
      try {
        const heaps = await Promise.all(Array.from({ length: 4 }, () => step(r.service, { code: STATE })));
        const rounds = opts.count(8, 2);
        const t0 = performance.now();
        for (let i = 0; i < rounds; i++) {
          const next = await Promise.all(heaps.map((h) => step(r.service, { code: work, heap: h })));
          heaps.splice(0, heaps.length, ...next);
        }
        return performance.now() - t0;
      } finally {
        r.close();
      }
    });
    const one = await timed(1);
    const two = await timed(2);
    out.push({ name: 'heap.parallel_speedup', median: roundFigure(one / two), unit: 'x', runs: 1 });
  }
  return out;
}
