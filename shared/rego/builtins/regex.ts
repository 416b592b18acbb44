// Regular expressions with RE2's guarantees: a pattern RE2 would refuse — backreferences,
// lookahead and lookbehind, possessive or atomic groups — is refused here (a built-in error), so
// JavaScript's backtracking engine only ever sees patterns without those features; RE2 syntax
// JavaScript spells differently ((?P<name>…), leading (?i) flags, \A, \z, [[:alpha:]]) is
// translated. Catastrophic nested quantifiers remain possible in principle; the query's time
// budget bounds them.
import { BuiltinError } from '../errors.ts';
import type { Value } from '../values.ts';
import { int, str, type BuiltinContext, type BuiltinTable } from './kit.ts';

const MAX_PATTERNS = 512;

const POSIX: Record<string, string> = {
  alpha: 'A-Za-z', digit: '0-9', alnum: 'A-Za-z0-9', upper: 'A-Z', lower: 'a-z', space: '\\s', punct: '!-\\/:-@\\[-`{-~',
  xdigit: '0-9A-Fa-f', word: '\\w', blank: ' \\t', cntrl: '\\x00-\\x1f\\x7f', print: ' -~', graph: '!-~', ascii: '\\x00-\\x7f',
};

/** RE2 syntax → a JavaScript RegExp source and flags; throws for what RE2 does not accept. */
export function translateRe2(pattern: string): { source: string; flags: string } {
  let flags = '';
  let src = pattern;
  const lead = /^\(\?([imsU]+)\)/.exec(src);
  if (lead) {
    for (const f of lead[1]!) if (f !== 'U' && !flags.includes(f)) flags += f;
    if (lead[1]!.includes('U')) throw new BuiltinError('ungreedy flag (?U) is not supported');
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
      if (d === 'z' && !inClass) { out += '$(?![\\s\\S])'; i++; continue; }
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
      out += c;
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
    out += c;
  }
  return { source: out, flags };
}

export function compileRe2(pattern: string, ctx: BuiltinContext): RegExp {
  const hit = ctx.patterns.get(pattern);
  if (hit) return hit;
  const { source, flags } = translateRe2(pattern);
  let re: RegExp;
  try {
    re = new RegExp(source, flags);
  } catch (e) {
    throw new BuiltinError(`error parsing regexp: ${(e as Error).message}`);
  }
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
