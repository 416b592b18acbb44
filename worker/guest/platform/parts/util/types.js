// util.types: brand checks for builtin objects (the internal slot, not Symbol.toStringTag).
import core from 'runjs:part/core';

const tryCall = (fn, v) => {
  try {
    fn.call(v);
    return true;
  } catch {
    return false;
  }
};
const TypedArrayProto = Object.getPrototypeOf(Uint8Array.prototype);
const typedArrayTag = Object.getOwnPropertyDescriptor(TypedArrayProto, Symbol.toStringTag).get;
const byteLengthGetter = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;
// Looked up at each call, not at load: on V8 a realm's SharedArrayBuffer is installed after the
// startup snapshot the platform boots from, so a getter captured early (or a miss) would be stale.
const isSab = (v) => {
  const Sab = globalThis.SharedArrayBuffer;
  const getter = typeof Sab === 'function' ? Object.getOwnPropertyDescriptor(Sab.prototype, 'byteLength')?.get : undefined;
  return typeof getter === 'function' && tryCall(getter, v);
};
const dataViewByteLength = Object.getOwnPropertyDescriptor(DataView.prototype, 'byteLength').get;
const mapSize = Object.getOwnPropertyDescriptor(Map.prototype, 'size').get;
const setSize = Object.getOwnPropertyDescriptor(Set.prototype, 'size').get;
const isObject = (v) => (typeof v === 'object' && v !== null) || typeof v === 'function';
const tagOf = (v) => (ArrayBuffer.isView(v) ? typedArrayTag.call(v) : undefined);
const protoTag = (v) => {
  try {
    return Object.prototype.toString.call(Object.getPrototypeOf(v));
  } catch {
    return '';
  }
};

/* global __runjs_P */ // the captured primordials (boot-time iterator prototypes)
const MapIteratorProto = __runjs_P.boot_MapIterator_proto;
const promiseDetails = core.host.promiseDetails;
const SetIteratorProto = __runjs_P.boot_SetIterator_proto;
const GeneratorProto = Object.getPrototypeOf(function* () {}).prototype;
// Node asks V8 what kind of function a function *is* (its code), whatever its prototype became:
// a generator whose prototype was set to AsyncFunction.prototype, or to null, is still a generator
// and no async function. No engine API tells that here, so the kind is read from the function's
// source text (Function.prototype.toString, which a script cannot fake for the function itself):
// `async` heads an async function, arrow or method; `function*` or a leading `*` a generator.
// Native and bound functions print `function … { [native code] }`: neither kind, as in V8.
const functionToString = Function.prototype.toString;
const ReflectApply = Reflect.apply;
const ASYNC_HEAD = /^async(?:\s+|(?=[*(]))/;
const ASYNC_REST = /^(?:function(?![\w$])|\*|\[|[\w$\u0080-\uffff]+\s*(?:\(|=>)|\((?:[^()]|\([^()]*\))*\)\s*=>)/;
const GENERATOR_HEAD = /^(?:function\s*\*|\*)/;
/** 0 plain, 1 async, 2 generator, 3 async generator. */
function functionKind(fn) {
  let src;
  try {
    src = ReflectApply(functionToString, fn, []);
  } catch {
    return 0;
  }
  const head = ASYNC_HEAD.exec(src);
  const rest = head === null ? src : src.slice(head[0].length);
  const isAsync = head !== null && ASYNC_REST.test(rest);
  return (isAsync ? 1 : 0) + (GENERATOR_HEAD.test(isAsync ? rest : src) ? 2 : 0);
}

export const types = {
  isAnyArrayBuffer: (v) => isObject(v) && (tryCall(byteLengthGetter, v) || isSab(v)),
  isArrayBuffer: (v) => isObject(v) && tryCall(byteLengthGetter, v),
  isSharedArrayBuffer: (v) => isObject(v) && isSab(v),
  isArrayBufferView: (v) => ArrayBuffer.isView(v),
  isTypedArray: (v) => tagOf(v) !== undefined,
  isUint8Array: (v) => tagOf(v) === 'Uint8Array',
  isUint8ClampedArray: (v) => tagOf(v) === 'Uint8ClampedArray',
  isUint16Array: (v) => tagOf(v) === 'Uint16Array',
  isUint32Array: (v) => tagOf(v) === 'Uint32Array',
  isInt8Array: (v) => tagOf(v) === 'Int8Array',
  isInt16Array: (v) => tagOf(v) === 'Int16Array',
  isInt32Array: (v) => tagOf(v) === 'Int32Array',
  isFloat16Array: (v) => tagOf(v) === 'Float16Array',
  isFloat32Array: (v) => tagOf(v) === 'Float32Array',
  isFloat64Array: (v) => tagOf(v) === 'Float64Array',
  isBigInt64Array: (v) => tagOf(v) === 'BigInt64Array',
  isBigUint64Array: (v) => tagOf(v) === 'BigUint64Array',
  isDataView: (v) => isObject(v) && tryCall(dataViewByteLength, v),
  isMap: (v) => isObject(v) && tryCall(mapSize, v),
  isSet: (v) => isObject(v) && tryCall(setSize, v),
  isWeakMap: (v) => isObject(v) && tryCall(function () { WeakMap.prototype.has.call(this, {}); }, v),
  isWeakSet: (v) => isObject(v) && tryCall(function () { WeakSet.prototype.has.call(this, {}); }, v),
  isDate: (v) => isObject(v) && tryCall(Date.prototype.getTime, v),
  isRegExp: (v) => isObject(v) && tryCall(Object.getOwnPropertyDescriptor(RegExp.prototype, 'source').get, v) && v !== RegExp.prototype,
  // QuickJS's engine answers the brand check (a promise without its prototype is one); V8 offers
  // the platform none without side effects, so there the prototype chain or tag decides.
  isPromise: (v) => isObject(v) && (promiseDetails !== undefined ? promiseDetails(v)[0] !== -1 : v instanceof Promise || protoTag(v) === '[object Promise]'),
  // The engine's Error.isError (looked up per call: on V8 it is installed after the startup
  // snapshot the platform boots from) tells a native error whose prototype was changed; without
  // it, the tag and the prototype chain.
  isNativeError: (v) => {
    const engineIsError = globalThis.Error.isError;
    if (typeof engineIsError === 'function') return engineIsError(v);
    return isObject(v) && Object.prototype.toString.call(v) === '[object Error]' && v instanceof Error;
  },
  isBooleanObject: (v) => isObject(v) && tryCall(Boolean.prototype.valueOf, v),
  isNumberObject: (v) => isObject(v) && tryCall(Number.prototype.valueOf, v),
  isStringObject: (v) => isObject(v) && tryCall(String.prototype.valueOf, v),
  isBigIntObject: (v) => isObject(v) && tryCall(BigInt.prototype.valueOf, v),
  isSymbolObject: (v) => isObject(v) && tryCall(Symbol.prototype.valueOf, v),
  isBoxedPrimitive: (v) => types.isBooleanObject(v) || types.isNumberObject(v) || types.isStringObject(v) || types.isBigIntObject(v) || types.isSymbolObject(v),
  isMapIterator: (v) => isObject(v) && Object.getPrototypeOf(v) === MapIteratorProto,
  isSetIterator: (v) => isObject(v) && Object.getPrototypeOf(v) === SetIteratorProto,
  isGeneratorObject: (v) => isObject(v) && Object.getPrototypeOf(Object.getPrototypeOf(v)) === GeneratorProto,
  isAsyncFunction: (v) => typeof v === 'function' && (functionKind(v) & 1) === 1,
  isGeneratorFunction: (v) => typeof v === 'function' && (functionKind(v) & 2) === 2,
  isArgumentsObject: (v) => isObject(v) && Object.prototype.toString.call(v) === '[object Arguments]',
  isModuleNamespaceObject: (v) => isObject(v) && Object.getPrototypeOf(v) === null && v[Symbol.toStringTag] === 'Module',
  isProxy: () => false,
  isExternal: () => false,
  isWeakRef: (v) => typeof WeakRef === 'function' && isObject(v) && tryCall(WeakRef.prototype.deref, v),
  isKeyObject: () => false,
  isCryptoKey: (v) => isObject(v) && Object.prototype.toString.call(v) === '[object CryptoKey]',
};
