// Which builtins the guest platform captures before user code runs: primordialize.ts rewrites
// the platform's code to use the captured copies and generates the code that captures them.

/** Global bindings the platform's code sees as the values captured at boot (free references are shadowed). */
export const SHADOWED_GLOBALS: readonly string[] = [
  'Object', 'Function', 'Array', 'Number', 'Boolean', 'String', 'Symbol', 'Date', 'Promise', 'RegExp',
  'Error', 'AggregateError', 'EvalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError',
  'ArrayBuffer', 'SharedArrayBuffer', 'DataView', 'Uint8Array', 'Int8Array', 'Uint16Array', 'Int16Array',
  'Uint32Array', 'Int32Array', 'Float32Array', 'Float64Array', 'Uint8ClampedArray', 'BigUint64Array', 'BigInt64Array',
  'Map', 'Set', 'WeakMap', 'WeakSet', 'WeakRef', 'FinalizationRegistry', 'Proxy', 'BigInt',
  'parseFloat', 'parseInt', 'isFinite', 'isNaN', 'decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent',
  'escape', 'unescape',
];

/** Namespaces and constructors whose function-valued statics are captured (`Object.keys` → the boot-time copy). */
export const STATIC_HOLDERS: readonly string[] = [
  'Object', 'Array', 'Number', 'String', 'Symbol', 'Promise', 'Reflect', 'JSON', 'Math', 'ArrayBuffer', 'BigInt',
  'Date', 'Error', 'Uint8Array', 'Proxy',
];

/**
 * Builtins plain member syntax cannot name (accessors, symbol-keyed methods): platform code reads
 * them as `__runjs_P.boot_*`, and the boot capture evaluates these expressions (in the capture's
 * scope: `g` is globalThis, `getProto` Object.getPrototypeOf) before any user code runs.
 */
export const BOOT_CAPTURES: Readonly<Record<string, string>> = {
  boot_StringProto_iterator: 'String.prototype[Symbol.iterator]',
  boot_StringIterator_next: "getProto(''[Symbol.iterator]()).next",
  boot_MapIterator_next: 'getProto(new Map()[Symbol.iterator]()).next',
  boot_SetIterator_next: 'getProto(new Set()[Symbol.iterator]()).next',
  boot_ArrayIterator_next: 'getProto([][Symbol.iterator]()).next',
  boot_Iterator_proto: 'getProto(getProto([][Symbol.iterator]()))',
  boot_MapIterator_proto: 'getProto(new Map()[Symbol.iterator]())',
  boot_SetIterator_proto: 'getProto(new Set()[Symbol.iterator]())',
  boot_ArrayProto_iterator: 'Array.prototype[Symbol.iterator]',
  boot_MapProto_size: "Object.getOwnPropertyDescriptor(Map.prototype, 'size').get",
  boot_SetProto_size: "Object.getOwnPropertyDescriptor(Set.prototype, 'size').get",
  boot_TypedArrayProto_length: "Object.getOwnPropertyDescriptor(getProto(Uint8Array.prototype), 'length').get",
  boot_TypedArrayProto_toStringTag: 'Object.getOwnPropertyDescriptor(getProto(Uint8Array.prototype), Symbol.toStringTag).get',
  boot_FunctionProto_hasInstance: 'Function.prototype[Symbol.hasInstance]',
  boot_RegExpProto_replace: 'RegExp.prototype[Symbol.replace]',
  boot_RegExpProto_split: 'RegExp.prototype[Symbol.split]',
  boot_RegExpProto_exec: 'RegExp.prototype.exec',
};

/**
 * Prototypes whose methods are captured. A method call `x.m(...)` in platform code becomes a call
 * through a dispatcher that uses the boot-time method whenever `x.m` is what one of these
 * prototypes holds now (so a user overwriting `Array.prototype.push` is ignored, while a
 * subclass's own override is still used).
 */
export const PROTOTYPE_HOLDERS: readonly string[] = [
  'String', 'Array', 'TypedArray', 'Uint8Array', 'ArrayBuffer', 'DataView', 'Map', 'Set', 'WeakMap', 'WeakSet',
  'Promise', 'RegExp', 'Function', 'Number', 'BigInt', 'Boolean', 'Symbol', 'Date', 'Error', 'Object',
  'ArrayIterator', 'MapIterator', 'SetIterator', 'StringIterator', 'Generator', 'AsyncGenerator',
];

/** The name of the captured-primordials binding inside bundled platform code. */
export const PRIMORDIALS_BINDING = '__runjs_P';
