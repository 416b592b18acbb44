/**
 * Human-facing wording derived from the table: the expected shape of a value
 * (shared by error messages and --help so they never disagree), how a
 * default reads, how a value source is named, and "did you mean" hints.
 */
import type { ValueSource } from './config-types.ts';
import { FLAGS } from './flag-table.ts';
import type { FlagSpec } from './flag-spec.ts';

export const SPECS: readonly FlagSpec[] = FLAGS;
export const SPEC_BY_NAME: ReadonlyMap<string, FlagSpec> = new Map(SPECS.map((s) => [s.name, s]));

const PORT_SHAPE = 'a TCP port number between 1 and 65535';

function rangeText(spec: FlagSpec): string {
  const { min, max } = spec;
  if (min !== undefined && max !== undefined) return ` between ${min} and ${max}`;
  if (min !== undefined) return ` >= ${min}`;
  if (max !== undefined) return ` <= ${max}`;
  return '';
}

const JSON_SHAPE_TEXT = { object: 'a JSON object', array: 'a JSON array', 'object-or-array': 'a JSON object or array' };

/** One value (or one list item) of this flag, as a noun phrase: "expected <shape>". */
export function expectedShape(spec: FlagSpec): string {
  const unit = spec.unit === undefined ? '' : ` (${spec.unit})`;
  switch (spec.kind) {
    case 'port':
      return PORT_SHAPE;
    case 'integer':
      return `an integer${rangeText(spec)}${unit}`;
    case 'boolean':
      return 'true or false';
    case 'enum':
      return `one of ${(spec.values ?? []).join(', ')}`;
    case 'size':
      return `a size in bytes${rangeText(spec)}, optionally with suffix k, m or g (e.g. 16m)`;
    case 'path':
      return 'a non-empty path';
    case 'url':
      return 'an absolute http(s) URL';
    case 'json-or-path':
      return `${JSON_SHAPE_TEXT[spec.jsonShape ?? 'object']} (inline, or a path to a JSON file)`;
    case 'list':
    case 'string':
      if (spec.shape !== undefined) return spec.shape;
      if (spec.metavar !== undefined && spec.pattern !== undefined) return `a value of the form ${spec.metavar}`;
      return 'a non-empty string';
  }
}

/** Placeholder shown after the flag in --help, e.g. `--http-port <PORT>`. */
export function metavarOf(spec: FlagSpec): string {
  if (spec.metavar !== undefined) return spec.metavar;
  switch (spec.kind) {
    case 'boolean':
      return '';
    case 'enum':
      return (spec.values ?? []).join('|');
    case 'port':
      return 'PORT';
    case 'integer':
      return spec.unit === undefined ? 'N' : spec.unit.toUpperCase();
    case 'size':
      return 'SIZE';
    case 'path':
      return 'PATH';
    case 'url':
      return 'URL';
    case 'json-or-path':
      return 'JSON|PATH';
    case 'list':
    case 'string':
      return 'VALUE';
  }
}

/** 16777216 → `16m`: sizes read back in the units people type. */
export function formatSize(bytes: number): string {
  for (const [suffix, mult] of [['g', 1024 ** 3], ['m', 1024 ** 2], ['k', 1024]] as const) {
    if (bytes >= mult && bytes % mult === 0) return `${bytes / mult}${suffix}`;
  }
  return String(bytes);
}

/** The default as docs show it, or undefined when the flag has none. */
export function defaultText(spec: FlagSpec): string | undefined {
  if (spec.defaultDoc !== undefined) return spec.defaultDoc;
  const value = spec.default;
  if (value === undefined || typeof value === 'function') return undefined;
  if (spec.kind === 'size' && typeof value === 'number') return formatSize(value);
  if (Array.isArray(value)) return value.length === 0 ? 'empty list' : value.join(',');
  return String(value);
}

/** Names the place a bad value came from: `--http-port`, `RUNJS_HTTP_PORT`, `http_port in /etc/runjs.toml`. */
export function culpritOf(spec: FlagSpec, source: ValueSource): string {
  switch (source.kind) {
    case 'cli':
      return `--${spec.name}`;
    case 'env':
      return source.name;
    case 'file':
      return `${source.key} in ${source.path}`;
    case 'default':
      return `the default of --${spec.name}`;
  }
}

/** A value quoted for an error message, cut short so a huge inline JSON stays readable. */
export function showValue(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** `invalid <culprit> '<value>': expected <shape>`, the one wording for bad values. */
export function invalidValueMessage(spec: FlagSpec, source: ValueSource, value: unknown): string {
  if (source.kind === 'file') {
    return `invalid ${source.key} '${showValue(value)}' in ${source.path}: expected ${expectedShape(spec)}`;
  }
  return `invalid ${culpritOf(spec, source)} '${showValue(value)}': expected ${expectedShape(spec)}`;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_v, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost));
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}

/** ` (did you mean X?)` for a near miss (typos), else the empty string. */
export function didYouMean(input: string, candidates: Iterable<string>, show: (c: string) => string): string {
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(input.length / 4)) + 1;
  for (const candidate of candidates) {
    const d = editDistance(input, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best === undefined ? '' : ` (did you mean ${show(best)}?)`;
}
