// Runs the hostile catalogue on one engine, one entry at a time, against a real server process
// (hostile-server.ts). For each entry:
//   1. the hostile run ends with the expected status, text and output;
//   2. the supervisor's peak RSS stays below SUPERVISOR_PEAK_BOUND_MB, and the entry raises it by
//      less than SUPERVISOR_RISE_BOUND_MB (both recorded per entry);
//   3. a benign run submitted right after it, on the other worker, completes with its exact output;
//   4. the next runs are clean: two benign runs at once (one per worker) see nothing the hostile
//      run set, and console, timers, JSON and crypto.subtle (the worker's thread pool) work.
// All four are checked and reported together. Entries with a finding or a pending fix run last,
// and an entry that may have left damage (a failed check beyond its own outcome, or a run that was
// stopped when it should have ended by itself) gets a fresh server before the next one, so what
// it broke (a worker, the supervisor's peak) does not fail the entries after it.
// Protocol floods from a worker itself are test/e2e/pool/untrusted-worker.test.ts.
import { test, before, after, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineName } from '../../shared/protocol.ts';
import { EXECUTION_ERRORS } from '../../shared/errors.ts';
import { CATALOGUE, type Expected, type HostileScript, type Text } from './catalogue.ts';
import { HostileServer, SUPERVISOR_PEAK_BOUND_MB, SUPERVISOR_RISE_BOUND_MB, type ExecutionInfo } from './hostile-server.ts';

/** Submitted right after the hostile run: it must complete meanwhile. */
const ALONGSIDE = {
  code: 'console.log("alongside", [1, 2, 3].map((x) => x * 2).join(","));\nawait new Promise((r) => setTimeout(r, 20));\n"done"',
  output: 'alongside 2,4,6\n',
  result: '"done"',
};

/** Run twice at once after the hostile run. The timer keeps both runs busy so each takes a worker. */
const CLEAN = {
  code: [
    'const leaked = ["__hostile", "__hostileKeep", "polluted"].filter((k) => k in globalThis);',
    'console.log("clean", JSON.stringify({ leaked, random: Math.random() < 1 }));',
    'await new Promise((r) => setTimeout(r, 50));',
    'const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode("abc")));',
    'console.info(digest.length, digest[0]);',
    '[1, 2, 3].map((x) => x * 2)',
  ].join('\n'),
  options: { execution_timeout_secs: 5 },
  output: 'clean {"leaked":[],"random":true}\n[INFO] 32 186\n',
  result: '[2,4,6]',
};

/** How often the supervisor's RSS is sampled during an entry (VmHWM alone can miss a peak). */
const SAMPLE_MS = 20;

export interface EntryRecord {
  readonly name: string;
  readonly engine: EngineName;
  readonly status: string;
  readonly text: string;
  readonly ms: number;
  /** The supervisor's VmHWM before and after the entry (a lifetime peak). */
  readonly hwmBeforeMb: number;
  readonly hwmAfterMb: number;
  /** VmRSS just before the entry, and the highest VmRSS sampled during it. */
  readonly rssBeforeMb: number;
  readonly entryPeakMb: number;
  readonly problems: readonly string[];
}

const mb = (n: number): string => n.toFixed(1);

function matches(actual: string | null, expected: Text): boolean {
  return actual !== null && (typeof expected === 'string' ? actual === expected : expected.test(actual));
}

function show(s: string | null, max = 300): string {
  if (s === null) return 'null';
  return JSON.stringify(s.length > max ? `${s.slice(0, max)}… (${s.length} chars)` : s);
}

/** Collects failed checks instead of stopping at the first. */
class Checks {
  readonly problems: string[] = [];

  async check(what: string, fn: () => void | Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (e) {
      this.problems.push(`${what}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

async function checkOutcome(server: HostileServer, info: ExecutionInfo, expected: Expected): Promise<void> {
  assert.ok(info.status === expected.status, `status ${info.status}, expected ${expected.status} (error ${show(info.error)}, result ${show(info.result)})`);
  if (expected.error !== undefined) assert.ok(matches(info.error, expected.error), `error ${show(info.error)}, expected ${String(expected.error)}`);
  if (expected.result !== undefined) assert.ok(matches(info.result, expected.result), `result ${show(info.result)}, expected ${String(expected.result)}`);
  const want = expected.output ?? { exact: '' };
  const head = await server.output(info.execution_id);
  if (want.exact !== undefined) assert.ok(head.data === want.exact && head.total_bytes === Buffer.byteLength(want.exact), `output ${show(head.data)} (${head.total_bytes} bytes), expected ${show(want.exact)}`);
  if (want.totalBytes !== undefined) assert.equal(head.total_bytes, want.totalBytes, 'output bytes');
  if (want.totalLines !== undefined) assert.equal(head.total_lines, want.totalLines, 'output lines');
  if (want.endsWith !== undefined) {
    const tail = await server.output(info.execution_id, Math.max(0, head.total_bytes - want.endsWith.length), want.endsWith.length);
    assert.equal(tail.data, want.endsWith, 'the end of the output');
  }
}

async function checkBenign(server: HostileServer, info: ExecutionInfo, want: { output: string; result: string }): Promise<void> {
  assert.ok(info.status === 'completed' && info.result === want.result, `status ${info.status}, result ${show(info.result)}, error ${show(info.error)}`);
  const page = await server.output(info.execution_id);
  assert.equal(page.data, want.output, 'output');
}

/** Samples the supervisor's RSS until stopped; returns the highest value seen. */
function sampleRss(server: HostileServer): () => number {
  let peak = server.memory().rssMb;
  const timer = setInterval(() => { peak = Math.max(peak, server.memory().rssMb); }, SAMPLE_MS);
  return () => {
    clearInterval(timer);
    return Math.max(peak, server.memory().rssMb);
  };
}

interface EntryResult {
  readonly problems: readonly string[];
  /** The entry may have left damage behind (a worker or the supervisor): the next one needs a fresh server. */
  readonly damaged: boolean;
}

/** Runs one entry and returns its failed checks. */
async function runEntry(t: TestContext, server: HostileServer, entry: HostileScript, records: EntryRecord[]): Promise<EntryResult> {
  const expected = entry.expect[server.engine];
  for (const [key, bytes] of Object.entries(entry.artifacts ?? {})) await server.upload(key, bytes);
  const checks = new Checks();
  const { peakMb: hwmBefore, rssMb: rssBefore } = server.memory();
  const stopSampling = sampleRss(server);
  const t0 = performance.now();

  const hostileId = await server.submit(`globalThis.__hostile = ${JSON.stringify(entry.name)};\n${entry.code}`, entry.options);
  const alongsideId = await server.submit(ALONGSIDE.code);
  const [hostile, alongside] = await Promise.all([server.settle(hostileId, entry.options), server.settle(alongsideId)]);
  const ms = performance.now() - t0;

  await checks.check('the hostile run', () => checkOutcome(server, hostile, expected));
  const outcomeFailed = checks.problems.length > 0;
  await checks.check('the run alongside', () => checkBenign(server, alongside, ALONGSIDE));
  const cleans = await Promise.all([server.submit(CLEAN.code, CLEAN.options), server.submit(CLEAN.code, CLEAN.options)]);
  for (const [i, id] of cleans.entries()) {
    await checks.check(`clean run ${i + 1} after it`, async () => checkBenign(server, await server.settle(id, CLEAN.options), CLEAN));
  }

  const sampled = stopSampling();
  const hwmAfter = server.memory().peakMb;
  // A VmHWM that rose during the entry was reached during it.
  const entryPeak = Math.max(sampled, hwmAfter > hwmBefore ? hwmAfter : 0);
  const bound = SUPERVISOR_PEAK_BOUND_MB[server.engine];
  await checks.check('the supervisor\'s memory', () => {
    assert.ok(hwmAfter < bound && entryPeak < bound, `peak RSS ${mb(Math.max(hwmAfter, entryPeak))} MB, bound ${bound} MB (VmHWM ${mb(hwmBefore)} MB before the entry)`);
    assert.ok(entryPeak - rssBefore < SUPERVISOR_RISE_BOUND_MB, `the entry raised the RSS by ${mb(entryPeak - rssBefore)} MB (${mb(rssBefore)} → ${mb(entryPeak)}), bound ${SUPERVISOR_RISE_BOUND_MB} MB`);
  });

  const text = hostile.status === 'completed' ? `result ${show(hostile.result, 80)}` : show(hostile.error, 80);
  records.push({ name: entry.name, engine: server.engine, status: hostile.status, text, ms: Math.round(ms), hwmBeforeMb: hwmBefore, hwmAfterMb: hwmAfter, rssBeforeMb: rssBefore, entryPeakMb: entryPeak, problems: checks.problems });
  t.diagnostic(`${hostile.status} ${text}; ${Math.round(ms)} ms; supervisor VmHWM ${mb(hwmBefore)} → ${mb(hwmAfter)} MB, RSS ${mb(rssBefore)} → peak ${mb(entryPeak)} MB (bounds ${bound} MB, +${SUPERVISOR_RISE_BOUND_MB} MB)`);
  // Beyond its own outcome, a failed check means something outlived the run; so may a run that was
  // stopped (at its time limit, or by the memory watchdog) when it should have ended by itself:
  // host work it started (a key derivation on the thread pool) can go on and hurt later runs.
  const stopped = hostile.status === 'timed_out' || hostile.error === EXECUTION_ERRORS.OUT_OF_MEMORY;
  const unexpectedStop = outcomeFailed && stopped;
  return { problems: checks.problems, damaged: checks.problems.length > (outcomeFailed ? 1 : 0) || unexpectedStop };
}

/** Entries everyone expects to pass first; pending fixes, then known findings, last. */
function runOrder(entries: readonly HostileScript[], engine: EngineName): HostileScript[] {
  const rank = (e: HostileScript): number => (e.finding?.[engine] !== undefined ? 2 : e.dependsOn !== undefined ? 1 : 0);
  return [...entries].sort((a, b) => rank(a) - rank(b));
}

/**
 * Declares one test per catalogue entry on `engine`, to run one after another (call it inside a
 * describe with concurrency 1). Entries with a finding are skipped, naming it, unless
 * RUNJS_HOSTILE_FINDINGS=1 (then they run as todos). RUNJS_HOSTILE_ONLY=<name>,<name> runs only
 * those entries; RUNJS_HOSTILE_REPORT=<dir> writes what was measured to <dir>/<engine>.json.
 */
export function runCatalogue(engine: EngineName): void {
  const server = new HostileServer(engine);
  const records: EntryRecord[] = [];
  /** Set when an entry may have left damage: the next one starts on a fresh server. */
  let damaged = false;
  before(() => server.start());
  after(async () => {
    await server.stop();
    const dir = process.env['RUNJS_HOSTILE_REPORT'];
    if (dir !== undefined && dir !== '') {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${engine}.json`), `${JSON.stringify(records, null, 1)}\n`);
    }
  });
  const only = (process.env['RUNJS_HOSTILE_ONLY'] ?? '').split(',').filter((n) => n !== '');
  const findings = process.env['RUNJS_HOSTILE_FINDINGS'] === '1';
  for (const entry of runOrder(CATALOGUE, engine)) {
    if (only.length > 0 && !only.includes(entry.name)) continue;
    const finding = entry.finding?.[engine];
    const name = `${entry.name} [${engine}]${entry.dependsOn === undefined ? '' : ` [depends on ${entry.dependsOn}]`}`;
    // A todo never fails the suite, so running findings by default would only cost time.
    const options = finding === undefined ? {} : findings ? { todo: `finding: ${finding}` } : { skip: `finding (RUNJS_HOSTILE_FINDINGS=1 runs it): ${finding}` };
    // Beyond the harness's default (120 s) when the entry's own run may take longer on a loaded
    // machine: its timeout plus two minutes for the clean runs and a restart.
    const timeout = Math.max(120, (entry.options?.execution_timeout_secs ?? 0) + 120) * 1000;
    test(name, { ...options, timeout }, async (t) => {
      if (damaged) await server.restart();
      damaged = true;
      const result = await runEntry(t, server, entry, records);
      damaged = result.damaged;
      if (result.problems.length > 0) assert.fail(result.problems.join('\n'));
    });
  }
}
