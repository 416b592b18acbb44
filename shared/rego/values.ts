// Rego values: JSON scalars as JS scalars, arrays as JS arrays, and sets and objects as classes
// keyed by a canonical string so that composite keys (`{[1, 2]: "a"}`, `{{1}}`) compare by value.
// A string key is its own canonical key (no allocation on the hot path `input.url_parsed.host`);
// every other kind gets a prefix that starts with NUL, and a string that itself starts with NUL is
// escaped, so the two spaces never collide. Iteration is in Rego's sorted order, cached per
// collection (collections are not mutated once evaluation has handed them out).

export type Value = null | boolean | number | string | Value[] | RegoSet | RegoObject;

const NUL = '\u0000';

/** The canonical map key of a value (equal values ⇔ equal keys). */
export function keyOf(v: Value): string {
  switch (typeof v) {
    case 'string': return v.length > 0 && v.charCodeAt(0) === 0 ? `${NUL}s${v}` : v;
    case 'number': return `${NUL}n${v}`;
    case 'boolean': return v ? `${NUL}t` : `${NUL}f`;
    default: return v === null ? `${NUL}z` : `${NUL}c${canonical(v)}`;
  }
}

/** A deterministic text of a composite (sets and objects in sorted order). */
function canonical(v: Value): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v instanceof RegoSet) return `{${v.sorted().map(canonical).join(',')}}`;
  return `{${v.sortedEntries().map(([k, x]) => `${canonical(k)}:${canonical(x)}`).join(',')}}`;
}

export class RegoSet {
  readonly #m = new Map<string, Value>();
  #sorted: Value[] | undefined;

  constructor(items?: Iterable<Value>) {
    if (items) for (const v of items) this.add(v);
  }

  add(v: Value): void {
    const k = keyOf(v);
    if (!this.#m.has(k)) {
      this.#m.set(k, v);
      this.#sorted = undefined;
    }
  }

  has(v: Value): boolean {
    return this.#m.has(keyOf(v));
  }

  get size(): number {
    return this.#m.size;
  }

  /** The elements in Rego's order. */
  sorted(): Value[] {
    if (this.#sorted === undefined) this.#sorted = [...this.#m.values()].sort(compare);
    return this.#sorted;
  }
}

export class RegoObject {
  readonly #m = new Map<string, [Value, Value]>();
  #sorted: [Value, Value][] | undefined;

  set(k: Value, v: Value): void {
    this.#m.set(keyOf(k), [k, v]);
    this.#sorted = undefined;
  }

  get(k: Value): Value | undefined {
    return this.#m.get(typeof k === 'string' && (k.length === 0 || k.charCodeAt(0) !== 0) ? k : keyOf(k))?.[1];
  }

  has(k: Value): boolean {
    return this.#m.has(keyOf(k));
  }

  delete(k: Value): void {
    this.#m.delete(keyOf(k));
    this.#sorted = undefined;
  }

  get size(): number {
    return this.#m.size;
  }

  sortedEntries(): [Value, Value][] {
    if (this.#sorted === undefined) this.#sorted = [...this.#m.values()].sort((a, b) => compare(a[0], b[0]));
    return this.#sorted;
  }

  keys(): Value[] {
    return this.sortedEntries().map((e) => e[0]);
  }

  static from(entries: Iterable<[Value, Value]>): RegoObject {
    const o = new RegoObject();
    for (const [k, v] of entries) o.set(k, v);
    return o;
  }
}

/** Rego's type order: null < boolean < number < string < array < object < set. */
function rank(v: Value): number {
  switch (typeof v) {
    case 'boolean': return 1;
    case 'number': return 2;
    case 'string': return 3;
    default:
      if (v === null) return 0;
      if (Array.isArray(v)) return 4;
      return v instanceof RegoObject ? 5 : 6;
  }
}

/** The total order Rego sorts and compares (`<`, `sort`, set iteration) by. */
export function compare(a: Value, b: Value): number {
  if (a === b) return 0;
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  switch (ra) {
    case 0: return 0;
    case 1: return (a ? 1 : 0) - (b ? 1 : 0);
    case 2: return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
    case 3: return (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0;
    case 4: return compareLists(a as Value[], b as Value[]);
    case 5: {
      const ea = (a as RegoObject).sortedEntries();
      const eb = (b as RegoObject).sortedEntries();
      for (let i = 0; i < Math.min(ea.length, eb.length); i++) {
        const c = compare(ea[i]![0], eb[i]![0]) || compare(ea[i]![1], eb[i]![1]);
        if (c !== 0) return c;
      }
      return ea.length - eb.length;
    }
    default: return compareLists((a as RegoSet).sorted(), (b as RegoSet).sorted());
  }
}

function compareLists(a: readonly Value[], b: readonly Value[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const c = compare(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
  return a.length - b.length;
}

export function equal(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return compare(a, b) === 0;
}

/** A JSON document (JSON.parse output, or a structured-cloned input) → a Rego value. */
export function fromJson(x: unknown): Value {
  if (x === null || typeof x === 'boolean' || typeof x === 'number' || typeof x === 'string') return x;
  if (Array.isArray(x)) return x.map(fromJson);
  if (typeof x === 'object') {
    const o = new RegoObject();
    for (const k of Object.keys(x)) {
      const v = (x as Record<string, unknown>)[k];
      if (v !== undefined) o.set(k, fromJson(v));
    }
    return o;
  }
  return null;
}

/** A Rego value → JSON (sets become sorted arrays; non-string object keys their JSON text). */
export function toJson(v: Value): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(toJson);
  if (v instanceof RegoSet) return v.sorted().map(toJson);
  const out: Record<string, unknown> = {};
  for (const [k, x] of v.sortedEntries()) out[typeof k === 'string' ? k : JSON.stringify(toJson(k))] = toJson(x);
  return out;
}

/** OPA's type names (`type_name`, error texts). */
export function typeName(v: Value): string {
  switch (rank(v)) {
    case 0: return 'null';
    case 1: return 'boolean';
    case 2: return 'number';
    case 3: return 'string';
    case 4: return 'array';
    case 5: return 'object';
    default: return 'set';
  }
}

/** The Rego text of a value (print, sprintf %v, error messages): sets as `{…}`, `set()` when empty. */
export function show(v: Value): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(show).join(', ')}]`;
  if (v instanceof RegoSet) return v.size === 0 ? 'set()' : `{${v.sorted().map(show).join(', ')}}`;
  return `{${v.sortedEntries().map(([k, x]) => `${show(k)}: ${show(x)}`).join(', ')}}`;
}
