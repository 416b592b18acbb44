// assert.partialDeepStrictEqual's comparison: `expected` may leave out what `actual` has — object
// keys, Map entries, Set members, and array elements (the rest must appear in order, as a
// subsequence). Values it does not take apart (dates, regexps, errors, typed arrays, boxed
// primitives) must be deep-strict-equal, as in Node 24.
// From the util part (not its files): bundling them here would put a second copy in the assert part.
import utilPart from 'runjs:part/util';

const { deepEqual } = utilPart;
const types = utilPart.modules['util/types'];

const isObjectLike = (v) => (typeof v === 'object' && v !== null) || typeof v === 'function';

export function partialDeepStrictEqual(actual, expected) {
  if (!isObjectLike(expected) || !isObjectLike(actual)) return Object.is(actual, expected);
  if (actual === expected) return true;
  if (Object.getPrototypeOf(actual) !== Object.getPrototypeOf(expected)) return false;
  if (Array.isArray(expected)) {
    let i = 0;
    for (const want of expected) {
      while (i < actual.length && !partialDeepStrictEqual(actual[i], want)) i++;
      if (i === actual.length) return false;
      i++;
    }
    return true;
  }
  if (types.isSet(expected)) {
    const pending = [...actual].filter(isObjectLike);
    for (const want of expected) {
      if (!isObjectLike(want)) {
        if (!actual.has(want)) return false;
        continue;
      }
      const at = pending.findIndex((got) => partialDeepStrictEqual(got, want));
      if (at < 0) return false;
      pending.splice(at, 1);
    }
    return true;
  }
  if (types.isMap(expected)) {
    for (const [key, want] of expected) {
      if (isObjectLike(key)) {
        if (![...actual].some(([k, v]) => deepEqual(k, key, true) && partialDeepStrictEqual(v, want))) return false;
      } else if (!actual.has(key) || !partialDeepStrictEqual(actual.get(key), want)) return false;
    }
    return true;
  }
  if (types.isDate(expected) || types.isRegExp(expected) || types.isNativeError(expected) || expected instanceof Error
    || ArrayBuffer.isView(expected) || types.isAnyArrayBuffer(expected) || types.isBoxedPrimitive(expected) || typeof expected === 'function') {
    return deepEqual(actual, expected, true);
  }
  for (const key of Reflect.ownKeys(expected)) {
    if (!Object.prototype.propertyIsEnumerable.call(expected, key)) continue;
    if (!Object.prototype.propertyIsEnumerable.call(actual, key) || !partialDeepStrictEqual(actual[key], expected[key])) return false;
  }
  return true;
}
