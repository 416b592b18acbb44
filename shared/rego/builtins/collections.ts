// Aggregates (count, sum, max, sort, …), arrays, sets and objects, and `in` (internal.member_*).
import { forEachEntry, lookup } from '../collections.ts';
import { compare, equal, RegoObject, RegoSet, typeName, type Value } from '../values.ts';
import { arr, fail, int, list, obj, set, type BuiltinTable } from './kit.ts';

function numbers(args: readonly Value[]): number[] {
  const items = list(args, 0);
  return items.map((v) => (typeof v === 'number' ? v : fail(`operand 1 must be a collection of numbers but got ${typeName(v)}`)));
}

function count(v: Value): number {
  if (typeof v === 'string') return [...v].length;
  if (Array.isArray(v)) return v.length;
  if (v instanceof RegoSet || v instanceof RegoObject) return v.size;
  return fail(`operand 1 must be one of {array, object, set, string} but got ${typeName(v)}`);
}

/** The keys of an object / the elements of a set given as a set, array or object's keys. */
function keysOf(v: Value): Value[] {
  if (Array.isArray(v)) return v;
  if (v instanceof RegoSet) return v.sorted();
  if (v instanceof RegoObject) return v.keys();
  return fail(`operand 2 must be one of {array, object, set} but got ${typeName(v)}`);
}

function union(a: RegoObject, b: RegoObject): RegoObject {
  const out = new RegoObject();
  for (const [k, v] of a.sortedEntries()) out.set(k, v);
  for (const [k, v] of b.sortedEntries()) {
    const prev = out.get(k);
    out.set(k, prev instanceof RegoObject && v instanceof RegoObject ? union(prev, v) : v);
  }
  return out;
}

export const COLLECTIONS: BuiltinTable = {
  count: { arity: 1, fn: (a) => count(a[0]!) },
  sum: { arity: 1, fn: (a) => numbers(a).reduce((x, y) => x + y, 0) },
  product: { arity: 1, fn: (a) => numbers(a).reduce((x, y) => x * y, 1) },
  max: { arity: 1, fn: (a) => { const l = list(a, 0); return l.length === 0 ? undefined : l.reduce((x, y) => (compare(x, y) >= 0 ? x : y)); } },
  min: { arity: 1, fn: (a) => { const l = list(a, 0); return l.length === 0 ? undefined : l.reduce((x, y) => (compare(x, y) <= 0 ? x : y)); } },
  sort: { arity: 1, fn: (a) => [...list(a, 0)].sort(compare) },
  all: { arity: 1, fn: (a) => list(a, 0).every((v) => v === true) },
  any: { arity: 1, fn: (a) => list(a, 0).some((v) => v === true) },
  'array.concat': { arity: 2, fn: (a) => [...arr(a, 0), ...arr(a, 1)] },
  'array.slice': {
    arity: 3,
    fn: (a) => {
      const xs = arr(a, 0);
      const start = Math.max(0, int(a, 1));
      const stop = Math.min(xs.length, int(a, 2));
      return start >= stop ? [] : xs.slice(start, stop);
    },
  },
  'array.reverse': { arity: 1, fn: (a) => [...arr(a, 0)].reverse() },
  and: { arity: 2, fn: (a) => { const r = set(a, 1); return new RegoSet(set(a, 0).sorted().filter((v) => r.has(v))); } },
  or: { arity: 2, fn: (a) => new RegoSet([...set(a, 0).sorted(), ...set(a, 1).sorted()]) },
  intersection: {
    arity: 1,
    fn: (a) => {
      const sets = set(a, 0).sorted().map((s, i) => (s instanceof RegoSet ? s : fail(`operand 1 element ${i} must be a set`)));
      if (sets.length === 0) return new RegoSet();
      return new RegoSet(sets[0]!.sorted().filter((v) => sets.every((s) => s.has(v))));
    },
  },
  union: {
    arity: 1,
    fn: (a) => {
      const out = new RegoSet();
      for (const s of set(a, 0).sorted()) {
        if (!(s instanceof RegoSet)) fail('operand 1 must be a set of sets');
        for (const v of s.sorted()) out.add(v);
      }
      return out;
    },
  },
  'object.get': {
    arity: 3,
    fn: (a) => {
      const o = obj(a, 0);
      const path = Array.isArray(a[1]) ? a[1] : [a[1]!];
      let cur: Value | undefined = o;
      for (const key of path) {
        cur = cur === undefined ? undefined : lookup(cur, key);
        if (cur === undefined) return a[2]!;
      }
      return cur;
    },
  },
  'object.keys': { arity: 1, fn: (a) => new RegoSet(obj(a, 0).keys()) },
  'object.union': { arity: 2, fn: (a) => union(obj(a, 0), obj(a, 1)) },
  'object.union_n': {
    arity: 1,
    fn: (a) => arr(a, 0).reduce<RegoObject>((acc, o, i) => (o instanceof RegoObject ? union(acc, o) : fail(`operand 1 element ${i} must be an object`)), new RegoObject()),
  },
  'object.remove': {
    arity: 2,
    fn: (a) => {
      const o = obj(a, 0);
      const drop = new RegoSet(keysOf(a[1]!));
      return RegoObject.from(o.sortedEntries().filter(([k]) => !drop.has(k)));
    },
  },
  'object.filter': {
    arity: 2,
    fn: (a) => {
      const o = obj(a, 0);
      const keep = new RegoSet(keysOf(a[1]!));
      return RegoObject.from(o.sortedEntries().filter(([k]) => keep.has(k)));
    },
  },
  'object.subset': {
    arity: 2,
    fn: (a) => subset(a[0]!, a[1]!),
  },
  'internal.member_2': {
    arity: 2,
    fn: (a) => forEachEntry(a[1]!, (_k, v) => equal(v, a[0]!)),
  },
  'internal.member_3': {
    arity: 3,
    fn: (a) => {
      const x = lookup(a[2]!, a[0]!);
      return x !== undefined && !(a[2] instanceof RegoSet) && equal(x, a[1]!);
    },
  },
};

function subset(sup: Value, sub: Value): boolean {
  if (sup instanceof RegoObject && sub instanceof RegoObject) {
    return sub.sortedEntries().every(([k, v]) => {
      const x = sup.get(k);
      return x !== undefined && (x instanceof RegoObject && v instanceof RegoObject ? subset(x, v) : equal(x, v));
    });
  }
  if (sup instanceof RegoSet && sub instanceof RegoSet) return sub.sorted().every((v) => sup.has(v));
  if (Array.isArray(sup) && Array.isArray(sub)) {
    for (let i = 0; i + sub.length <= sup.length; i++) if (sub.every((v, j) => equal(v, sup[i + j]!))) return true;
    return sub.length === 0;
  }
  if (sup instanceof RegoSet && Array.isArray(sub)) return sub.every((v) => sup.has(v));
  return fail('both arguments must be objects, sets or arrays');
}
