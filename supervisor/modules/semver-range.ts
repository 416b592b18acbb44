// The common subset of npm's semver: versions (with prereleases), comparators, `^`, `~`, x-ranges,
// hyphen ranges and `||`. Prereleases satisfy a range only when a comparator of the same set names
// the same major.minor.patch with a prerelease (as npm does); build metadata is ignored.

export interface Version {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly pre: readonly (string | number)[];
}

const VERSION = /^\s*v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?\s*$/;

export function parseVersion(text: string): Version | undefined {
  const m = VERSION.exec(text);
  if (m === null) return undefined;
  const pre = m[4] === undefined ? [] : m[4].split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), pre };
}

export function compareVersions(a: Version, b: Version): number {
  const core = a.major - b.major || a.minor - b.minor || a.patch - b.patch;
  if (core !== 0) return Math.sign(core);
  if (a.pre.length === 0 || b.pre.length === 0) return a.pre.length === 0 ? (b.pre.length === 0 ? 0 : 1) : -1;
  for (let i = 0; i < Math.max(a.pre.length, b.pre.length); i++) {
    const x = a.pre[i];
    const y = b.pre[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return Math.sign(x - y);
    if (typeof x === 'number') return -1;
    if (typeof y === 'number') return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

type Op = '<' | '<=' | '>' | '>=' | '=';
interface Comparator { readonly op: Op; readonly v: Version }

/** A partial version: `1`, `1.2`, `1.x`, `*`; undefined parts are wildcards. */
interface Partial { major?: number; minor?: number; patch?: number; pre: (string | number)[] }

function parsePartial(text: string): Partial {
  const m = /^v?(\d+|[xX*])?(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(text);
  if (m === null) throw new SyntaxError(`invalid version range part '${text}'`);
  const num = (s: string | undefined): number | undefined => (s === undefined || /^[xX*]$/.test(s) ? undefined : Number(s));
  const major = num(m[1]);
  const minor = major === undefined ? undefined : num(m[2]);
  const patch = minor === undefined ? undefined : num(m[3]);
  const pre = m[4] === undefined || patch === undefined ? [] : m[4].split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  return { ...(major !== undefined ? { major } : {}), ...(minor !== undefined ? { minor } : {}), ...(patch !== undefined ? { patch } : {}), pre };
}

const v = (major: number, minor: number, patch: number, pre: (string | number)[] = []): Version => ({ major, minor, patch, pre });
/** The lowest version above every prerelease of the given core (`<1.2.0-0` excludes 1.2.0 prereleases). */
const lowest = (major: number, minor: number, patch: number): Version => v(major, minor, patch, [0]);

function desugar(op: string, p: Partial): Comparator[] {
  const { major, minor, patch, pre } = p;
  if (major === undefined) return op === '<' || op === '>' ? [{ op: '<', v: v(0, 0, 0, [0]) }] : [];
  switch (op) {
    case '^': {
      const from = v(major, minor ?? 0, patch ?? 0, pre);
      let to: Version;
      if (major > 0 || minor === undefined) to = lowest(major + 1, 0, 0);
      else if (minor > 0 || patch === undefined) to = lowest(0, minor + 1, 0);
      else to = lowest(0, 0, patch + 1);
      return [{ op: '>=', v: from }, { op: '<', v: to }];
    }
    case '~': {
      const from = v(major, minor ?? 0, patch ?? 0, pre);
      const to = minor === undefined ? lowest(major + 1, 0, 0) : lowest(major, minor + 1, 0);
      return [{ op: '>=', v: from }, { op: '<', v: to }];
    }
    case '':
    case '=': {
      if (minor === undefined) return [{ op: '>=', v: v(major, 0, 0) }, { op: '<', v: lowest(major + 1, 0, 0) }];
      if (patch === undefined) return [{ op: '>=', v: v(major, minor, 0) }, { op: '<', v: lowest(major, minor + 1, 0) }];
      return [{ op: '=', v: v(major, minor, patch, pre) }];
    }
    case '>=': return [{ op: '>=', v: v(major, minor ?? 0, patch ?? 0, pre) }];
    case '<': return [{ op: '<', v: patch === undefined ? lowest(major, minor ?? 0, 0) : v(major, minor ?? 0, patch, pre) }];
    case '>':
      if (minor === undefined) return [{ op: '>=', v: v(major + 1, 0, 0) }];
      if (patch === undefined) return [{ op: '>=', v: v(major, minor + 1, 0) }];
      return [{ op: '>', v: v(major, minor, patch, pre) }];
    case '<=':
      if (minor === undefined) return [{ op: '<', v: lowest(major + 1, 0, 0) }];
      if (patch === undefined) return [{ op: '<', v: lowest(major, minor + 1, 0) }];
      return [{ op: '<=', v: v(major, minor, patch, pre) }];
    default: throw new SyntaxError(`invalid range operator '${op}'`);
  }
}

/** A parsed range: sets of comparators joined by `||`. Throws SyntaxError for text it does not understand. */
export function parseRange(range: string): Comparator[][] {
  return range.split('||').map((set) => {
    const s = set.trim();
    const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(s);
    if (hyphen !== null) return [...desugar('>=', parsePartial(hyphen[1]!)), ...desugar('<=', parsePartial(hyphen[2]!))];
    const out: Comparator[] = [];
    // `>= 1.2` and `>=1.2` alike: glue an operator to the version after it.
    for (const part of s.replace(/(<=|>=|<|>|=|\^|~>?)\s+/g, '$1').split(/\s+/).filter((t) => t !== '')) {
      const m = /^(<=|>=|<|>|=|\^|~>?|)(.*)$/.exec(part)!;
      out.push(...desugar(m[1] === '~>' ? '~' : m[1]!, parsePartial(m[2]!)));
    }
    return out;
  });
}

function test(c: Comparator, x: Version): boolean {
  const d = compareVersions(x, c.v);
  switch (c.op) {
    case '<': return d < 0;
    case '<=': return d <= 0;
    case '>': return d > 0;
    case '>=': return d >= 0;
    case '=': return d === 0;
  }
}

const sameCore = (a: Version, b: Version): boolean => a.major === b.major && a.minor === b.minor && a.patch === b.patch;

export function satisfies(version: string, range: string): boolean {
  return maxSatisfying([version], range) !== undefined;
}

/** The highest of `versions` that satisfies `range`, or undefined. */
export function maxSatisfying(versions: Iterable<string>, range: string): string | undefined {
  const sets = parseRange(range);
  let best: { text: string; v: Version } | undefined;
  for (const text of versions) {
    const x = parseVersion(text);
    if (x === undefined) continue;
    const ok = sets.some((set) => set.every((c) => test(c, x)) && (x.pre.length === 0 || set.some((c) => c.v.pre.length > 0 && sameCore(c.v, x) && !isSentinel(c))));
    if (ok && (best === undefined || compareVersions(x, best.v) > 0)) best = { text, v: x };
  }
  return best?.text;
}

/** The `-0` lower bound a desugared `<` carries is no prerelease the user named. */
function isSentinel(c: Comparator): boolean {
  return c.op === '<' && c.v.pre.length === 1 && c.v.pre[0] === 0;
}
