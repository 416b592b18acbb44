// One real server process per engine for the hostile suite, driven over REST: V8 without a heap
// store, QuickJS with `--heap-store dir`. Two workers, so a benign run can go alongside a hostile
// one. The supervisor's memory is read from /proc (VmHWM: the process's peak RSS — the supervisor
// alone, not its workers).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineName } from '../../shared/protocol.ts';
import { startServer, type ServerProcess } from '../e2e/server/server-process.ts';
import type { RunOptions } from './catalogue.ts';

/**
 * The supervisor's peak RSS (VmHWM, and VmRSS sampled during each entry) must stay below this
 * whatever one hostile script does, with a benign run beside it and the default
 * --max-output-bytes (16 MiB). An idle supervisor holds ~140 MB (Node, express, the MCP SDK,
 * SQLite). By design it may add the finished-output cache (64 MiB of output, in buffers of up to
 * twice that) and one run's in-flight output (16 MiB of output raised the peak by 40-75 MB):
 * ~140 + 128 + 75 ≈ 340 at worst, measured ≤ 260. With a heap store (QuickJS) it also keeps
 * decoded heap images (256 MiB, docs/heap-snapshots.md), which the suite's ~150 runs fill.
 */
// 448 since 2026-11-24: the merges of that day (the module service, the filesystem store, upstream
// MCP clients, Rego) grew the supervisor's baseline by ~30-40 MB; measured peak 391 MB.
export const SUPERVISOR_PEAK_BOUND_MB: Readonly<Record<EngineName, number>> = { v8: 448, quickjs: 448 + 256 };

/**
 * What one entry may add to the supervisor's RSS (its peak during the entry over its RSS just
 * before): the 16 MiB output floods measured +40-75 MB, and each QuickJS run adds its decoded
 * image (~2-8 MB) to the cache until the cache is full.
 */
export const SUPERVISOR_RISE_BOUND_MB = 150;

export interface Memory {
  /** VmHWM in MB. */
  readonly peakMb: number;
  /** VmRSS in MB. */
  readonly rssMb: number;
}

export interface ExecutionInfo {
  readonly execution_id: string;
  readonly status: string;
  readonly result: string | null;
  readonly error: string | null;
  readonly started_at: string;
  readonly completed_at: string | null;
}

export interface OutputPage {
  readonly data: string;
  readonly total_bytes: number;
  readonly total_lines: number;
}

/** How long a run may take past its own timeout before the suite gives up on it. */
const SETTLE_SLACK_MS = 60_000;
const DEFAULT_TIMEOUT_SECS = 30;

function kib(status: string, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status);
  if (!m) throw new Error(`no ${field} in /proc status`);
  return Number(m[1]);
}

export class HostileServer {
  readonly engine: EngineName;
  #server: ServerProcess | undefined;
  #heapDir: string | undefined;
  #uploaded = new Set<string>();

  constructor(engine: EngineName) {
    this.engine = engine;
  }

  async start(): Promise<void> {
    const args = ['--max-concurrent-executions', '2'];
    if (this.engine === 'quickjs') {
      this.#heapDir = mkdtempSync(join(tmpdir(), 'runjs-hostile-heaps-'));
      args.push('--heap-store', 'dir', '--heap-dir', this.#heapDir);
    }
    this.#server = await startServer(args);
    this.#uploaded = new Set();
  }

  async stop(): Promise<void> {
    await this.#server?.stop();
    this.#server = undefined;
    if (this.#heapDir !== undefined) rmSync(this.#heapDir, { recursive: true, force: true });
    this.#heapDir = undefined;
  }

  /** A fresh process (and database): after a failed entry, so its damage does not reach the next. */
  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  get #base(): string {
    if (this.#server === undefined) throw new Error('server not started');
    return this.#server.base;
  }

  memory(): Memory {
    const pid = this.#server?.proc.pid;
    if (pid === undefined) throw new Error('server not started');
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return { peakMb: kib(status, 'VmHWM') / 1024, rssMb: kib(status, 'VmRSS') / 1024 };
  }

  async submit(code: string, options: RunOptions = {}): Promise<string> {
    const res = await fetch(`${this.#base}/api/exec`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code, ...options }) });
    const body = await res.json() as { execution_id?: string; error?: string };
    if (res.status !== 202 || body.execution_id === undefined) throw new Error(`POST /api/exec answered ${res.status}: ${JSON.stringify(body)}`);
    return body.execution_id;
  }

  /** Long-polls until the execution is terminal. */
  async settle(id: string, options: RunOptions = {}): Promise<ExecutionInfo> {
    const deadline = Date.now() + (options.execution_timeout_secs ?? DEFAULT_TIMEOUT_SECS) * 1000 + SETTLE_SLACK_MS;
    for (;;) {
      const res = await fetch(`${this.#base}/api/executions/${id}?wait_ms=30000`);
      const info = await res.json() as ExecutionInfo;
      if (res.status !== 200) throw new Error(`GET /api/executions/${id} answered ${res.status}: ${JSON.stringify(info)}`);
      if (info.status !== 'running') return info;
      if (Date.now() > deadline) throw new Error(`execution ${id} still running ${SETTLE_SLACK_MS} ms past its timeout`);
    }
  }

  async run(code: string, options: RunOptions = {}): Promise<ExecutionInfo> {
    return this.settle(await this.submit(code, options), options);
  }

  /** One page of output in byte mode. */
  async output(id: string, byteOffset = 0, byteLimit = 1024 * 1024): Promise<OutputPage> {
    const res = await fetch(`${this.#base}/api/executions/${id}/output?byte_offset=${byteOffset}&byte_limit=${byteLimit}`);
    const page = await res.json() as OutputPage;
    if (res.status !== 200) throw new Error(`GET /api/executions/${id}/output answered ${res.status}: ${JSON.stringify(page)}`);
    return page;
  }

  /** Uploads `bytes` bytes under `key` (once per server process). */
  async upload(key: string, bytes: number): Promise<void> {
    if (this.#uploaded.has(key)) return;
    const res = await fetch(`${this.#base}/api/artifacts/${key}`, { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream' }, body: new Uint8Array(bytes).fill(7) });
    if (res.status !== 200) throw new Error(`PUT /api/artifacts/${key} answered ${res.status}: ${await res.text()}`);
    this.#uploaded.add(key);
  }
}
