// WebIDL's property shapes for the web interfaces the parts write as classes: a class makes its
// methods and accessors non-enumerable, WebIDL makes every regular and static operation and
// attribute enumerable (WPT's idlharness checks the descriptors), and an interface without a
// constructor has length 0 where the class's private-token parameter gives it 1 or more.
// Applied once per part, when the part is evaluated.

/** Interface name → the `length` WebIDL gives it, or null where the class already has it right. */
const INTERFACES = {
  Event: null, CustomEvent: null, EventTarget: null, AbortSignal: 0, AbortController: null,
  DOMException: null, QuotaExceededError: null, Performance: 0, PerformanceEntry: 0, PerformanceMark: null,
  PerformanceMeasure: 0, Crypto: 0, SubtleCrypto: 0, CryptoKey: 0, MessageEvent: null, ErrorEvent: null,
  CloseEvent: null, PromiseRejectionEvent: null, MessagePort: null, MessageChannel: null, TextEncoder: null,
  TextDecoder: null, URL: null, URLSearchParams: null, Navigator: 0, Headers: null, Request: null,
  Response: null, Blob: null, File: null, FormData: null, CompressionStream: null, DecompressionStream: null,
  TextEncoderStream: null, TextDecoderStream: null, WebSocket: null,
};

function enumerableMembers(target, skip) {
  const keys = Object.getOwnPropertyNames(target);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (skip.includes(key)) continue;
    const d = Object.getOwnPropertyDescriptor(target, key);
    // Constants are already enumerable and not configurable.
    if (d.enumerable || !d.configurable) continue;
    d.enumerable = true;
    Object.defineProperty(target, key, d);
  }
}

const PROTO_SKIP = ['constructor'];
const STATIC_SKIP = ['length', 'name', 'prototype'];

/**
 * The prototypes of the classes the parts install as globals: their instances are platform
 * objects, which structuredClone must refuse unless the class has clone or transfer steps of its
 * own (HTML: a platform object that is not serializable throws DataCloneError; a class instance
 * of the script's own is an ordinary object and is cloned as one).
 */
const platformPrototypes = new WeakSet();

/** Whether v is an instance of a platform class (or of a script's subclass of one). */
export function isPlatformInstance(v) {
  for (let p = Object.getPrototypeOf(v); p !== null; p = Object.getPrototypeOf(p)) {
    if (platformPrototypes.has(p)) return true;
  }
  return false;
}

/** Gives the interfaces among a part's `globals` their WebIDL shape. */
export function shapeInterfaces(globals) {
  if (globals === undefined || globals === null) return;
  const names = Object.keys(globals);
  for (let i = 0; i < names.length; i++) {
    const C = globals[names[i]];
    if (typeof C === 'function' && C.prototype !== null && typeof C.prototype === 'object' && C.prototype !== Object.prototype) platformPrototypes.add(C.prototype);
  }
  for (const name in INTERFACES) {
    if (!Object.hasOwn(globals, name)) continue;
    const C = globals[name];
    if (typeof C !== 'function' || C.prototype === undefined) continue;
    enumerableMembers(C.prototype, PROTO_SKIP);
    enumerableMembers(C, STATIC_SKIP);
    const length = INTERFACES[name];
    if (length !== null) Object.defineProperty(C, 'length', { value: length, configurable: true });
  }
}
