// Node's deep-equality algorithm (lib/internal/util/comparisons.js), strict and loose: what
// util.isDeepStrictEqual and assert.deep(Strict)Equal compare.
import core from 'runjs:part/core';
import { types } from './types.js';

const { isDate, isRegExp, isNativeError, isBoxedPrimitive, isNumberObject, isStringObject, isBooleanObject,
  isBigIntObject, isSymbolObject, isAnyArrayBuffer, isArrayBufferView, isMap, isSet, isWeakMap, isWeakSet } = types;

function isObjectLike(v) {
  return typeof v === 'object' && v !== null;
}

function ownKeys(o, strict) {
  const keys = Object.keys(o);
  if (!strict) return keys;
  for (const s of Object.getOwnPropertySymbols(o)) if (Object.prototype.propertyIsEnumerable.call(o, s)) keys.push(s);
  return keys;
}

/** Above this length a typed array's string keys are not listed (see nonIndexKeys). */
const KEYED_VIEW_MAX = 65536;

/**
 * A typed array's own enumerable keys other than its indices (Object.keys lists the indices
 * first). Listing them materialises one string per element, more than QuickJS's default heap
 * holds for two 100,000-element arrays, and no API lists only the others; so past KEYED_VIEW_MAX
 * elements only symbol keys are compared — a string-named property added to such a large typed
 * array is the one difference from Node (docs/script-environment.md).
 */
function nonIndexKeys(view, strict) {
  const keys = view.length > KEYED_VIEW_MAX ? [] : Object.keys(view).slice(view.length);
  if (strict) for (const s of Object.getOwnPropertySymbols(view)) if (Object.prototype.propertyIsEnumerable.call(view, s)) keys.push(s);
  return keys;
}

function boxedEqual(a, b) {
  if (isNumberObject(a)) return isNumberObject(b) && Object.is(Number.prototype.valueOf.call(a), Number.prototype.valueOf.call(b));
  if (isStringObject(a)) return isStringObject(b) && String.prototype.valueOf.call(a) === String.prototype.valueOf.call(b);
  if (isBooleanObject(a)) return isBooleanObject(b) && Boolean.prototype.valueOf.call(a) === Boolean.prototype.valueOf.call(b);
  if (isBigIntObject(a)) return isBigIntObject(b) && BigInt.prototype.valueOf.call(a) === BigInt.prototype.valueOf.call(b);
  if (isSymbolObject(a)) return isSymbolObject(b) && Symbol.prototype.valueOf.call(a) === Symbol.prototype.valueOf.call(b);
  return false;
}

const typedArrayKind = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), Symbol.toStringTag).get;
/** A view's element kind from its internal slot ('Uint8Array'…; undefined for a DataView). */
function viewKind(v) {
  return typedArrayKind.call(v);
}

/**
 * Node's isError (a native error, or anything inheriting from Error.prototype). A native error
 * whose prototype was taken away is told by the engine's Error.isError where it has one; the
 * fallback is its tag, which an object can claim. Looked up at each call, as types.js's
 * SharedArrayBuffer: on V8 a realm's Error.isError is installed after the startup snapshot the
 * platform boots from.
 */
function isError(v) {
  const engineIsError = globalThis.Error.isError;
  return (typeof engineIsError === 'function' ? engineIsError(v) : isNativeError(v)) || v instanceof Error;
}

function bytesOf(v) {
  return new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
}

function primitiveEqual(a, b, strict) {
  // eslint-disable-next-line eqeqeq
  return strict ? Object.is(a, b) : a == b || (Number.isNaN(a) && Number.isNaN(b));
}

/** `skipProto`: Node 24's Assert option skipPrototype — strict comparison without the prototype check. */
export function deepEqual(a, b, strict, memo = undefined, skipProto = false) {
  if (a === b) return a !== 0 || !strict || Object.is(a, b);
  if (!isObjectLike(a) || !isObjectLike(b)) {
    if (typeof a === 'function' || typeof b === 'function') return false;
    if (isObjectLike(a) || isObjectLike(b)) return strict ? false : !isObjectLike(a) && !isObjectLike(b) ? primitiveEqual(a, b, strict) : false;
    return primitiveEqual(a, b, strict);
  }
  if (strict && !skipProto && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const tagA = Object.prototype.toString.call(a);
  if (tagA !== Object.prototype.toString.call(b)) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
  } else if (isDate(a)) {
    if (!isDate(b) || Date.prototype.getTime.call(a) !== Date.prototype.getTime.call(b)) return false;
  } else if (isRegExp(a)) {
    if (!isRegExp(b) || a.source !== b.source || a.flags !== b.flags || a.lastIndex !== b.lastIndex) return false;
  } else if (isError(a)) {
    if (!isError(b) || a.message !== b.message || a.name !== b.name) return false;
    // Node 24 also compares the non-enumerable `cause` and `errors` (AggregateError).
    for (const key of ['cause', 'errors']) {
      const enumerable = Object.prototype.propertyIsEnumerable.call(a, key);
      if (enumerable !== Object.prototype.propertyIsEnumerable.call(b, key)) return false;
      if (enumerable) continue; // compared with the other keys
      const has = Object.prototype.hasOwnProperty.call(a, key);
      if (has !== Object.prototype.hasOwnProperty.call(b, key)) return false;
      if (has && !deepEqual(a[key], b[key], strict, memo, skipProto)) return false;
    }
  } else if (isArrayBufferView(a)) {
    // The views' kinds (not their toStringTag, which an object can claim) must agree, as in Node.
    if (!isArrayBufferView(b) || viewKind(a) !== viewKind(b) || a.byteLength !== b.byteLength) return false;
    if (!strict && (tagA === '[object Float32Array]' || tagA === '[object Float64Array]')) {
      for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    } else {
      const x = bytesOf(a);
      const y = bytesOf(b);
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    }
    // Extra own keys on typed arrays are compared below like object keys.
    const ka = nonIndexKeys(a, strict);
    const kb = nonIndexKeys(b, strict);
    if (ka.length !== kb.length) return false;
    return keysEqual(a, b, strict, memo, ka, skipProto);
  } else if (isWeakMap(a) || isWeakSet(a)) {
    // As Node: weak collections cannot be compared, so only the same one is equal (a === b above).
    return false;
  } else if (tagA === '[object URL]' && a instanceof URL) {
    // As Node 24: URLs compare by href (their state is internal).
    if (!(b instanceof URL) || a.href !== b.href) return false;
  } else if (isAnyArrayBuffer(a)) {
    if (!isAnyArrayBuffer(b) || a.byteLength !== b.byteLength) return false;
    const x = new Uint8Array(a);
    const y = new Uint8Array(b);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  } else if (isBoxedPrimitive(a)) {
    if (!boxedEqual(a, b)) return false;
  } else if (isBoxedPrimitive(b) || isMap(a) !== isMap(b) || isSet(a) !== isSet(b) || Array.isArray(b) || isArrayBufferView(b)
    || isDate(b) || isRegExp(b) || isAnyArrayBuffer(b) || isError(b)) {
    // As Node: `a` is none of the builtins above, so `b` may not be one either (an object that
    // only claims a builtin's tag and prototype is not that builtin).
    return false;
  } else {
    for (const hook of core.host.deepEqualHooks) if (hook(a, b) === false) return false;
  }
  const ka = ownKeys(a, strict);
  const kb = ownKeys(b, strict);
  if (ka.length !== kb.length) return false;
  for (const k of kb) if (!Object.prototype.propertyIsEnumerable.call(a, k)) return false;

  // Cycles: a pair already being compared is assumed equal.
  if (memo === undefined) memo = { a: new Map(), b: new Map(), position: 0 };
  else {
    const ma = memo.a.get(a);
    if (ma !== undefined) {
      const mb = memo.b.get(b);
      if (mb !== undefined) return ma === mb;
    }
    memo.position++;
  }
  memo.a.set(a, memo.position);
  memo.b.set(b, memo.position);
  let ok = keysEqual(a, b, strict, memo, ka, skipProto);
  if (ok && isSet(a)) ok = setEqual(a, b, strict, memo, skipProto);
  else if (ok && isMap(a)) ok = mapEqual(a, b, strict, memo, skipProto);
  memo.a.delete(a);
  memo.b.delete(b);
  return ok;
}

function keysEqual(a, b, strict, memo, keys, skipProto) {
  for (const k of keys) if (!deepEqual(a[k], b[k], strict, memo, skipProto)) return false;
  return true;
}

function setEqual(a, b, strict, memo, skipProto) {
  if (a.size !== b.size) return false;
  const pending = [];
  for (const v of a) {
    if (isObjectLike(v) || (!strict && typeof v !== 'symbol')) pending.push(v);
    else if (!b.has(v)) return false;
  }
  if (pending.length === 0) return true;
  const candidates = [];
  for (const v of b) if (isObjectLike(v) || (!strict && !a.has(v))) candidates.push(v);
  for (const v of pending) {
    if (!strict && !isObjectLike(v) && b.has(v)) continue;
    const i = candidates.findIndex((c) => deepEqual(v, c, strict, memo, skipProto));
    if (i < 0) return false;
    candidates.splice(i, 1);
  }
  return true;
}

function mapEqual(a, b, strict, memo, skipProto) {
  if (a.size !== b.size) return false;
  const pending = [];
  const exact = new Set();
  for (const [k, v] of a) {
    if (isObjectLike(k)) pending.push([k, v]);
    else if (!b.has(k) || !deepEqual(v, b.get(k), strict, memo, skipProto)) {
      if (strict) return false;
      pending.push([k, v]);
    } else exact.add(k);
  }
  if (pending.length === 0) return true;
  // An entry of b that a key of a already matched exactly cannot also match a loosely equal key.
  const candidates = [];
  for (const [k, v] of b) if (isObjectLike(k) || (!strict && !exact.has(k))) candidates.push([k, v]);
  for (const [k, v] of pending) {
    const i = candidates.findIndex(([ck, cv]) => deepEqual(k, ck, strict, memo, skipProto) && deepEqual(v, cv, strict, memo, skipProto));
    if (i < 0) return false;
    candidates.splice(i, 1);
  }
  return true;
}

export function isDeepStrictEqual(a, b) {
  return deepEqual(a, b, true);
}
