// glob.match (gobwas/glob semantics, as OPA: `*` stops at delimiters, `**` does not, `?`, `[a-z]`,
// `[!a]`, `{a,b}`) and net.cidr_contains / net.cidr_intersects over IPv4 and IPv6.
import { BuiltinError } from '../errors.ts';
import { fail, str, type BuiltinContext, type BuiltinTable } from './kit.ts';
import { linearRegExp } from './regex.ts';

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

function globRegex(pattern: string, delimiters: readonly string[]): string {
  const notDelim = delimiters.length === 0 ? '[\\s\\S]' : `[^${delimiters.map(escape).join('')}]`;
  let out = '';
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') { out += escape(pattern[++i] ?? ''); continue; }
    if (c === '*') {
      if (pattern[i + 1] === '*') { out += '[\\s\\S]*'; i++; } else out += `${notDelim}*`;
      continue;
    }
    if (c === '?') { out += notDelim; continue; }
    if (c === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end < 0) throw new BuiltinError(`unexpected end of input in glob ${JSON.stringify(pattern)}`);
      let body = pattern.slice(i + 1, end);
      const neg = body.startsWith('!');
      if (neg) body = body.slice(1);
      out += `[${neg ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = end;
      continue;
    }
    if (c === '{') { depth++; out += '(?:'; continue; }
    if (c === '}' && depth > 0) { depth--; out += ')'; continue; }
    if (c === ',' && depth > 0) { out += '|'; continue; }
    out += escape(c);
  }
  if (depth > 0) throw new BuiltinError(`unexpected end of input in glob ${JSON.stringify(pattern)}`);
  return `^${out}$`;
}

function globMatch(pattern: string, delims: readonly string[], value: string, ctx: BuiltinContext): boolean {
  const key = `glob\u0000${delims.join('\u0000')}\u0000${pattern}`;
  let re = ctx.patterns.get(key);
  if (!re) {
    re = linearRegExp(globRegex(pattern, delims), '');
    ctx.patterns.set(key, re);
  }
  return re.test(value);
}

// ── IP addresses as bigints ──────────────────────────────────────────────

interface Net { readonly v6: boolean; readonly start: bigint; readonly end: bigint }

function parseIp(s: string): { v6: boolean; n: bigint } | undefined {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (v4) {
    const parts = v4.slice(1).map(Number);
    if (parts.some((p) => p > 255)) return undefined;
    return { v6: false, n: parts.reduce((acc, p) => (acc << 8n) | BigInt(p), 0n) };
  }
  if (!s.includes(':')) return undefined;
  let text = s;
  const embedded = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (embedded) {
    const ip4 = parseIp(embedded[1]!);
    if (!ip4) return undefined;
    text = `${text.slice(0, -embedded[1]!.length)}${(ip4.n >> 16n).toString(16)}:${(ip4.n & 0xffffn).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const toGroups = (h: string): bigint[] | undefined => {
    if (h === '') return [];
    const gs = h.split(':');
    if (gs.some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return undefined;
    return gs.map((g) => BigInt(parseInt(g, 16)));
  };
  const left = toGroups(halves[0]!);
  const right = halves.length === 2 ? toGroups(halves[1]!) : [];
  if (!left || !right) return undefined;
  const fixed = left.length + right.length;
  if (halves.length === 1 ? fixed !== 8 : fixed > 7) return undefined;
  const groups = [...left, ...new Array<bigint>(8 - fixed).fill(0n), ...right];
  return { v6: true, n: groups.reduce((acc, g) => (acc << 16n) | g, 0n) };
}

function parseNet(s: string, allowIp: boolean): Net {
  const slash = s.indexOf('/');
  const ip = parseIp(slash < 0 ? s : s.slice(0, slash));
  if (!ip || (slash < 0 && !allowIp)) return fail(`invalid CIDR address: ${s}`);
  const bits = ip.v6 ? 128 : 32;
  const prefix = slash < 0 ? bits : Number(s.slice(slash + 1));
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > bits || (slash >= 0 && !/^\d+$/.test(s.slice(slash + 1)))) return fail(`invalid CIDR address: ${s}`);
  const host = (1n << BigInt(bits - prefix)) - 1n;
  const start = ip.n & ~host & ((1n << BigInt(bits)) - 1n);
  return { v6: ip.v6, start, end: start | host };
}

export const GLOB_NET: BuiltinTable = {
  'glob.match': {
    arity: 3,
    fn: (a, ctx) => {
      const d = a[1];
      const delims = d === null ? [] : Array.isArray(d) ? d.map((x) => (typeof x === 'string' ? x : fail('operand 2 must be an array of strings'))) : fail('operand 2 must be array or null');
      return globMatch(str(a, 0), delims.length === 0 && d !== null ? ['.'] : delims, str(a, 2), ctx);
    },
  },
  'glob.quote_meta': { arity: 1, fn: (a) => str(a, 0).replace(/[*?\\[\]{}]/g, '\\$&') },
  'net.cidr_contains': {
    arity: 2,
    fn: (a) => {
      const outer = parseNet(str(a, 0), false);
      const inner = parseNet(str(a, 1), true);
      return outer.v6 === inner.v6 && inner.start >= outer.start && inner.end <= outer.end;
    },
  },
  'net.cidr_intersects': {
    arity: 2,
    fn: (a) => {
      const x = parseNet(str(a, 0), false);
      const y = parseNet(str(a, 1), false);
      return x.v6 === y.v6 && x.start <= y.end && y.start <= x.end;
    },
  },
};
