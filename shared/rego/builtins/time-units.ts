// time.* (UTC; nanoseconds as JS numbers, so precise to about 0.25 µs today — OPA uses integers)
// and units.parse / units.parse_bytes.
import { BuiltinError } from '../errors.ts';
import type { Value } from '../values.ts';
import { fail, int, num, str, type BuiltinTable } from './kit.ts';

const NS_PER_MS = 1e6;
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

function parseRfc3339(s: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/.exec(s);
  if (!m) throw new BuiltinError(`parsing time ${JSON.stringify(s)} as RFC3339 failed`);
  const ms = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[8]!.toUpperCase()}`);
  if (Number.isNaN(ms)) throw new BuiltinError(`parsing time ${JSON.stringify(s)}: out of range`);
  const frac = m[7] ? Math.round(Number(`0${m[7]}`) * 1e9) : 0;
  return ms * NS_PER_MS + frac;
}

const DURATION_UNITS: Record<string, number> = { ns: 1, us: 1e3, 'µs': 1e3, 'μs': 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

function parseDuration(s: string): number {
  const m = /^([+-]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/.exec(s);
  if (!m && s !== '0') throw new BuiltinError(`time: invalid duration ${JSON.stringify(s)}`);
  if (s === '0') return 0;
  let total = 0;
  for (const part of s.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g)) total += Number(part[1]) * DURATION_UNITS[part[2]!]!;
  return m![1] === '-' ? -total : total;
}

/** ns, or [ns, "UTC"]: only UTC is supported. */
function instant(a: readonly Value[]): Date {
  const v = a[0]!;
  if (Array.isArray(v)) {
    if (v[1] !== undefined && v[1] !== 'UTC' && v[1] !== '') fail(`time zone ${JSON.stringify(v[1])} is not supported (only UTC)`);
    return new Date(num([v[0] ?? null], 0) / NS_PER_MS);
  }
  return new Date(num(a, 0) / NS_PER_MS);
}

const UNIT_FACTORS: Record<string, number> = {
  '': 1, m: 1e-3, k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  ki: 2 ** 10, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};

const BYTE_FACTORS: Record<string, number> = {
  '': 1, k: 1e3, m: 1e6, g: 1e9, t: 1e12, p: 1e15, e: 1e18,
  ki: 2 ** 10, mi: 2 ** 20, gi: 2 ** 30, ti: 2 ** 40, pi: 2 ** 50, ei: 2 ** 60,
};

/** `10KB`, `1.5GiB`, `1e3K`: quotes are dropped, spaces refused (OPA's texts). */
function parseUnits(s: string, bytes: boolean): number {
  const what = bytes ? 'byte amount' : 'units amount';
  const text = s.replace(/"/g, '');
  if (/\s/.test(text)) throw new BuiltinError('spaces not allowed in resource strings');
  const numText = /^[0-9.]*(?:[eE][+-]?[0-9]+)?/.exec(text)![0];
  if (numText === '' || numText === '.') throw new BuiltinError(`no ${what} provided`);
  const n = Number(numText);
  if (Number.isNaN(n)) throw new BuiltinError(`could not parse ${what} to a number`);
  if (!Number.isFinite(n)) throw new BuiltinError('exponent too large');
  const unit = text.slice(numText.length);
  if (bytes) {
    const key = unit.toLowerCase().replace(/b$/, '');
    const f = BYTE_FACTORS[key];
    if (f === undefined) throw new BuiltinError(`byte unit ${JSON.stringify(unit)} not recognized`);
    return Math.round(n * f);
  }
  const f = UNIT_FACTORS[unit];
  if (f === undefined) throw new BuiltinError(`unit ${JSON.stringify(unit)} not recognized`);
  return n * f;
}

export const TIME_UNITS: BuiltinTable = {
  'time.now_ns': { arity: 0, fn: (_a, ctx) => ctx.nowNs },
  'time.parse_rfc3339_ns': { arity: 1, fn: (a) => parseRfc3339(str(a, 0)) },
  'time.parse_duration_ns': { arity: 1, fn: (a) => parseDuration(str(a, 0)) },
  'time.parse_ns': {
    arity: 2,
    fn: (a) => {
      const layout = str(a, 0);
      const value = str(a, 1);
      if (layout === '2006-01-02T15:04:05Z07:00') return parseRfc3339(value);
      if (layout === '2006-01-02') return parseRfc3339(`${value}T00:00:00Z`);
      return fail(`layout ${JSON.stringify(layout)} is not supported (use time.parse_rfc3339_ns, or "2006-01-02")`);
    },
  },
  'time.date': { arity: 1, fn: (a) => { const d = instant(a); return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()]; } },
  'time.clock': { arity: 1, fn: (a) => { const d = instant(a); return [d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()]; } },
  'time.weekday': { arity: 1, fn: (a) => DAYS[instant(a).getUTCDay()]! },
  'time.add_date': {
    arity: 4,
    fn: (a) => {
      const ns = num(a, 0);
      const d = new Date(Math.floor(ns / NS_PER_MS));
      d.setUTCFullYear(d.getUTCFullYear() + int(a, 1), d.getUTCMonth() + int(a, 2), d.getUTCDate() + int(a, 3));
      return d.getTime() * NS_PER_MS + (ns % NS_PER_MS);
    },
  },
  'units.parse': { arity: 1, fn: (a) => parseUnits(str(a, 0), false) },
  'units.parse_bytes': { arity: 1, fn: (a) => parseUnits(str(a, 0), true) },
};
