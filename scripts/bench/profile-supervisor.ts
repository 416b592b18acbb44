// Profiles the supervisor under REST load: starts the real server under `--cpu-prof`, drives it
// with N keep-alive clients in closed loops of POST /api/exec + long-poll GET (the
// rest.throughput_trivial_per_s load), reports the supervisor's CPU per run from /proc, stops it
// (the profile is written on exit), and prints the top self-time functions of the loaded window
// only (start-up excluded). Not a `*-bench.ts` module: a tool for docs/benchmarks.md.
//
// With --heap-steps N the load is instead N sequential `heap.stateful_step` steps (one client,
// `counter++` on ~400 KB of live state, each step from the previous step's key, as
// scripts/bench/heap-bench.ts drives them) on a `dir` heap store, and the CPU is per step.
//
//   node_modules/.bin/node scripts/bench/profile-supervisor.ts [--clients 32] [--seconds 10] [--top 25] [--heap-store] [--heap-steps N] [--keep dir] [--root other/checkout]
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { closedLoop, restRun } from './service-bench.ts';
import { cpuMs, freePort, HttpClient } from './service-rig.ts';

/**
 * CPU (ms) by thread kind and user/system, from /proc/<pid>/task/<tid>/stat: the V8 profile sees
 * only the main thread's JavaScript, while the libuv thread pool (fsync, mkdir), V8's GC helpers
 * and the kernel's share of every syscall are also the supervisor's CPU.
 */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try { stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'); } catch { continue; } // the thread ended
    const kind = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/\d+$/, '');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime in clock ticks (USER_HZ = 100).
    out.set(`${kind} user`, (out.get(`${kind} user`) ?? 0) + Number(f[11]) * 10);
    out.set(`${kind} system`, (out.get(`${kind} system`) ?? 0) + Number(f[12]) * 10);
  }
  return out;
}

const HERE = fileURLToPath(new URL('../../', import.meta.url));

interface ProfileNode {
  readonly id: number;
  readonly children?: readonly number[];
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}
interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '32' },
    seconds: { type: 'string', default: '10' },
    top: { type: 'string', default: '25' },
    'heap-store': { type: 'boolean', default: false },
    'heap-steps': { type: 'string' },
    keep: { type: 'string' },
    // perf record of the window too (CPU cycles actually spent, not wall time: on a loaded
    // machine the V8 profile charges time the process sat preempted to whatever it was running).
    perf: { type: 'boolean', default: false },
    // Another checkout's server (an A/B against a base commit), profiled by this script.
    root: { type: 'string' },
  },
});
const ROOT = values.root === undefined ? HERE : `${values.root.replace(/\/$/, '')}/`;
const heapSteps = values['heap-steps'] === undefined ? 0 : Number(values['heap-steps']);
const clients = heapSteps > 0 ? 1 : Number(values.clients);
const seconds = Number(values.seconds);

const dir = values.keep ?? mkdtempSync(join(tmpdir(), 'runjs-prof-'));
const port = await freePort();
const args = [...(values.perf ? ['--perf-basic-prof'] : []), '--cpu-prof', '--cpu-prof-dir', join(dir, 'prof'), join(ROOT, 'supervisor/main.ts'), '--http-port', String(port), '--bind-host', '127.0.0.1',
  '--max-concurrent-executions', '2', '--session-db-path', join(dir, 'db'), ...(values['heap-store'] || heapSteps > 0 ? ['--heap-store', 'dir', '--heap-dir', join(dir, 'heaps'), '--heap-memory-max', '64'] : [])];
const proc = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: { PATH: process.env['PATH'] ?? '' } });
let stderr = '';
proc.stderr.setEncoding('utf8');
const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
await new Promise<void>((resolve, reject) => {
  proc.stderr.on('data', (c: string) => { stderr += c; if (stderr.includes('runjs: listening:')) resolve(); });
  void exited.then(() => reject(new Error(`server exited:\n${stderr}`)));
});
const spawnedAt = performance.now();
const http = new HttpClient(port, clients);
/** One heap step over REST to completion (POST, then long-poll GET), as heap-bench.ts's `step`. */
async function heapStep(code: string, heap?: string): Promise<string> {
  const posted = await http.request('POST', '/api/exec', heap === undefined ? { code } : { code, heap });
  if (posted.status !== 202) throw new Error(`POST /api/exec: ${posted.status} ${JSON.stringify(posted.json)}`);
  const id = (posted.json as { execution_id: string }).execution_id;
  for (;;) {
    const info = (await http.request('GET', `/api/executions/${id}?wait_ms=10000`)).json as { status: string; heap: string | null };
    if (info.status === 'running') continue;
    if (info.status !== 'completed' || info.heap === null) throw new Error(`heap step: ${JSON.stringify(info)}`);
    return info.heap;
  }
}
let heapKey = '';
if (heapSteps > 0) {
  heapKey = await heapStep(`globalThis.counter = 0; globalThis.rows = Array.from({ length: 4000 }, (_, i) => ({ id: i, name: 'row ' + i, tags: ['a', 'b'] })); 0`);
  for (let i = 0; i < 20; i++) heapKey = await heapStep('counter++', heapKey); // warm-up, not profiled below
} else {
  await closedLoop(clients, 0, 2000, (i) => restRun(http, i)); // warm-up, not profiled below
}
const from = performance.now();
const perfData = join(dir, 'perf.data');
const perf = values.perf ? spawn('perf', ['record', '-q', '-F', '997', '-g', '-o', perfData, '-p', String(proc.pid)], { stdio: 'ignore' }) : undefined;
const cpu0 = cpuMs(proc.pid!);
const threads0 = threadCpu(proc.pid!);
const { total, perSecond } = heapSteps > 0
  ? await (async () => { for (let i = 0; i < heapSteps; i++) heapKey = await heapStep('counter++', heapKey); return { total: heapSteps, perSecond: [] as number[] }; })()
  : await closedLoop(clients, 0, seconds * 1000, (i) => restRun(http, i + 1_000_000));
const cpu1 = cpuMs(proc.pid!);
const threads1 = threadCpu(proc.pid!);
const until = performance.now();
if (perf) {
  perf.kill('SIGINT');
  await new Promise((resolve) => perf.once('exit', resolve));
}
http.close();
proc.kill('SIGTERM');
await exited;

const file = readdirSync(join(dir, 'prof')).find((f) => f.endsWith('.cpuprofile'));
if (file === undefined) throw new Error(`no profile in ${dir}`);
const profile = JSON.parse(readFileSync(join(dir, 'prof', file), 'utf8')) as CpuProfile;
// Sample times are relative to the profile's start (≈ the process start, before `listening`);
// the loaded window starts `from - spawnedAt` ms after `listening`, so skip everything before
// the end of start-up plus that offset (start-up is at least everything up to `listening`).
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const labelOf = (f: ProfileNode['callFrame']): string =>
  `${f.functionName || '(anonymous)'}${f.url === '' ? '' : ` ${f.url.replace(`file://${ROOT}`, '')}:${f.lineNumber + 1}`}`;
/** Inclusive time: every distinct function on a sample's stack. */
const inclusive = new Map<string, number>();
let t = 0;
const firstListening = (() => {
  // The first sample of a request handler marks roughly when `listening` was printed.
  let at = 0;
  for (let k = 0; k < profile.samples.length; k++) {
    at += profile.timeDeltas[k]!;
    const fn = nodes.get(profile.samples[k]!)!.callFrame.functionName;
    if (fn === 'parserOnIncoming' || fn === 'parserOnHeadersComplete') return at;
  }
  return 0;
})();
const windowStart = firstListening + (from - spawnedAt) * 1000;
const windowEnd = firstListening + (until - spawnedAt) * 1000;
const self = new Map<string, number>();
/** Self time by where the code lives: a package, Node's internals by module, runjs's own by directory. */
const byArea = new Map<string, number>();
function areaOf(url: string, fn: string): string {
  if (url === '') return fn.startsWith('(') ? fn : 'native (syscalls, sqlite, hashing, ...)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return `package ${pkg[1]}`;
  if (url.startsWith('node:')) return url.replace(/^node:(internal\/)?/, 'node ').replace(/\/.*$/, '').replace(/_.*$/, '');
  const own = /(supervisor|shared)\/[^/]+/.exec(url);
  return own ? own[0] : url;
}
let busy = 0;
for (let k = 0; k < profile.samples.length; k++) {
  t += profile.timeDeltas[k]!;
  if (t < windowStart || t > windowEnd) continue;
  const dt = profile.timeDeltas[k + 1] ?? 0;
  const f = nodes.get(profile.samples[k]!)!.callFrame;
  if (f.functionName === '(idle)') continue;
  const key = labelOf(f);
  const onStack = new Set<string>();
  for (let id: number | undefined = profile.samples[k]; id !== undefined; id = parent.get(id)) onStack.add(labelOf(nodes.get(id)!.callFrame));
  for (const l of onStack) inclusive.set(l, (inclusive.get(l) ?? 0) + dt);
  self.set(key, (self.get(key) ?? 0) + dt);
  const area = areaOf(f.url, f.functionName);
  byArea.set(area, (byArea.get(area) ?? 0) + dt);
  busy += dt;
}
const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top));
const out = process.stdout;
out.write(`${total} runs in ${((until - from) / 1000).toFixed(1)} s ${heapSteps > 0 ? '(sequential heap steps)' : `with ${clients} clients (${perSecond.join(', ')} runs/s per second)`}; load ${readFileSync('/proc/loadavg', 'utf8').trim()}\n`);
out.write(`supervisor CPU ${(cpu1 - cpu0).toFixed(0)} ms = ${((cpu1 - cpu0) / total).toFixed(2)} ms/run (/proc); profiled busy ${(busy / 1000).toFixed(0)} ms = ${(busy / 1000 / total).toFixed(2)} ms/run\n`);
out.write(`by thread (/proc, ms/run): ${[...threads1].map(([k, v]) => [k, (v - (threads0.get(k) ?? 0)) / total] as const).filter(([, v]) => v > 0)
  .sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}\n`);
out.write(`window ${(until - from).toFixed(0)} ms; top self time:\n`);
for (const [k, us] of top) out.write(`  ${(us / 1000).toFixed(0).padStart(6)} ms ${((us / busy) * 100).toFixed(1).padStart(5)} %  ${k}\n`);
out.write('inclusive time:\n');
for (const [k, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) out.write(`  ${(us / 1000).toFixed(0).padStart(6)} ms ${((us / busy) * 100).toFixed(1).padStart(5)} %  ${k}\n`);
out.write('self time by area:\n');
for (const [k, us] of [...byArea].sort((a, b) => b[1] - a[1]).slice(0, 20)) out.write(`  ${(us / 1000).toFixed(0).padStart(6)} ms ${((us / busy) * 100).toFixed(1).padStart(5)} %  ${k}\n`);
if (perf) {
  const report = spawnSync('perf', ['report', '-i', perfData, '--stdio', '--no-children', '--sort', 'dso,sym', '--percent-limit', '0.6', '-g', 'none'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  out.write(`perf (CPU cycles of the supervisor in the window, self):\n${report.stdout.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#')).join('\n')}\n`);
}
if (values.keep === undefined) rmSync(dir, { recursive: true, force: true });
