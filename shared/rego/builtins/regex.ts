// Regular expressions with RE2's guarantees. A pattern RE2 would refuse — backreferences,
// lookahead and lookbehind, possessive or atomic groups — is refused here with a clear error;
// RE2 syntax JavaScript spells differently ((?P<name>…), a leading (?i), \A, \z, [[:alpha:]]) is
// translated. The result is compiled for V8's linear-time engine (the `l` flag), so matching time
// is linear in the input like RE2's: `(a+)+$` against a hostile string cannot backtrack, and one
// call cannot outlast the query's time budget (which is only checked between steps). The linear
// engine has no case-insensitive mode, so (?i) is compiled by case-folding the pattern itself.
import v8 from 'node:v8';
import { BuiltinError } from '../errors.ts';
import type { Value } from '../values.ts';
import { int, str, type BuiltinContext, type BuiltinTable } from './kit.ts';

const MAX_PATTERNS = 512;

// Makes the `l` flag available (it changes nothing else); the check below tells whether it took.
v8.setFlagsFromString('--enable-experimental-regexp-engine');

function linearEngine(): boolean {
  try {
    return new RegExp('a', 'l').test('a');
  } catch {
    return false;
  }
}

/** Whether this V8 offers the linear-time engine (Node 24 does); without it patterns backtrack. */
export const LINEAR = linearEngine();

/** A RegExp on the linear-time engine; a pattern that engine cannot run is a built-in error. */
export function linearRegExp(source: string, flags: string): RegExp {
  try {
    return new RegExp(source, LINEAR ? `${flags}l` : flags);
  } catch (e) {
    const msg = (e as Error).message;
    if (/linear time/.test(msg)) throw new BuiltinError(`error parsing regexp: cannot be matched in linear time: \`${source}\``);
    throw new BuiltinError(`error parsing regexp: ${msg}`);
  }
}

/** Both cases of a letter (`a` → `aA`); other characters as they are. */
function bothCases(c: string): string {
  const lo = c.toLowerCase();
  const up = c.toUpperCase();
  return lo === up || lo.length !== 1 || up.length !== 1 ? c : lo + up;
}

/** A class range with its other-case twin when both ends are letters of one case (`a-f` → `a-fA-F`). */
function foldRange(from: string, to: string): string {
  const swap = (x: string): string => (x === x.toLowerCase() ? x.toUpperCase() : x.toLowerCase());
  const letters = /^[a-z]$/.test(from) && /^[a-z]$/.test(to) || /^[A-Z]$/.test(from) && /^[A-Z]$/.test(to);
  return letters ? `${from}-${to}${swap(from)}-${swap(to)}` : `${from}-${to}`;
}

const POSIX: Record<string, string> = {
  alpha: 'A-Za-z', digit: '0-9', alnum: 'A-Za-z0-9', upper: 'A-Z', lower: 'a-z', space: '\\s', punct: '!-\\/:-@\\[-`{-~',
  xdigit: '0-9A-Fa-f', word: '\\w', blank: ' \\t', cntrl: '\\x00-\\x1f\\x7f', print: ' -~', graph: '!-~', ascii: '\\x00-\\x7f',
};

/** RE2 syntax → a JavaScript RegExp source and flags; throws for what RE2 does not accept. */
export function translateRe2(pattern: string): { source: string; flags: string } {
  let flags = '';
  let fold = false;
  let src = pattern;
  const lead = /^\(\?([imsU]+)\)/.exec(src);
  if (lead) {
    for (const f of lead[1]!) if (f !== 'U' && f !== 'i' && !flags.includes(f)) flags += f;
    if (lead[1]!.includes('U')) throw new BuiltinError('ungreedy flag (?U) is not supported');
    fold = lead[1]!.includes('i');
    src = src.slice(lead[0].length);
  }
  let out = '';
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === '\\') {
      const d = src[i + 1];
      if (d === undefined) throw new BuiltinError('error parsing regexp: trailing backslash at end of expression');
      if (!inClass && /[1-9]/.test(d)) throw new BuiltinError(`error parsing regexp: invalid escape sequence: \`\\${d}\` (backreferences are not supported)`);
      if (d === 'k' && src[i + 2] === '<') throw new BuiltinError('error parsing regexp: invalid escape sequence: `\\k` (backreferences are not supported)');
      if (d === 'A' && !inClass) { out += '^'; i++; continue; }
      if (d === 'z' && !inClass) {
        // Without the m flag, JavaScript's $ matches only at the very end, which is \z.
        if (flags.includes('m')) throw new BuiltinError('error parsing regexp: \\z together with (?m) is not supported');
        out += '$';
        i++;
        continue;
      }
      if (d === 'Q') {
        const end = src.indexOf('\\E', i + 2);
        const lit = src.slice(i + 2, end < 0 ? src.length : end);
        out += lit.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
        i = end < 0 ? src.length : end + 1;
        continue;
      }
      out += c + d;
      i++;
      continue;
    }
    if (inClass) {
      if (c === '[' && src[i + 1] === ':') {
        const end = src.indexOf(':]', i + 2);
        const name = end < 0 ? '' : src.slice(i + 2, end);
        const neg = name.startsWith('^');
        const cls = POSIX[neg ? name.slice(1) : name];
        if (cls === undefined || neg) throw new BuiltinError(`error parsing regexp: invalid character class range: \`[:${name}:]\``);
        out += cls;
        i = end + 1;
        continue;
      }
      if (c === ']') inClass = false;
      if (fold && c !== ']' && src[i + 1] === '-' && src[i + 2] !== undefined && src[i + 2] !== ']') {
        out += foldRange(c, src[i + 2]!);
        i += 2;
        continue;
      }
      out += fold ? bothCases(c) : c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      if (src[i + 1] === '^') { out += '^'; i++; }
      if (src[i + 1] === ']') { out += '\\]'; i++; }
      continue;
    }
    if (c === '(' && src[i + 1] === '?') {
      const rest = src.slice(i + 2);
      if (/^(=|!|<=|<!)/.test(rest)) throw new BuiltinError('error parsing regexp: invalid or unsupported Perl syntax: lookaround assertions are not supported');
      if (rest.startsWith('>')) throw new BuiltinError('error parsing regexp: invalid or unsupported Perl syntax: atomic groups are not supported');
      if (rest.startsWith('P<')) { out += '(?<'; i += 3; continue; }
      if (/^[imsU-]+[:)]/.test(rest)) throw new BuiltinError('error parsing regexp: inline flags are supported only at the start of the pattern');
    }
    if ((c === '+' || c === '*' || c === '?' || c === '}') && src[i + 1] === '+') {
      throw new BuiltinError('error parsing regexp: invalid nested repetition operator (possessive quantifiers are not supported)');
    }
    const cases = fold ? bothCases(c) : c;
    out += cases.length > 1 ? `[${cases}]` : c;
  }
  return { source: out, flags };
}

export function compileRe2(pattern: string, ctx: BuiltinContext): RegExp {
  const hit = ctx.patterns.get(pattern);
  if (hit) return hit;
  const { source, flags } = translateRe2(pattern);
  const re = linearRegExp(source, flags);
  if (ctx.patterns.size >= MAX_PATTERNS) ctx.patterns.clear();
  ctx.patterns.set(pattern, re);
  return re;
}

function global(re: RegExp): RegExp {
  return new RegExp(re.source, `${re.flags}g`);
}

function limit(n: number, all: number): number {
  return n < 0 ? all : Math.min(n, all);
}

export const REGEX: BuiltinTable = {
  'regex.match': { arity: 2, fn: (a, ctx) => compileRe2(str(a, 0), ctx).test(str(a, 1)) },
  'regex.is_valid': {
    arity: 1,
    fn: (a, ctx) => {
      if (typeof a[0] !== 'string') return false;
      try {
        compileRe2(a[0], ctx);
        return true;
      } catch {
        return false;
      }
    },
  },
  'regex.find_n': {
    arity: 3,
    fn: (a, ctx) => {
      const matches = [...str(a, 1).matchAll(global(compileRe2(str(a, 0), ctx)))].map((m) => m[0]);
      return matches.slice(0, limit(int(a, 2), matches.length));
    },
  },
  'regex.find_all_string_submatch_n': {
    arity: 3,
    fn: (a, ctx) => {
      const matches = [...str(a, 1).matchAll(global(compileRe2(str(a, 0), ctx)))].map((m) => [...m].map((g) => g ?? ''));
      return matches.slice(0, limit(int(a, 2), matches.length));
    },
  },
  'regex.split': { arity: 2, fn: (a, ctx) => str(a, 1).split(global(compileRe2(str(a, 0), ctx))) as Value[] },
  'regex.replace': { arity: 3, fn: (a, ctx) => str(a, 0).replace(global(compileRe2(str(a, 1), ctx)), str(a, 2).replace(/\$\{(\w+)\}/g, '$$<$1>')) },
};
