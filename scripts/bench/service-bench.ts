// Service-level metrics (issue 3 "Targets"), measured against the real server started as a child
// process on 127.0.0.1 (service-rig.ts) — the whole path a client sees: HTTP, express, request
// validation, the SQLite registry, the pool, the worker and back:
//
//   rest.trivial_run_p50_ms        POST /api/exec → GET /api/executions/{id}?wait_ms=30000 (long-poll)
//   rest.trivial_run_polling_p50_ms  the same with plain GETs back to back until terminal
//   mcp.stateless_run_js_p50_ms    the SDK's Client over Streamable HTTP calling run_js (--stateless)
//   rest.throughput_trivial_per_s  32 concurrent REST clients in a closed loop (long-poll), completed runs/s
//   rest.throughput_polling_per_s  the same with GETs backing off instead of the long-poll
//   server.idle_rss_mb             VmRSS of the idle supervisor plus its worker processes
//
// Latencies are paired round by round with a trivial run through an in-process WorkerPool of the
// same size (the `engine.trivial_run_ms` quantity), reported as `peer`, so `ratio` shows what the
// transport and the execution registry add. Load is bounded in count and time; every server,
// pool and connection is closed before run() returns.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { WorkerPool } from '../../supervisor/pool/worker-pool.ts';
import { comparedMetric, median, metric, quantile, roundFigure, roundRobin, sleep, type BenchOptions, type Metric } from './bench-kit.ts';
import { submit, withPool } from './engine-bench.ts';
import { childrenOf, cpuMs, descendants, HttpClient, startServer, treeMemory, type BenchServer, type ProcessMemory } from './service-rig.ts';

export const metricPrefixes = ['rest.', 'mcp.', 'server.'];

/** The setup: a server with 2 workers (also the default worker count on this 2-core machine class). */
const WORKERS = 2;
const CLIENTS = 32;
/** How long a latency or throughput client waits for one run before the bench gives up. */
const RUN_DEADLINE_MS = 30_000;

interface ExecutionInfo {
  readonly execution_id: string;
  readonly status: string;
  readonly result: string | null;
  readonly error: string | null;
  readonly started_at: string;
  readonly completed_at: string | null;
}

/** What one REST run cost, for the breakdown in the log. */
interface RestSample {
  readonly ms: number;
  /** POST /api/exec round trip. */
  readonly postMs: number;
  /** GETs until the terminal status (1 = the first poll already saw it). */
  readonly polls: number;
  /** The round trip of the last (terminal) GET. */
  readonly lastGetMs: number;
  /** completed_at − started_at as the server recorded them (ms resolution). */
  readonly serverMs: number;
}

/** How long a polling client waits before its GET number `poll` (1 = the second GET); 0 = at once. */
export type PollDelay = (poll: number) => number;

/** Back to back: the next GET as soon as the previous answer said `running` — the lowest latency a polling client can get. */
export const BACK_TO_BACK: PollDelay = () => 0;
/** Exponential back-off, 1, 2, 4, 8 ms, then every 10 ms: what a client that shares the server with others should do. */
export const BACKOFF: PollDelay = (poll) => Math.min(10, 2 ** (poll - 1));

/** The long-poll: `GET /api/executions/{id}?wait_ms=…` answers once the execution is terminal. */
export const LONG_POLL = 'long-poll';
const LONG_POLL_QUERY = '?wait_ms=30000';

/** How a client waits for the end: plain GETs spaced by a PollDelay, or the long-poll. */
export type WaitMode = PollDelay | typeof LONG_POLL;

/** One trivial run over REST: POST, then GETs (long-polls, or plain GETs spaced by `mode`) until the status is terminal. */
export async function restRun(http: HttpClient, i: number, mode: WaitMode = LONG_POLL): Promise<RestSample> {
  const delay: PollDelay = mode === LONG_POLL ? BACK_TO_BACK : mode;
  const query = mode === LONG_POLL ? LONG_POLL_QUERY : '';
  const t0 = performance.now();
  const posted = await http.request('POST', '/api/exec', { code: `${i} + 1` });
  const postMs = performance.now() - t0;
  if (posted.status !== 202) throw new Error(`POST /api/exec: ${posted.status} ${JSON.stringify(posted.json)}`);
  const id = (posted.json as { execution_id: string }).execution_id;
  let polls = 0;
  for (;;) {
    const wait = polls > 0 ? delay(polls) : 0;
    if (wait > 0) await sleep(wait);
    const g0 = performance.now();
    const got = await http.request('GET', `/api/executions/${id}${query}`);
    const now = performance.now();
    polls++;
    if (got.status !== 200) throw new Error(`GET /api/executions/${id}: ${got.status} ${JSON.stringify(got.json)}`);
    const info = got.json as ExecutionInfo;
    if (info.status !== 'running') {
      if (info.status !== 'completed' || info.result !== String(i + 1)) throw new Error(`REST run ${i}: expected completed ${i + 1}, got ${JSON.stringify(info)}`);
      const serverMs = Date.parse(info.completed_at ?? '') - Date.parse(info.started_at);
      return { ms: now - t0, postMs, polls, lastGetMs: now - g0, serverMs };
    }
    if (now - t0 > RUN_DEADLINE_MS) throw new Error(`REST run ${i} still running after ${RUN_DEADLINE_MS} ms`);
  }
}

/** The in-process peer: pool.submit() → completed outcome, ms (engine-bench's trivial run). */
async function poolRun(pool: WorkerPool, i: number): Promise<number> {
  const t0 = performance.now();
  const o = await submit(pool, `${i} + 1`).outcome;
  const ms = performance.now() - t0;
  if (o.status !== 'completed' || o.result !== String(i + 1)) throw new Error(`pool run ${i}: ${JSON.stringify(o)}`);
  return ms;
}

async function mcpClient(base: string): Promise<Client> {
  const client = new Client({ name: 'runjs-bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  // A real client lists the tools first; the SDK then validates structuredContent against run_js's outputSchema.
  const { tools } = await client.listTools();
  if (!tools.some((t) => t.name === 'run_js')) throw new Error(`the stateless server offers no run_js: ${tools.map((t) => t.name).join(', ')}`);
  return client;
}

/** One stateless run_js call over Streamable HTTP, ms. `<i> + 1` prints nothing: the result is `{output: ""}`. */
async function mcpRun(client: Client, i: number): Promise<number> {
  const t0 = performance.now();
  const r = await client.callTool({ name: 'run_js', arguments: { code: `${i} + 1` } }) as CallToolResult;
  const ms = performance.now() - t0;
  const out = r.structuredContent as { output?: unknown } | undefined;
  if (r.isError === true || out?.output !== '') throw new Error(`run_js ${i}: ${JSON.stringify(r)}`);
  return ms;
}

/**
 * `clients` closed loops, each running `one(i)` back to back for `warmupMs + durationMs`; the
 * completions inside the measured window are counted per 1-second bucket. Returns runs/s per
 * bucket. New runs stop at the end of the window; those in flight are awaited (bounded by their
 * own deadline) but not counted.
 */
export async function closedLoop(clients: number, warmupMs: number, durationMs: number, one: (i: number) => Promise<unknown>): Promise<{ perSecond: number[]; total: number }> {
  const t0 = performance.now();
  const from = t0 + warmupMs;
  const until = from + durationMs;
  const bucketMs = Math.min(1000, durationMs);
  const buckets = new Array<number>(Math.max(1, Math.floor(durationMs / bucketMs))).fill(0);
  let next = 0;
  let total = 0;
  const loop = async (): Promise<void> => {
    while (performance.now() < until) {
      await one(next++);
      const at = performance.now();
      if (at >= from && at < until) {
        const b = Math.floor((at - from) / bucketMs);
        if (b < buckets.length) { buckets[b]!++; total++; }
      }
    }
  };
  await Promise.all(Array.from({ length: clients }, loop));
  return { perSecond: buckets.map((n) => n / (bucketMs / 1000)), total };
}

/**
 * CPU time used by a server (or, for the peer, the bench process and its pool's workers) and by
 * this bench process between construction and report(): who pays for a run on a 2-core machine.
 */
class CpuMeter {
  readonly #t0 = performance.now();
  readonly #pids: { readonly pid: number; readonly label: string; readonly start: number }[];

  constructor(root: number, children: readonly number[] = descendants(root)) {
    const labelled = [{ pid: root, label: 'supervisor' }, ...children.map((pid, k) => ({ pid, label: `child${k + 1}` }))];
    if (root !== process.pid) labelled.push({ pid: process.pid, label: 'client (bench process)' });
    this.#pids = labelled.map((p) => ({ ...p, start: cpuMs(p.pid) }));
  }

  report(runs: number, rootLabel?: string): string {
    const wall = performance.now() - this.#t0;
    const parts = this.#pids.map((p, k) => {
      const used = cpuMs(p.pid) - p.start;
      const label = k === 0 && rootLabel !== undefined ? rootLabel : p.label;
      return `${label} ${((used / wall) * 100).toFixed(0)}% (${(used / Math.max(1, runs)).toFixed(2)} ms/run)`;
    });
    return `CPU over ${(wall / 1000).toFixed(1)} s (warm-up and drain included): ${parts.join(', ')}`;
  }
}

function mb(kb: number): number {
  return kb / 1024;
}

function describeTree(tree: readonly ProcessMemory[]): string {
  return tree.map((p) => `${p.what} ${mb(p.rssKb).toFixed(0)} MB (anon ${mb(p.anonKb).toFixed(0)}, file ${mb(p.fileKb).toFixed(0)}, pss ${mb(p.pssKb).toFixed(0)})`).join('; ');
}

/** Samples the server's process tree `n` times, `gapMs` apart; per sample the totals in MB. */
async function sampleTree(server: BenchServer, n: number, gapMs: number): Promise<{ rss: number[]; pss: number[]; last: ProcessMemory[] }> {
  const rss: number[] = [];
  const pss: number[] = [];
  let last: ProcessMemory[] = [];
  for (let k = 0; k < n; k++) {
    if (k > 0) await sleep(gapMs);
    last = treeMemory(server.pid);
    rss.push(mb(last.reduce((s, p) => s + p.rssKb, 0)));
    pss.push(mb(last.reduce((s, p) => s + p.pssKb, 0)));
  }
  return { rss, pss, last };
}

const fmt = (n: number): string => String(roundFigure(n));

/** rest.* and server.* against one stateful server. */
async function restMetrics(opts: BenchOptions, pool: WorkerPool | undefined, out: Metric[]): Promise<void> {
  const { log, count } = opts;
  const server = await startServer(WORKERS);
  const http = new HttpClient(server.port, 1);
  try {
    log(`  server pid ${server.pid} on ${server.base}, ${WORKERS} workers`);
    // Warm-up: JIT of the request path, SQLite statements, the workers' realms.
    for (let i = 0; i < count(50, 3); i++) await restRun(http, -1 - i);

    if (opts.wantsGroup('server.idle')) {
      const idleMs = count(2000, 200);
      log(`  server.idle_rss_mb: after ${count(50, 3)} warm-up runs and ${idleMs} ms idle, VmRSS of the supervisor + its children (/proc/*/stat ppid)`);
      await sleep(idleMs);
      const s = await sampleTree(server, count(5, 2), 100);
      const workers = childrenOf(server.pid).length;
      if (workers !== WORKERS) log(`  server.idle_rss_mb: WARNING the server has ${workers} child processes, expected ${WORKERS} workers`);
      log(`    ${describeTree(s.last)}`);
      out.push(metric('server.idle_rss_mb', 'MB', s.rss));
      out.push(metric('server.idle_pss_mb', 'MB', s.pss));
    }

    if (opts.wants('rest.trivial_run_p50_ms')) {
      if (pool === undefined) throw new Error('no peer pool');
      const rounds = count(250, 5);
      const polling = opts.wants('rest.trivial_run_polling_p50_ms');
      log(`  rest.trivial_run_p50_ms: ${rounds} sequential POST /api/exec → GET ?wait_ms=30000 (long-poll, one keep-alive connection)`
        + `${polling ? ', rounds shared with plain back-to-back GET polls (rest.trivial_run_polling_p50_ms)' : ''}, paired with in-process pool runs`);
      const details: { longPoll: RestSample[]; polling: RestSample[] } = { longPoll: [], polling: [] };
      const cpu = new CpuMeter(server.pid);
      const contenders: Record<string, (round: number) => Promise<number>> = {
        rest: async (round) => { const r = await restRun(http, round, LONG_POLL); details.longPoll.push(r); return r.ms; },
        pool: (round) => poolRun(pool, round),
      };
      if (polling) contenders['polling'] = async (round) => { const r = await restRun(http, 1_000_000 + round, BACK_TO_BACK); details.polling.push(r); return r.ms; };
      const s: Record<string, number[] | undefined> = await roundRobin(contenders, { warmup: count(20, 1), rounds });
      out.push(comparedMetric('rest.trivial_run_p50_ms', 'ms', s['rest']!, 'engine.trivial_run_ms', s['pool']!));
      if (polling) out.push(comparedMetric('rest.trivial_run_polling_p50_ms', 'ms', s['polling']!, 'engine.trivial_run_ms', s['pool']!));
      for (const [label, all, ms] of [['long-poll', details.longPoll, s['rest']!], ['polling', details.polling, s['polling']]] as const) {
        if (ms === undefined) continue;
        const kept = all.slice(-rounds);
        log(`    ${label}: p50 ${fmt(median(ms))} ms, p90 ${fmt(quantile(ms, 0.9))} ms; per run: POST ${fmt(median(kept.map((d) => d.postMs)))} ms, `
          + `GETs median ${median(kept.map((d) => d.polls))} (p90 ${quantile(kept.map((d) => d.polls), 0.9)}), terminal GET ${fmt(median(kept.map((d) => d.lastGetMs)))} ms, `
          + `server started_at→completed_at ${fmt(median(kept.map((d) => d.serverMs)))} ms`);
      }
      log(`    pool peer ${fmt(median(s['pool']!))} ms; ${cpu.report(details.longPoll.length + details.polling.length)} (the client figure includes the peer pool's share)`);
    }

    const warmupMs = count(1000, 200);
    // Quick mode (the bench's own test) still counts over 2 s: on a machine loaded far past its
    // cores, 32 clients completed no run at all within 0.5 s, and a throughput of 0 says nothing.
    const durationMs = count(10_000, 2_000);
    /** 32 REST closed loops waiting with `mode`; runs/s per 1-s bucket. */
    const restLoops = async (mode: WaitMode, what: string): Promise<number[]> => {
      log(`    ${what}: ${CLIENTS} concurrent REST clients (own keep-alive connection each), ${durationMs / 1000} s after ${warmupMs / 1000} s warm-up`);
      const clients = Array.from({ length: CLIENTS }, () => new HttpClient(server.port, 1));
      let polls = 0;
      let runs = 0;
      const cpu = new CpuMeter(server.pid);
      const rest = await closedLoop(CLIENTS, warmupMs, durationMs, async (i) => {
        const r = await restRun(clients[i % CLIENTS]!, i, mode);
        polls += r.polls;
        runs++;
      }).finally(() => { for (const c of clients) c.close(); });
      log(`      ${rest.total} runs counted; ${(polls / runs).toFixed(1)} GETs per run; per second: ${rest.perSecond.map(fmt).join(' ')}`);
      log(`      ${cpu.report(runs)}`);
      return rest.perSecond;
    };

    if (opts.wants('rest.throughput_polling_per_s')) {
      log('  rest.throughput_polling_per_s: GET polls backing off 1, 2, 4, 8, then every 10 ms');
      const perSecond = await restLoops(BACKOFF, 'polling');
      out.push({ name: 'rest.throughput_polling_per_s', median: roundFigure(median(perSecond)), unit: 'runs/s', runs: perSecond.length });
    }

    if (opts.wants('rest.throughput_trivial_per_s')) {
      if (pool === undefined) throw new Error('no peer pool');
      log('  rest.throughput_trivial_per_s: each client POSTs, then long-polls GET ?wait_ms=30000');
      const perSecond = await restLoops(LONG_POLL, 'long-poll');
      log(`  peer: the same ${CLIENTS} closed loops on the in-process pool of ${WORKERS}`);
      let peerRuns = 0;
      const peerCpu = new CpuMeter(process.pid, pool.pids().filter((p): p is number => p !== undefined));
      const peer = await closedLoop(CLIENTS, warmupMs, durationMs, async (i) => { await poolRun(pool, i); peerRuns++; });
      log(`    ${peer.total} runs counted; per second: ${peer.perSecond.map(fmt).join(' ')}`);
      log(`    ${peerCpu.report(peerRuns, 'bench process (pool owner)')}`);
      const restMedian = median(perSecond);
      const peerMedian = median(peer.perSecond);
      out.push({
        name: 'rest.throughput_trivial_per_s', median: roundFigure(restMedian), unit: 'runs/s', runs: perSecond.length,
        peer: { name: 'engine.throughput_trivial_per_s', median: roundFigure(peerMedian) }, ratio: roundFigure(restMedian / peerMedian),
      });
    }

    if (opts.wants('server.rss_after_load_mb')) {
      await sleep(count(2000, 200));
      const s = await sampleTree(server, count(5, 2), 100);
      log(`  server.rss_after_load_mb: ${describeTree(s.last)}`);
      out.push(metric('server.rss_after_load_mb', 'MB', s.rss));
    }
  } catch (e) {
    throw new Error(`${e instanceof Error ? e.message : String(e)}\nserver stderr (tail):\n${server.stderrTail()}`, { cause: e });
  } finally {
    http.close();
    await server.stop();
  }
}

/** mcp.* against one --stateless server. */
async function mcpMetrics(opts: BenchOptions, pool: WorkerPool, out: Metric[]): Promise<void> {
  const { log, count } = opts;
  const server = await startServer(WORKERS, ['--stateless']);
  let client: Client | undefined;
  try {
    client = await mcpClient(server.base);
    const c = client;
    const rounds = count(250, 5);
    log(`  mcp.stateless_run_js_p50_ms: ${rounds} sequential run_js calls (SDK Client, Streamable HTTP, --stateless), paired with in-process pool runs`);
    for (let i = 0; i < count(50, 2); i++) await mcpRun(c, -1 - i);
    const s = await roundRobin({ mcp: (round) => mcpRun(c, round), pool: (round) => poolRun(pool, round) }, { warmup: count(20, 1), rounds });
    out.push(comparedMetric('mcp.stateless_run_js_p50_ms', 'ms', s.mcp, 'engine.trivial_run_ms', s.pool));
    log(`    p90 ${fmt(quantile(s.mcp, 0.9))} ms; pool peer ${fmt(median(s.pool))} ms`);
  } catch (e) {
    throw new Error(`${e instanceof Error ? e.message : String(e)}\nserver stderr (tail):\n${server.stderrTail()}`, { cause: e });
  } finally {
    await client?.close();
    await server.stop();
  }
}

export async function run(opts: BenchOptions): Promise<Metric[]> {
  const out: Metric[] = [];
  const wantRest = opts.wantsGroup('rest.') || opts.wantsGroup('server.');
  const wantMcp = opts.wants('mcp.stateless_run_js_p50_ms');
  const needPeer = opts.wants('rest.trivial_run_p50_ms') || opts.wants('rest.throughput_trivial_per_s') || wantMcp;
  if (!wantRest && !wantMcp) return out;
  const body = async (pool: WorkerPool | undefined): Promise<void> => {
    // One server at a time: on 2 cores a second idle server would still take memory and wake-ups.
    if (wantRest) await restMetrics(opts, pool, out);
    if (wantMcp) await mcpMetrics(opts, pool!, out);
  };
  if (needPeer) await withPool(WORKERS, body);
  else await body(undefined);
  return out;
}
