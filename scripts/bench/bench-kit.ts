// The benchmark kit: the metric shape every bench module returns, the options `run.ts` hands
// them, and the small statistics and timing helpers they share. A bench module is a file
// `scripts/bench/<area>-bench.ts` that exports
//
//   export async function run(opts: BenchOptions): Promise<Metric[]>
//   export const metricPrefixes = ['area.']   // optional: lets `--only` skip the module unopened
//
// Benchmarks measure and report; they never assert a figure and never fail a test run.

import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** One reported figure. `median` is in `unit`; `peer` is the same quantity measured on a reference. */
export interface Metric {
  readonly name: string;
  readonly median: number;
  readonly unit: string;
  /** How many samples the median is taken over. */
  readonly runs: number;
  readonly peer?: { readonly name: string; readonly median: number };
  /** This metric relative to its peer (subject / peer), the median of per-round ratios where paired. */
  readonly ratio?: number;
}

export interface BenchOptions {
  /** Tiny iteration counts: proves the harness works; the figures mean nothing. */
  readonly quick: boolean;
  /** Metric-name prefixes selected with `--only` (empty: everything). */
  readonly only: readonly string[];
  /** Whether metric `name` is selected; modules skip the work of unselected metrics. */
  wants(name: string): boolean;
  /** Whether some metric whose name starts with `prefix` may be selected (to skip a whole group's setup). */
  wantsGroup(prefix: string): boolean;
  /** A progress line (stderr: stdout carries only the report). */
  log(line: string): void;
  /** `full` normally, `quick` in quick mode. */
  count(full: number, quick: number): number;
}

export type BenchRun = (opts: BenchOptions) => Promise<Metric[]>;

/** What `run.ts` expects of a `*-bench.ts` module. */
export interface BenchModule {
  readonly run: BenchRun;
  readonly metricPrefixes?: readonly string[];
}

// --- statistics ---

/** The median (mean of the middle two for an even count); NaN for no values. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The q-quantile (0..1) by nearest rank; NaN for no values. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1));
  return s[i]!;
}

/**
 * The median of per-round ratios subject[i] / peer[i]: pairs measured in the same round share
 * the machine's state at that moment, so the ratio is steadier than median(subject)/median(peer).
 */
export function medianRatio(subject: readonly number[], peer: readonly number[]): number {
  if (subject.length !== peer.length) throw new Error(`medianRatio: ${subject.length} subject samples but ${peer.length} peer samples`);
  const ratios: number[] = [];
  for (let i = 0; i < subject.length; i++) ratios.push(subject[i]! / peer[i]!);
  return median(ratios);
}

/** Rounds to a few significant digits for reports (keeps small latencies readable). */
export function roundFigure(n: number): number {
  if (!Number.isFinite(n) || n === 0) return n;
  const digits = Math.max(0, 3 - Math.floor(Math.log10(Math.abs(n))));
  const f = 10 ** Math.min(digits, 6);
  return Math.round(n * f) / f;
}

// --- metric constructors ---

/** A metric whose figure is the median of `samples`. */
export function metric(name: string, unit: string, samples: readonly number[]): Metric {
  return { name, median: roundFigure(median(samples)), unit, runs: samples.length };
}

/** A metric compared with a peer measured round by round (same length sample lists). */
export function comparedMetric(name: string, unit: string, samples: readonly number[], peerName: string, peerSamples: readonly number[]): Metric {
  return {
    name,
    median: roundFigure(median(samples)),
    unit,
    runs: samples.length,
    peer: { name: peerName, median: roundFigure(median(peerSamples)) },
    ratio: roundFigure(medianRatio(samples, peerSamples)),
  };
}

// --- timing loops ---

export interface LoopOptions {
  /** Runs first and discarded (JIT, caches, pools settle). */
  readonly warmup: number;
  /** Samples kept. */
  readonly iterations: number;
}

/**
 * Calls `sample` warmup + iterations times, one after another, and returns the kept samples.
 * `sample` returns its own measurement (a duration it timed, a rate, ...).
 */
export async function sampleLoop(sample: (i: number) => Promise<number> | number, opts: LoopOptions): Promise<number[]> {
  for (let i = 0; i < opts.warmup; i++) await sample(i);
  const out: number[] = [];
  for (let i = 0; i < opts.iterations; i++) out.push(await sample(opts.warmup + i));
  return out;
}

/** Times `fn` (wall clock, ms) warmup + iterations times, sequentially; returns the kept durations. */
export async function timeLoop(fn: (i: number) => Promise<unknown> | unknown, opts: LoopOptions): Promise<number[]> {
  return sampleLoop(async (i) => {
    const t0 = performance.now();
    await fn(i);
    return performance.now() - t0;
  }, opts);
}

export interface RoundRobinOptions {
  /** Whole rounds run first and discarded. */
  readonly warmup: number;
  readonly rounds: number;
}

/**
 * Runs every contender once per round, rotating which goes first so neither always follows the
 * other, and returns each contender's samples in round order (sample i of every contender comes
 * from round i, ready for medianRatio). Each contender returns its own measurement.
 */
export async function roundRobin<K extends string>(contenders: Readonly<Record<K, (round: number) => Promise<number> | number>>, opts: RoundRobinOptions): Promise<Record<K, number[]>> {
  const keys = Object.keys(contenders) as K[];
  const samples = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  const total = opts.warmup + opts.rounds;
  for (let round = 0; round < total; round++) {
    for (let j = 0; j < keys.length; j++) {
      const key = keys[(round + j) % keys.length]!;
      const value = await contenders[key](round);
      if (round >= opts.warmup) samples[key].push(value);
    }
  }
  return samples;
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Whether `name` is selected by the prefixes (none selects everything). */
export function selected(name: string, prefixes: readonly string[]): boolean {
  return prefixes.length === 0 || prefixes.some((p) => name.startsWith(p));
}

/** Whether a module whose metrics all start with one of `modulePrefixes` can produce a selected metric. */
export function moduleSelected(modulePrefixes: readonly string[], only: readonly string[]): boolean {
  if (only.length === 0) return true;
  return modulePrefixes.some((m) => only.some((p) => m.startsWith(p) || p.startsWith(m)));
}

/** Checks a value a module returned is a well-formed Metric; returns what is wrong, or undefined. */
export function metricProblem(m: unknown): string | undefined {
  if (typeof m !== 'object' || m === null) return 'not an object';
  const r = m as Record<string, unknown>;
  if (typeof r['name'] !== 'string' || r['name'] === '') return 'name must be a non-empty string';
  if (typeof r['median'] !== 'number' || !Number.isFinite(r['median'])) return 'median must be a finite number';
  if (typeof r['unit'] !== 'string') return 'unit must be a string';
  if (typeof r['runs'] !== 'number' || !Number.isInteger(r['runs']) || r['runs'] < 0) return 'runs must be a non-negative integer';
  if (r['peer'] !== undefined) {
    const p = r['peer'] as Record<string, unknown> | null;
    if (typeof p !== 'object' || p === null || typeof p['name'] !== 'string' || typeof p['median'] !== 'number' || !Number.isFinite(p['median'])) return 'peer must be {name, median}';
  }
  if (r['ratio'] !== undefined && (typeof r['ratio'] !== 'number' || !Number.isFinite(r['ratio']))) return 'ratio must be a finite number';
  return undefined;
}

/** Bytes of the files under `dir` (a store's growth between two readings); 0 for a directory not created yet. */
export function dirBytes(dir: string): number {
  let entries: string[];
  try {
    entries = readdirSync(dir, { recursive: true }) as string[];
  } catch {
    return 0;
  }
  let n = 0;
  for (const name of entries) {
    const s = statSync(join(dir, name));
    if (s.isFile()) n += s.size;
  }
  return n;
}
