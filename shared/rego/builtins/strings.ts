// String built-ins. Indexes and lengths count Unicode code points, as OPA does (Go runes).
import { BuiltinError } from '../errors.ts';
import { RegoSet, show, typeName, type Value } from '../values.ts';
import { fail, int, list, num, str, type BuiltinTable } from './kit.ts';

const cps = (s: string): string[] => [...s];

function trimSet(s: string, cut: string, left: boolean, right: boolean): string {
  const chars = new Set(cps(cut));
  const c = cps(s);
  let i = 0;
  let j = c.length;
  if (left) while (i < j && chars.has(c[i]!)) i++;
  if (right) while (j > i && chars.has(c[j - 1]!)) j--;
  return c.slice(i, j).join('');
}

/** Go's %v / %s / %d / %f / %x / %q / %t … for one operand. */
function formatOne(verb: string, flags: string, width: string, precision: string | undefined, v: Value): string {
  let out: string;
  switch (verb) {
    case 'd':
      out = typeof v === 'number' && Number.isInteger(v) ? String(v) : `%!d(${typeof v === 'number' ? 'float' : 'string'}=${show(v)})`;
      break;
    case 'f':
    case 'F':
      out = typeof v === 'number' ? v.toFixed(precision === undefined ? 6 : Number(precision)) : `%!f(${show(v)})`;
      break;
    case 'e':
      out = typeof v === 'number' ? v.toExponential(precision === undefined ? 6 : Number(precision)).replace(/e([+-])(\d)$/, 'e$10$2') : `%!e(${show(v)})`;
      break;
    case 'g':
      out = typeof v === 'number' ? String(v) : `%!g(${show(v)})`;
      break;
    case 'x':
    case 'X': {
      const h = typeof v === 'number' ? Math.trunc(v).toString(16) : typeof v === 'string' ? Buffer.from(v).toString('hex') : show(v);
      out = verb === 'X' ? h.toUpperCase() : h;
      break;
    }
    case 'o': out = typeof v === 'number' ? Math.trunc(v).toString(8) : show(v); break;
    case 'b': out = typeof v === 'number' ? Math.trunc(v).toString(2) : show(v); break;
    case 'q': out = typeof v === 'string' ? JSON.stringify(v) : show(v); break;
    case 't': out = typeof v === 'boolean' ? String(v) : `%!t(${show(v)})`; break;
    case 's':
    case 'v':
    default:
      out = typeof v === 'string' ? v : show(v);
      if (precision !== undefined && verb === 's') out = cps(out).slice(0, Number(precision)).join('');
  }
  if (flags.includes('+') && typeof v === 'number' && v >= 0 && 'dfFeg'.includes(verb)) out = `+${out}`;
  const w = width === '' ? 0 : Number(width);
  if (out.length < w) {
    if (flags.includes('-')) out = out.padEnd(w);
    else if (flags.includes('0') && typeof v === 'number') out = out.startsWith('-') ? `-${out.slice(1).padStart(w - 1, '0')}` : out.padStart(w, '0');
    else out = out.padStart(w);
  }
  return out;
}

export function sprintf(format: string, args: readonly Value[]): string {
  let n = 0;
  return format.replace(/%([-+# 0]*)(\d*)(?:\.(\d+))?([a-zA-Z%])/g, (_m, flags: string, width: string, precision: string | undefined, verb: string) => {
    if (verb === '%') return '%';
    if (n >= args.length) return `%!${verb}(MISSING)`;
    return formatOne(verb, flags, width, precision, args[n++]!);
  }) + (n < args.length ? `%!(EXTRA ${args.slice(n).map((v) => show(v)).join(', ')})` : '');
}

export const STRINGS: BuiltinTable = {
  concat: { arity: 2, fn: (a) => list(a, 1).map((v, i) => (typeof v === 'string' ? v : fail(`operand 2 element ${i} must be string`))).join(str(a, 0)) },
  contains: { arity: 2, fn: (a) => str(a, 0).includes(str(a, 1)) },
  startswith: { arity: 2, fn: (a) => str(a, 0).startsWith(str(a, 1)) },
  endswith: { arity: 2, fn: (a) => str(a, 0).endsWith(str(a, 1)) },
  lower: { arity: 1, fn: (a) => str(a, 0).toLowerCase() },
  upper: { arity: 1, fn: (a) => str(a, 0).toUpperCase() },
  split: { arity: 2, fn: (a) => { const s = str(a, 0); const d = str(a, 1); return d === '' ? cps(s) : s.split(d); } },
  replace: { arity: 3, fn: (a) => { const s = str(a, 0); const o = str(a, 1); return o === '' ? s : s.split(o).join(str(a, 2)); } },
  'strings.replace_n': {
    arity: 2,
    fn: (a) => {
      const pairs = a[0];
      let s = str(a, 1);
      if (!(pairs && typeof pairs === 'object' && 'sortedEntries' in pairs)) return fail('operand 1 must be object');
      for (const [k, v] of pairs.sortedEntries()) {
        if (typeof k !== 'string' || typeof v !== 'string') fail('operand 1 must be an object of strings');
        if (k !== '') s = s.split(k).join(v);
      }
      return s;
    },
  },
  indexof: { arity: 2, fn: (a) => { const c = cps(str(a, 0)); const sub = str(a, 1); const i = c.join('').indexOf(sub); return i < 0 ? -1 : cps(c.join('').slice(0, i)).length; } },
  indexof_n: {
    arity: 2,
    fn: (a) => {
      const s = str(a, 0);
      const sub = str(a, 1);
      const out: Value[] = [];
      if (sub === '') return out;
      for (let i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + 1)) out.push(cps(s.slice(0, i)).length);
      return out;
    },
  },
  substring: {
    arity: 3,
    fn: (a) => {
      const c = cps(str(a, 0));
      const start = int(a, 1);
      const len = int(a, 2);
      if (start < 0) fail('negative offset');
      if (start >= c.length) return '';
      return len < 0 ? c.slice(start).join('') : c.slice(start, start + len).join('');
    },
  },
  trim: { arity: 2, fn: (a) => trimSet(str(a, 0), str(a, 1), true, true) },
  trim_left: { arity: 2, fn: (a) => trimSet(str(a, 0), str(a, 1), true, false) },
  trim_right: { arity: 2, fn: (a) => trimSet(str(a, 0), str(a, 1), false, true) },
  trim_prefix: { arity: 2, fn: (a) => { const s = str(a, 0); const p = str(a, 1); return s.startsWith(p) ? s.slice(p.length) : s; } },
  trim_suffix: { arity: 2, fn: (a) => { const s = str(a, 0); const p = str(a, 1); return p !== '' && s.endsWith(p) ? s.slice(0, s.length - p.length) : s; } },
  trim_space: { arity: 1, fn: (a) => str(a, 0).trim() },
  sprintf: { arity: 2, fn: (a) => sprintf(str(a, 0), Array.isArray(a[1]) ? a[1] : fail('operand 2 must be array')) },
  format_int: {
    arity: 2,
    fn: (a) => {
      const base = num(a, 1);
      if (![2, 8, 10, 16].includes(base)) fail('operand 2 must be one of {2, 8, 10, 16}');
      return Math.trunc(num(a, 0)).toString(base);
    },
  },
  'strings.reverse': { arity: 1, fn: (a) => cps(str(a, 0)).reverse().join('') },
  'strings.count': { arity: 2, fn: (a) => { const s = str(a, 0); const sub = str(a, 1); return sub === '' ? cps(s).length + 1 : s.split(sub).length - 1; } },
  'strings.any_prefix_match': { arity: 2, fn: (a) => anyMatch(a, (s, p) => s.startsWith(p)) },
  'strings.any_suffix_match': { arity: 2, fn: (a) => anyMatch(a, (s, p) => s.endsWith(p)) },
};

/** A string, or an array or set of strings (OPA's operand texts for anything else). */
function stringsOf(a: readonly Value[], i: number): string[] {
  const v = a[i]!;
  if (typeof v === 'string') return [v];
  if (!Array.isArray(v) && !(v instanceof RegoSet)) throw new BuiltinError(`operand ${i + 1} must be one of {string, set, array} but got ${typeName(v)}`, 'type');
  const items = Array.isArray(v) ? v : v.sorted();
  const bad = items.find((x) => typeof x !== 'string');
  if (bad !== undefined) throw new BuiltinError(`operand ${i + 1} must be ${Array.isArray(v) ? 'array' : 'set'} of strings but got ${Array.isArray(v) ? 'array' : 'set'} containing ${typeName(bad)}`, 'type');
  return items as string[];
}

function anyMatch(a: readonly Value[], f: (s: string, p: string) => boolean): boolean {
  const strings = stringsOf(a, 0);
  const patterns = stringsOf(a, 1);
  return strings.some((s) => patterns.some((p) => f(s, p)));
}
