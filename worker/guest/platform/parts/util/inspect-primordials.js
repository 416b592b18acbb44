// Replaces node-inspect-extracted's own `primordials` module (patched in by
// scripts/guest-bundle/patches.ts). The original builds its table when the util part loads, by
// walking the live globals and prototypes, so a script that overwrote Array.prototype.push or
// Function.prototype.bind before its first require('util') broke util and assert. Here every entry
// is written as a plain builtin reference, which primordialize.ts rewrites to the copy captured at
// realm boot; the few builtins it cannot express (getters, symbol-keyed methods) come from
// __runjs_P.boot_* captures (scripts/guest-bundle/primordials-names.ts BOOT_CAPTURES).
// Only the names node-inspect-extracted 3.3.3 actually uses are provided.
/* global __runjs_P */

/** `fn` as a function of (this, ...args), calling the boot-time Reflect.apply. */
function uncurryThis(fn) {
  return (self, ...args) => Reflect.apply(fn, self, args);
}
/** `fn` as a function of (this, argsArray). */
function applyBind(fn) {
  return (self, args) => Reflect.apply(fn, self, args);
}

// Array methods that create their result through Array[Symbol.species] (which user code can
// replace by a throwing getter) are written as loops over a fresh array.
function arrayFilter(a, fn, thisArg) {
  const out = [];
  const n = a.length;
  for (let i = 0; i < n; i++) if (i in a && Reflect.apply(fn, thisArg, [a[i], i, a])) out[out.length] = a[i];
  return out;
}
function arrayMap(a, fn, thisArg) {
  const n = a.length;
  const out = new Array(n);
  for (let i = 0; i < n; i++) if (i in a) out[i] = Reflect.apply(fn, thisArg, [a[i], i, a]);
  return out;
}
function relativeIndex(i, n, fallback) {
  if (i === undefined) return fallback;
  const x = Math.trunc(Number(i)) || 0;
  return x < 0 ? Math.max(n + x, 0) : Math.min(x, n);
}
function arraySlice(a, start, end) {
  const n = a.length;
  const from = relativeIndex(start, n, 0);
  const to = relativeIndex(end, n, n);
  const out = [];
  for (let i = from; i < to; i++) out[out.length] = a[i];
  return out;
}
function arraySplice(a, start, deleteCount, ...items) {
  const n = a.length;
  const from = relativeIndex(start, n, 0);
  const count = arguments.length < 3 ? n - from : Math.min(Math.max(Math.trunc(Number(deleteCount)) || 0, 0), n - from);
  const removed = arraySlice(a, from, from + count);
  const tail = arraySlice(a, from + count, n);
  a.length = from;
  for (let i = 0; i < items.length; i++) a[a.length] = items[i];
  for (let i = 0; i < tail.length; i++) a[a.length] = tail[i];
  return removed;
}

const B = __runjs_P;
const MapProtoEntries = Map.prototype.entries;
const SetProtoValues = Set.prototype.values;
const StringProtoIterator = B.boot_StringProto_iterator;
const StringIteratorNext = B.boot_StringIterator_next;
const MapIteratorNext = B.boot_MapIterator_next;
const SetIteratorNext = B.boot_SetIterator_next;

/** An iterator over `source` that calls the boot-time `next` (user changes to iterator prototypes do not reach it). */
function safeIterator(make, next) {
  class SafeIterator {
    constructor(source) { this._iterator = Reflect.apply(make, source, []); }
    next() { return Reflect.apply(next, this._iterator, []); }
    [Symbol.iterator]() { return this; }
  }
  Object.setPrototypeOf(SafeIterator.prototype, null);
  Object.freeze(SafeIterator.prototype);
  Object.freeze(SafeIterator);
  return SafeIterator;
}
const SafeStringIterator = safeIterator(StringProtoIterator, StringIteratorNext);
const SafeMapIterator = safeIterator(MapProtoEntries, MapIteratorNext);
const SafeSetIterator = safeIterator(SetProtoValues, SetIteratorNext);

/** A subclass of Map/Set/WeakMap whose own prototype holds the boot-time methods. */
function makeSafe(Base, methods, size) {
  const Safe = class extends Base {};
  const descriptors = { __proto__: null };
  for (let i = 0; i < methods.length; i += 2) {
    const key = methods[i];
    const fn = methods[i + 1];
    descriptors[key] = { __proto__: null, value: fn, writable: true, configurable: true };
  }
  if (size !== undefined) descriptors.size = { __proto__: null, get: size, configurable: true };
  Object.defineProperties(Safe.prototype, descriptors);
  Object.setPrototypeOf(Safe.prototype, null);
  Object.freeze(Safe.prototype);
  Object.freeze(Safe);
  return Safe;
}

const SafeMap = makeSafe(Map, [
  'get', Map.prototype.get, 'set', Map.prototype.set, 'has', Map.prototype.has, 'delete', Map.prototype.delete,
  'clear', Map.prototype.clear, 'forEach', Map.prototype.forEach, 'keys', Map.prototype.keys, 'values', Map.prototype.values,
  'entries', function entries() { return new SafeMapIterator(this); },
  Symbol.iterator, function entries() { return new SafeMapIterator(this); },
], B.boot_MapProto_size);
const SafeSet = makeSafe(Set, [
  'add', Set.prototype.add, 'has', Set.prototype.has, 'delete', Set.prototype.delete, 'clear', Set.prototype.clear,
  'forEach', Set.prototype.forEach, 'keys', Set.prototype.keys, 'entries', Set.prototype.entries,
  'values', function values() { return new SafeSetIterator(this); },
  Symbol.iterator, function values() { return new SafeSetIterator(this); },
], B.boot_SetProto_size);
const SafeWeakMap = makeSafe(WeakMap, [
  'get', WeakMap.prototype.get, 'set', WeakMap.prototype.set, 'has', WeakMap.prototype.has, 'delete', WeakMap.prototype.delete,
]);

const TypedArray = Object.getPrototypeOf(Uint8Array);

const primordials = {
  __proto__: null,
  uncurryThis,
  applyBind,
  globalThis,
  Proxy,
  ProxyRevocable: Proxy.revocable,
  JSONStringify: JSON.stringify,
  MathFloor: Math.floor, MathMax: Math.max, MathMin: Math.min, MathRound: Math.round, MathSqrt: Math.sqrt, MathTrunc: Math.trunc,
  ReflectApply: Reflect.apply,
  ReflectOwnKeys: Reflect.ownKeys,
  AggregateError, AggregateErrorPrototype: AggregateError.prototype,
  Array, ArrayPrototype: Array.prototype, ArrayIsArray: Array.isArray,
  ArrayPrototypePop: uncurryThis(Array.prototype.pop),
  ArrayPrototypePush: uncurryThis(Array.prototype.push),
  ArrayPrototypePushApply: applyBind(Array.prototype.push),
  ArrayPrototypeUnshift: uncurryThis(Array.prototype.unshift),
  ArrayPrototypeSlice: arraySlice,
  ArrayPrototypeSort: uncurryThis(Array.prototype.sort),
  ArrayPrototypeSplice: arraySplice,
  ArrayPrototypeIncludes: uncurryThis(Array.prototype.includes),
  ArrayPrototypeIndexOf: uncurryThis(Array.prototype.indexOf),
  ArrayPrototypeJoin: uncurryThis(Array.prototype.join),
  ArrayPrototypeForEach: uncurryThis(Array.prototype.forEach),
  ArrayPrototypeFilter: arrayFilter,
  ArrayPrototypeMap: arrayMap,
  ArrayBuffer, ArrayBufferPrototype: ArrayBuffer.prototype,
  BigInt, BigIntPrototypeValueOf: uncurryThis(BigInt.prototype.valueOf),
  BigInt64Array, BigUint64Array,
  Boolean, BooleanPrototype: Boolean.prototype, BooleanPrototypeValueOf: uncurryThis(Boolean.prototype.valueOf),
  DataView, DataViewPrototype: DataView.prototype,
  Date, DatePrototype: Date.prototype,
  DatePrototypeToString: uncurryThis(Date.prototype.toString),
  DatePrototypeToISOString: uncurryThis(Date.prototype.toISOString),
  DatePrototypeGetTime: uncurryThis(Date.prototype.getTime),
  Error, ErrorPrototype: Error.prototype,
  ErrorCaptureStackTrace: Error.captureStackTrace,
  // Looked up per call: on V8 a realm's Error.isError is installed after the startup snapshot the
  // platform (and a preloaded util part) boots from. Undefined where the engine has none.
  ErrorIsError: (v) => {
    const isError = globalThis.Error.isError;
    return typeof isError === 'function' ? isError(v) : undefined;
  },
  ErrorPrototypeToString: uncurryThis(Error.prototype.toString),
  EvalError, Float32Array, Float64Array,
  Function, FunctionPrototype: Function.prototype,
  FunctionPrototypeBind: uncurryThis(Function.prototype.bind),
  FunctionPrototypeCall: uncurryThis(Function.prototype.call),
  FunctionPrototypeToString: uncurryThis(Function.prototype.toString),
  FunctionPrototypeSymbolHasInstance: uncurryThis(B.boot_FunctionProto_hasInstance),
  Int16Array, Int32Array, Int8Array,
  Map, MapPrototype: Map.prototype,
  MapPrototypeHas: uncurryThis(Map.prototype.has),
  MapPrototypeEntries: uncurryThis(Map.prototype.entries),
  MapPrototypeGetSize: uncurryThis(B.boot_MapProto_size),
  Number, NumberPrototype: Number.prototype,
  NumberIsFinite: Number.isFinite, NumberIsNaN: Number.isNaN, NumberParseFloat: Number.parseFloat, NumberParseInt: Number.parseInt,
  NumberPrototypeToString: uncurryThis(Number.prototype.toString),
  NumberPrototypeValueOf: uncurryThis(Number.prototype.valueOf),
  Object, ObjectPrototype: Object.prototype,
  ObjectAssign: Object.assign,
  ObjectGetOwnPropertyDescriptor: Object.getOwnPropertyDescriptor,
  ObjectGetOwnPropertyDescriptors: Object.getOwnPropertyDescriptors,
  ObjectGetOwnPropertyNames: Object.getOwnPropertyNames,
  ObjectGetOwnPropertySymbols: Object.getOwnPropertySymbols,
  ObjectIs: Object.is, ObjectSeal: Object.seal, ObjectDefineProperty: Object.defineProperty,
  ObjectGetPrototypeOf: Object.getPrototypeOf, ObjectSetPrototypeOf: Object.setPrototypeOf,
  ObjectIsFrozen: Object.isFrozen, ObjectKeys: Object.keys, ObjectEntries: Object.entries,
  ObjectPrototypeHasOwnProperty: uncurryThis(Object.prototype.hasOwnProperty),
  ObjectPrototypePropertyIsEnumerable: uncurryThis(Object.prototype.propertyIsEnumerable),
  ObjectPrototypeToString: uncurryThis(Object.prototype.toString),
  RangeError, RangeErrorPrototype: RangeError.prototype, ReferenceError,
  RegExp, RegExpPrototype: RegExp.prototype,
  RegExpPrototypeExec: uncurryThis(RegExp.prototype.exec),
  RegExpPrototypeToString: uncurryThis(RegExp.prototype.toString),
  RegExpPrototypeSymbolReplace: uncurryThis(B.boot_RegExpProto_replace),
  RegExpPrototypeSymbolSplit: uncurryThis(B.boot_RegExpProto_split),
  Set, SetPrototype: Set.prototype,
  SetPrototypeHas: uncurryThis(Set.prototype.has),
  SetPrototypeGetSize: uncurryThis(B.boot_SetProto_size),
  SetPrototypeValues: uncurryThis(Set.prototype.values),
  String, StringPrototype: String.prototype,
  StringPrototypeCharCodeAt: uncurryThis(String.prototype.charCodeAt),
  StringPrototypeCodePointAt: uncurryThis(String.prototype.codePointAt),
  StringPrototypeEndsWith: uncurryThis(String.prototype.endsWith),
  StringPrototypeIncludes: uncurryThis(String.prototype.includes),
  StringPrototypeIndexOf: uncurryThis(String.prototype.indexOf),
  StringPrototypeLastIndexOf: uncurryThis(String.prototype.lastIndexOf),
  StringPrototypeNormalize: uncurryThis(String.prototype.normalize),
  StringPrototypePadEnd: uncurryThis(String.prototype.padEnd),
  StringPrototypePadStart: uncurryThis(String.prototype.padStart),
  StringPrototypeRepeat: uncurryThis(String.prototype.repeat),
  StringPrototypeReplace: uncurryThis(String.prototype.replace),
  StringPrototypeReplaceAll: uncurryThis(String.prototype.replaceAll),
  StringPrototypeSlice: uncurryThis(String.prototype.slice),
  StringPrototypeSplit: uncurryThis(String.prototype.split),
  StringPrototypeStartsWith: uncurryThis(String.prototype.startsWith),
  StringPrototypeToLowerCase: uncurryThis(String.prototype.toLowerCase),
  StringPrototypeValueOf: uncurryThis(String.prototype.valueOf),
  Symbol, SymbolFor: Symbol.for,
  SymbolIterator: Symbol.iterator, SymbolToPrimitive: Symbol.toPrimitive, SymbolToStringTag: Symbol.toStringTag,
  SymbolPrototypeToString: uncurryThis(Symbol.prototype.toString),
  SymbolPrototypeValueOf: uncurryThis(Symbol.prototype.valueOf),
  SyntaxError, TypeError, TypeErrorPrototype: TypeError.prototype, URIError,
  Uint16Array, Uint32Array, Uint8Array, Uint8ClampedArray,
  WeakMap, WeakMapPrototype: WeakMap.prototype, WeakSet, WeakSetPrototype: WeakSet.prototype,
  Promise, PromisePrototype: Promise.prototype,
  TypedArray, TypedArrayPrototype: TypedArray.prototype,
  TypedArrayPrototypeGetLength: uncurryThis(B.boot_TypedArrayProto_length),
  TypedArrayPrototypeGetSymbolToStringTag: uncurryThis(B.boot_TypedArrayProto_toStringTag),
  SafeStringIterator,
  SafeMap,
  SafeWeakMap,
  SafeSet,
  internalBinding(name) {
    if (name === 'config') return { hasIntl: false };
    throw new Error(`unknown module: "${name}"`);
  },
};
Object.freeze(primordials);

module.exports = primordials;
