// Building virtual documents from rule results: a partial object's nested keys (`p[a][b] := v`),
// a set under keys (`p[k] contains v`), merging a rule's object with the rules defined under its
// own path — and the conflict errors when two results disagree.
import { RegoError } from './errors.ts';
import type { Position } from './lexer.ts';
import { equal, RegoObject, RegoSet, type Value } from './values.ts';

export function conflict(msg: string, pos: Position): RegoError {
  return new RegoError('eval_conflict_error', msg, pos);
}

/** Adds `v` to the set at `out[keys…]` (`p[k] contains v`), creating objects and the set. */
export function insertIntoSet(out: RegoObject, keys: readonly Value[], v: Value, pos: Position): void {
  const parent = keys.length > 1 ? ensureObject(out, keys.slice(0, -1), pos) : out;
  const last = keys[keys.length - 1]!;
  let set = parent.get(last);
  if (set === undefined) {
    set = new RegoSet();
    parent.set(last, set);
  }
  if (!(set instanceof RegoSet)) throw conflict('object keys must be unique', pos);
  set.add(v);
}

export function ensureObject(out: RegoObject, keys: readonly Value[], pos: Position): RegoObject {
  let cur = out;
  for (const key of keys) {
    let next = cur.get(key);
    if (next === undefined) {
      next = new RegoObject();
      cur.set(key, next);
    }
    if (!(next instanceof RegoObject)) throw conflict('object keys must be unique', pos);
    cur = next;
  }
  return cur;
}

/** `a` with `b`'s entries added, objects under the same key merged. */
export function mergeObjects(a: RegoObject, b: RegoObject): RegoObject {
  const out = RegoObject.from(a.sortedEntries());
  for (const [k, v] of b.sortedEntries()) {
    const prev = out.get(k);
    out.set(k, prev instanceof RegoObject && v instanceof RegoObject ? mergeObjects(prev, v) : v);
  }
  return out;
}

/** Sets `out[keys…] = v`, creating objects along the way; a different value at a leaf is a conflict. */
export function insertPath(out: RegoObject, keys: readonly Value[], v: Value, pos: Position): void {
  let cur = out;
  for (let i = 0; i < keys.length - 1; i++) {
    let next = cur.get(keys[i]!);
    if (next === undefined) {
      next = new RegoObject();
      cur.set(keys[i]!, next);
    }
    if (!(next instanceof RegoObject)) throw conflict('object keys must be unique', pos);
    cur = next;
  }
  const last = keys[keys.length - 1]!;
  const prev = cur.get(last);
  if (prev !== undefined && !equal(prev, v)) throw conflict('object keys must be unique', pos);
  cur.set(last, v);
}
