/**
 * Prints the catalogue table of docs/hostile-suite.md from a run of the hostile suite:
 *
 *   RUNJS_HOSTILE_REPORT=/tmp/hostile node --test test/hostile/hostile.test.ts
 *   node scripts/hostile-table.ts /tmp/hostile
 *
 * One row per entry: what it attacks, the expected status and text per engine, and what was
 * measured on each engine (status, the supervisor's VmHWM after the entry, its RSS rise).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGUE, type Expected } from '../test/hostile/catalogue.ts';
import type { EntryRecord } from '../test/hostile/run-catalogue.ts';
import type { EngineName } from '../shared/protocol.ts';

const dir = process.argv[2];
if (dir === undefined) {
  console.error('usage: node scripts/hostile-table.ts <RUNJS_HOSTILE_REPORT dir>');
  process.exit(2);
}
const ENGINES: readonly EngineName[] = ['v8', 'quickjs'];
const records = new Map<string, EntryRecord>();
for (const engine of ENGINES) {
  for (const r of JSON.parse(readFileSync(join(dir, `${engine}.json`), 'utf8')) as EntryRecord[]) records.set(`${engine}/${r.name}`, r);
}

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, '⏎');
const short = (s: string, max = 90): string => (s.length > max ? `${s.slice(0, max)}…` : s);

function expected(e: Expected): string {
  const text = e.error ?? e.result;
  const shown = text === undefined ? '' : typeof text === 'string' ? `\`${short(text)}\`` : `\`${short(String(text))}\``;
  return `${e.status}${shown === '' ? '' : ` ${shown}`}`;
}

function measured(r: EntryRecord | undefined): string {
  if (r === undefined) return '—';
  const rise = r.entryPeakMb - r.rssBeforeMb;
  const mark = r.problems.length > 0 ? ' ✗' : '';
  return `${r.status}${mark}, ${r.hwmAfterMb.toFixed(0)} MB (+${Math.max(0, rise).toFixed(0)})`;
}

console.log('| Entry | Attacks | Expected (V8) | Expected (QuickJS) | V8: status, VmHWM (rise) | QuickJS: status, VmHWM (rise) |');
console.log('|---|---|---|---|---|---|');
for (const e of CATALOGUE) {
  const flags = [e.dependsOn === undefined ? '' : ` ⏳ ${e.dependsOn}`, e.finding === undefined ? '' : ` ⚠ finding (${Object.keys(e.finding).join(', ')})`].join('');
  const v8 = expected(e.expect.v8);
  const qjs = expected(e.expect.quickjs);
  console.log(`| \`${e.name}\`${flags} | ${cell(e.attacks)} | ${cell(v8)} | ${cell(qjs === v8 ? 'same' : qjs)} | ${measured(records.get(`v8/${e.name}`))} | ${measured(records.get(`quickjs/${e.name}`))} |`);
}
