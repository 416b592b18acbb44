// A pool plus a small `run()` for tests that drive executions through real worker processes.
import { WorkerPool, type JobHandle, type PoolOptions } from '../../supervisor/pool/worker-pool.ts';
import type { EngineName, Outcome } from '../../shared/protocol.ts';
import type { HeapImage } from '../../shared/heap-image.ts';
import type { DecisionLog } from '../../shared/decision-log.ts';
import type { MountChange, MountImage } from '../../shared/fs-mount.ts';

export interface RunOptions {
  timeoutMs?: number;
  heapMemoryMaxMb?: number;
  maxOutputBytes?: number;
  engine?: EngineName;
  /** QuickJS: restore this heap image first. */
  image?: HeapImage;
  /** QuickJS: return the heap image of a completed run in RunResult.image. */
  captureImage?: boolean;
  /** The filesystem snapshot mounted at /work; RunResult.fsChanges has what a completed run changed. */
  mount?: MountImage;
  /** With `mount`: serves the worker's object pipe (a file's bytes by content id), as the execution service does. */
  readObject?: (id: string) => Promise<Uint8Array>;
}

export interface RunResult {
  outcome: Outcome;
  output: string;
  ms: number;
  image?: HeapImage;
  /** The run's policy decision log, when it made any decision. */
  decisions?: DecisionLog;
  fsChanges?: readonly MountChange[];
}

export class PoolRunner {
  readonly pool: WorkerPool;
  constructor(size = 2, maxQueued = 100, graceMs = 200, ops?: PoolOptions['ops'], extra: Partial<PoolOptions> = {}) {
    this.pool = new WorkerPool({ size, maxQueued, graceMs, log: () => {}, ops, ...extra });
  }

  start(code: string, opts: RunOptions = {}, onOutput?: (d: string) => void): { handle: JobHandle; result: Promise<RunResult> } {
    let output = '';
    let image: HeapImage | undefined;
    let decisions: DecisionLog | undefined;
    let fsChanges: readonly MountChange[] | undefined;
    const t0 = performance.now();
    const handle = this.pool.submit({
      code,
      engine: opts.engine ?? 'v8',
      heapMemoryMaxMb: opts.heapMemoryMaxMb ?? 8,
      timeoutMs: opts.timeoutMs ?? 10_000,
      maxOutputBytes: opts.maxOutputBytes ?? 1 << 20,
      onOutput: (d) => { output += d; onOutput?.(d); },
      ...(opts.image ? { image: opts.image } : {}),
      ...(opts.captureImage ? { captureImage: true, onImage: (i: HeapImage) => { image = i; } } : {}),
      onDecisions: (log) => { decisions = log; },
      ...(opts.mount ? { mount: opts.mount, onFsChanges: (c: readonly MountChange[]) => { fsChanges = c; } } : {}),
      ...(opts.readObject ? { readObject: opts.readObject } : {}),
    });
    const result = handle.outcome.then((outcome) => ({ outcome, output, ms: performance.now() - t0, ...(image ? { image } : {}), ...(decisions ? { decisions } : {}), ...(fsChanges ? { fsChanges } : {}) }));
    return { handle, result };
  }

  run(code: string, opts: RunOptions = {}): Promise<RunResult> {
    return this.start(code, opts).result;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
