// Where a trivial run's time goes: `node scripts/bench/profile-trivial.ts [--spaced]`.
// Times each stage of the worker's path on its own, in this process (the IPC hop with a forked
// echo child), next to the end-to-end figure through the pool, so the remainder (wake-ups,
// scheduling, the worker's own bookkeeping) is visible. With --spaced every sample follows
// 10 ms of idleness, as a lone request does; otherwise samples run back to back (hot caches).
// A diagnostic, not a bench module: it reports on stdout and returns no metrics.
import { fork } from 'node:child_process';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transpile } from '../../worker/source/transpile.ts';
import { wrapMain } from '../../worker/source/wrap-main.ts';
import { V8Engine } from '../../worker/engines/v8/v8-engine.ts';
import type { GuestRealm, HostCall } from '../../worker/engine.ts';
import { WorkerPool } from '../../supervisor/pool/worker-pool.ts';
import { median, quantile, sampleLoop, sleep } from './bench-kit.ts';

const spaced = process.argv.includes('--spaced');
const SAMPLES = 200;
const WARMUP = 30;

/** Times `fn` per sample; `setup` (untimed) prepares what the sample consumes. */
async function timed<T>(fn: (input: T, i: number) => Promise<unknown> | unknown, setup?: () => Promise<T> | T): Promise<number[]> {
  return sampleLoop(async (i) => {
    const input = (setup ? await setup() : undefined) as T;
    if (spaced) await sleep(10);
    const t0 = performance.now();
    await fn(input, i);
    return performance.now() - t0;
  }, { warmup: WARMUP, iterations: SAMPLES });
}

const rows: [string, number[]][] = [];
const row = (name: string, samples: number[]): void => { rows.push([name, samples]); };

// 1. The IPC hop: a run-sized message to a child with the worker's serialisation, and a result back.
{
  const dir = mkdtempSync(join(tmpdir(), 'runjs-profile-'));
  const echo = join(dir, 'echo.mjs');
  writeFileSync(echo, "process.on('message', (m) => process.send({ type: 'result', runId: m.runId, outcome: { status: 'completed', result: '2' } }));\nprocess.on('disconnect', () => process.exit(0));\nprocess.send({ type: 'ready' });\n");
  const child = fork(echo, [], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  await new Promise((r) => child.once('message', r));
  row('IPC round trip (run message → result message)', await timed(async (_, i) => {
    const answered = new Promise((r) => child.once('message', r));
    child.send({ type: 'run', runId: `run-${i}`, code: `${i} + 1`, engine: 'v8', heapMemoryMaxMb: 8, timeoutMs: 30_000, maxOutputBytes: 1 << 20 });
    await answered;
  }));
  child.kill();
  rmSync(dir, { recursive: true, force: true });
}

// 2–3. Source preparation, exactly as the run loop does it.
row('transform of a plain script (plain-module.ts check, no esbuild)', await timed((_, i) => transpile(`${i} + 1`, 'main.ts')));
row('esbuild transform of TypeScript (worker/source/transpile.ts)', await timed((_, i) => transpile(`const x: number = ${i}; x`, 'main.ts')));
const js = await transpile('1 + 1', 'main.ts');
row('acorn parse + wrap (worker/source/wrap-main.ts)', await timed(() => wrapMain(js)));

// 4–7. The engine: realm boot, the main module through to its settlement, disposal, host calls.
const engine = new V8Engine();
let onSettle: () => void = () => {};
const hostCall: HostCall = (op) => {
  if (op === 'run.settle') onSettle();
  if (op === 'clock.now') return `v${Date.now()}`;
  return 'v';
};
const noImports = (s: string): string => { throw new Error(`unexpected import ${s}`); };
// A limit with no spare realm: every createRealm boots a fresh isolate on the caller's path.
const boot = (): Promise<GuestRealm> => engine.createRealm({ memoryLimitMb: 9, hostCall });
// The engine builds its prelude snapshot once it has been idle a moment after the first boot.
(await boot()).dispose();
await sleep(500);
row('realm boot (isolate from the prelude snapshot + context + host binding)', await timed(async () => { (await boot()).dispose(); }));

async function runIn(realm: GuestRealm, source: string): Promise<void> {
  const settled = new Promise<void>((r) => { onSettle = r; });
  await realm.runMain(source, 'file:///main.js', noImports);
  await settled;
}
const trivialWrapped = wrapMain(js).source;
row('main module compile/link/evaluate + guest run + run.settle callback', await timed(async (realm) => { await runIn(realm, trivialWrapped); realm.dispose(); }, boot));
row('realm dispose', await timed((realm) => realm.dispose(), async () => { const r = await boot(); await runIn(r, trivialWrapped); return r; }));
const CALLS = 200;
const chatty = wrapMain(await transpile(`for (let i = 0; i < ${CALLS}; i++) console.log(i); 1`, 'main.ts')).source;
const chattyMs = await timed(async (realm) => { await runIn(realm, chatty); realm.dispose(); }, boot);

// End to end through the real pool, for comparison (each source distinct, like the bench).
const pool = new WorkerPool({ size: 1, maxQueued: 100, log: (l) => process.stderr.write(`${l}\n`) });
await pool.ready();
const e2e = await timed(async (_, i) => {
  const o = await pool.submit({ code: `${i} + 1`, engine: 'v8', heapMemoryMaxMb: 8, timeoutMs: 30_000, maxOutputBytes: 1 << 20, onOutput: () => {} }).outcome;
  if (o.status !== 'completed') throw new Error(JSON.stringify(o));
});
await pool.close();

const fmt = (n: number): string => n.toFixed(3).padStart(8);
const width = Math.max(...rows.map(([n]) => n.length), 60);
console.log(`trivial-run profile (${spaced ? '10 ms idle before each sample' : 'back to back'}; ${SAMPLES} samples; ms: p25 / median / p75)\n`);
for (const [name, s] of rows) console.log(`${name.padEnd(width)} ${fmt(quantile(s, 0.25))} ${fmt(median(s))} ${fmt(quantile(s, 0.75))}`);
const perCall = (median(chattyMs) - median(rows.find(([n]) => n.startsWith('main module'))![1])) / CALLS;
console.log(`${'per console.log host call (200 calls vs none)'.padEnd(width)} ${fmt(perCall)}`);
console.log(`\n${'end to end through the pool (1 worker, submit → outcome)'.padEnd(width)} ${fmt(quantile(e2e, 0.25))} ${fmt(median(e2e))} ${fmt(quantile(e2e, 0.75))}`);
const onPath = ['IPC', 'transform of a plain', 'acorn', 'main module'];
const sum = rows.filter(([n]) => onPath.some((p) => n.startsWith(p))).reduce((a, [, s]) => a + median(s), 0);
console.log(`${'sum of the stages on a warm-realm path (IPC, plain check, wrap, module+run)'.padEnd(width)} ${fmt(sum)}`);
console.log(`${'remainder: realm wait, wake-ups, worker bookkeeping'.padEnd(width)} ${fmt(median(e2e) - sum)}`);
process.exit(0);
