// Small helpers over Rego collections the evaluator shares: key lookup (`x[k]`) and iteration in
// Rego's order (arrays by index, objects by sorted key, sets by sorted element as key and value),
// and the copy-on-write update `with input.a.b as v` needs.
import { RegoObject, RegoSet, type Value } from './values.ts';

/** `coll[key]`, undefined when absent or not a collection. */
export function lookup(coll: Value, key: Value): Value | undefined {
  if (typeof coll !== 'object' || coll === null) return undefined;
  if (Array.isArray(coll)) return typeof key === 'number' && Number.isInteger(key) && key >= 0 ? coll[key] : undefined;
  if (coll instanceof RegoObject) return coll.get(key);
  return coll.has(key) ? key : undefined;
}

/** Calls `f(key, value)` for each entry until it returns true (then returns true). */
export function forEachEntry(coll: Value, f: (key: Value, value: Value) => boolean): boolean {
  if (typeof coll !== 'object' || coll === null) return false;
  if (Array.isArray(coll)) {
    for (let i = 0; i < coll.length; i++) if (f(i, coll[i]!)) return true;
    return false;
  }
  if (coll instanceof RegoSet) {
    for (const v of coll.sorted()) if (f(v, v)) return true;
    return false;
  }
  for (const [k, v] of coll.sortedEntries()) if (f(k, v)) return true;
  return false;
}

/** `doc` with the value at `path` replaced (objects along the path are copied, or created). */
export function setPath(doc: Value | undefined, path: readonly string[], value: Value): Value {
  if (path.length === 0) return value;
  const obj = new RegoObject();
  if (doc instanceof RegoObject) for (const [k, v] of doc.sortedEntries()) obj.set(k, v);
  obj.set(path[0]!, setPath(obj.get(path[0]!), path.slice(1), value));
  return obj;
}

export function isCollection(v: Value): v is Value[] | RegoObject | RegoSet {
  return typeof v === 'object' && v !== null;
}
