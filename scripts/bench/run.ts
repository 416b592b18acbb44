// `npm run bench [-- --json] [--only <prefix>] [--quick]`: runs every `scripts/bench/*-bench.ts`
// module in name order and prints its metrics — a table for people, or with --json exactly one
// JSON document on stdout ({"metrics": [...]}); progress goes to stderr. A module that throws is
// reported on stderr and the others still run (exit code 1 then, with the remaining metrics
// printed). Figures are never judged here: benchmarks report, they do not fail.
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { moduleSelected, metricProblem, selected, type BenchModule, type BenchOptions, type Metric } from './bench-kit.ts';

const USAGE = `usage: npm run bench -- [--json] [--only <prefix>]... [--quick]

  --json            print one JSON document {"metrics":[...]} on stdout (progress on stderr)
  --only <prefix>   run only metrics whose name starts with <prefix> (repeatable, or comma-separated)
  --quick           tiny iteration counts: checks the harness, the figures mean nothing
                    (also RUNJS_BENCH_QUICK=1)
`;

interface Args {
  json: boolean;
  quick: boolean;
  only: string[];
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { json: false, quick: process.env['RUNJS_BENCH_QUICK'] === '1', only: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--json') args.json = true;
    else if (a === '--quick') args.quick = true;
    else if (a === '--only' || a.startsWith('--only=')) {
      const value = a === '--only' ? argv[++i] : a.slice('--only='.length);
      if (value === undefined || value === '') throw new Error('--only needs a metric-name prefix');
      args.only.push(...value.split(',').map((s) => s.trim()).filter((s) => s !== ''));
    } else if (a === '--help' || a === '-h') {
      process.stdout.write(USAGE);
      process.exit(0);
    } else {
      throw new Error(`unknown argument '${a}'\n${USAGE}`);
    }
  }
  return args;
}

const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url));

/** The bench modules, in file-name order. */
function discover(): string[] {
  return readdirSync(BENCH_DIR).filter((f) => f.endsWith('-bench.ts')).sort();
}

function isBenchModule(m: unknown): m is BenchModule {
  return typeof m === 'object' && m !== null && typeof (m as { run?: unknown }).run === 'function';
}

function formatNumber(n: number): string {
  return Math.abs(n) >= 1000 ? Math.round(n).toString() : String(n);
}

function table(metrics: readonly Metric[]): string {
  const header = ['metric', 'median', 'unit', 'runs', 'peer', 'ratio'];
  const rows = metrics.map((m) => [
    m.name,
    formatNumber(m.median),
    m.unit,
    String(m.runs),
    m.peer ? `${m.peer.name} ${formatNumber(m.peer.median)}` : '',
    m.ratio !== undefined ? `${m.ratio}x` : '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const right = new Set([1, 3, 5]);
  const line = (cells: readonly string[]): string => cells.map((c, i) => (right.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

async function main(): Promise<void> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(2);
  }
  const log = (line: string): void => { process.stderr.write(`${line}\n`); };
  // Keep stdout for the report alone: a stray console.log in a module goes to stderr.
  const stdoutLog = console.log;
  console.log = console.info = console.debug = (...a: unknown[]) => console.error(...a);

  const opts: BenchOptions = {
    quick: args.quick,
    only: args.only,
    wants: (name) => selected(name, args.only),
    wantsGroup: (prefix) => moduleSelected([prefix], args.only),
    log,
    count: (full, quick) => (args.quick ? quick : full),
  };
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  log(`runjs bench: node ${process.version}, ${availableParallelism()} cores (${cpu})${args.quick ? ', QUICK mode (figures mean nothing)' : ''}${args.only.length ? `, only ${args.only.join(', ')}` : ''}`);
  const load = (): string => loadavg().map((l) => l.toFixed(2)).join(' ');
  log(`load average at start: ${load()}`);
  if (loadavg()[0]! > 1) log('WARNING: other processes keep this machine busy; latency and throughput figures will be noisy and slow');

  const metrics: Metric[] = [];
  let failed = false;
  const started = performance.now();
  for (const file of discover()) {
    let mod: unknown;
    try {
      mod = await import(pathToFileURL(`${BENCH_DIR}${file}`).href);
    } catch (e) {
      log(`bench ${file}: cannot load: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
      failed = true;
      continue;
    }
    if (!isBenchModule(mod)) {
      log(`bench ${file}: no exported run(opts) function; skipped`);
      continue;
    }
    if (mod.metricPrefixes && !moduleSelected(mod.metricPrefixes, args.only)) continue;
    const t0 = performance.now();
    log(`bench ${file} ...`);
    try {
      const produced: unknown = await mod.run(opts);
      if (!Array.isArray(produced)) throw new Error('run() did not return an array of metrics');
      for (const m of produced) {
        const problem = metricProblem(m);
        if (problem !== undefined) {
          log(`bench ${file}: dropped a malformed metric (${problem}): ${JSON.stringify(m)}`);
          continue;
        }
        if (opts.wants((m as Metric).name)) metrics.push(m as Metric);
      }
      log(`bench ${file}: done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    } catch (e) {
      failed = true;
      log(`bench ${file}: FAILED: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
    }
  }
  log(`runjs bench: ${metrics.length} metrics in ${((performance.now() - started) / 1000).toFixed(1)} s; load average at end: ${load()}`);

  console.log = stdoutLog;
  const report = args.json ? `${JSON.stringify({ metrics })}\n` : `${table(metrics)}\n`;
  // Exit once the report is written, even if a module left a handle open.
  process.stdout.write(report, () => process.exit(failed ? 1 : 0));
}

await main();
