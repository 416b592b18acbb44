// structuredClone (HTML's structured serialize/deserialize, in one pass). Cloneable: primitives
// but symbols, their wrapper objects, Date, RegExp, ArrayBuffer and views, Map, Set, Error types,
// arrays and plain objects (class instances become plain objects), plus platform types that
// register themselves (Blob, File). Anything else throws a DataCloneError.
import { DOMException } from './dom-exception.js';
import { nodeError } from './errors.js';

const ERROR_TYPES = {
  __proto__: null,
  Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError,
};
/** Platform classes with their own clone steps: [class, (value, clone) => copy]. */
const cloneable = [];

export function registerCloneable(Ctor, cloneSteps) {
  cloneable.push([Ctor, cloneSteps]);
}

function describe(v) {
  if (typeof v === 'symbol') return String(v);
  if (typeof v === 'function') {
    try {
      return Function.prototype.toString.call(v);
    } catch {
      return 'function';
    }
  }
  let name = 'Object';
  try {
    name = v.constructor?.name || 'Object';
  } catch { /* hostile getter */ }
  return `#<${name}>`;
}

function cannotClone(v) {
  return new DOMException(`${describe(v)} could not be cloned.`, 'DataCloneError');
}

export function structuredClone(value, options = undefined) {
  // Node 24's text, doubled quote-in-quote and all.
  if (arguments.length === 0) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "The value argument must be specified" argument must be specified');
  const memory = new Map();
  const transfer = options?.transfer;
  if (transfer !== undefined && transfer !== null) {
    for (const t of transfer) {
      if (!(t instanceof ArrayBuffer)) throw new DOMException('Value not transferable', 'DataCloneError');
      if (memory.has(t)) throw new DOMException('Duplicate ArrayBuffer in the transfer list', 'DataCloneError');
      memory.set(t, undefined);
    }
    for (const t of [...memory.keys()]) {
      // ArrayBuffer.prototype.transfer detaches the original, as a transfer must.
      memory.set(t, typeof t.transfer === 'function' ? t.transfer() : t.slice(0));
    }
  }
  return clone(value, memory);
}

function clone(v, memory) {
  if (v === null || (typeof v !== 'object' && typeof v !== 'function')) {
    if (typeof v === 'symbol') throw cannotClone(v);
    return v;
  }
  if (memory.has(v)) return memory.get(v);
  if (typeof v === 'function') throw cannotClone(v);
  let out;
  const tag = Object.prototype.toString.call(v);
  if (v instanceof Date) out = new Date(v.getTime());
  else if (v instanceof RegExp) out = new RegExp(v.source, v.flags);
  else if (v instanceof ArrayBuffer) {
    out = v.slice(0);
  } else if (ArrayBuffer.isView(v)) {
    const buffer = clone(v.buffer, memory);
    if (v instanceof DataView) out = new DataView(buffer, v.byteOffset, v.byteLength);
    else {
      const Ctor = typedArrayCtor(v);
      out = new Ctor(buffer, v.byteOffset, v.length);
    }
  } else if (v instanceof Map) {
    out = new Map();
    memory.set(v, out);
    const entries = [...v];
    for (const [k, val] of entries) out.set(clone(k, memory), clone(val, memory));
    return out;
  } else if (v instanceof Set) {
    out = new Set();
    memory.set(v, out);
    const values = [...v];
    for (const val of values) out.add(clone(val, memory));
    return out;
  } else if (tag === '[object Boolean]') out = Object(Boolean.prototype.valueOf.call(v));
  else if (tag === '[object Number]') out = Object(Number.prototype.valueOf.call(v));
  else if (tag === '[object String]') out = Object(String.prototype.valueOf.call(v));
  else if (tag === '[object BigInt]') out = Object(BigInt.prototype.valueOf.call(v));
  else if (v instanceof Error) {
    const name = v.name;
    const Ctor = ERROR_TYPES[name] ?? Error;
    out = Object.create(Ctor.prototype);
    memory.set(v, out);
    const msg = Object.getOwnPropertyDescriptor(v, 'message');
    if (msg !== undefined) Object.defineProperty(out, 'message', { value: String(v.message), writable: true, configurable: true });
    if (typeof v.stack === 'string') Object.defineProperty(out, 'stack', { value: v.stack, writable: true, configurable: true });
    if ('cause' in v) Object.defineProperty(out, 'cause', { value: clone(v.cause, memory), writable: true, configurable: true });
    return out;
  } else {
    for (const [Ctor, steps] of cloneable) {
      if (v instanceof Ctor) {
        out = steps(v, (x) => clone(x, memory));
        memory.set(v, out);
        return out;
      }
    }
    if (Array.isArray(v)) {
      out = new Array(v.length);
      memory.set(v, out);
      for (const key of Object.keys(v)) out[key] = clone(v[key], memory);
      return out;
    }
    if (isPlatformObject(v)) throw cannotClone(v);
    out = {};
    memory.set(v, out);
    for (const key of Object.keys(v)) out[key] = clone(v[key], memory);
    return out;
  }
  memory.set(v, out);
  return out;
}

function typedArrayCtor(v) {
  switch (Object.prototype.toString.call(v)) {
    case '[object Int8Array]': return Int8Array;
    case '[object Uint8ClampedArray]': return Uint8ClampedArray;
    case '[object Int16Array]': return Int16Array;
    case '[object Uint16Array]': return Uint16Array;
    case '[object Int32Array]': return Int32Array;
    case '[object Uint32Array]': return Uint32Array;
    case '[object Float32Array]': return Float32Array;
    case '[object Float64Array]': return Float64Array;
    case '[object BigInt64Array]': return BigInt64Array;
    case '[object BigUint64Array]': return BigUint64Array;
    default: return Uint8Array;
  }
}

/** Promises, weak collections and other host objects are not serializable. */
function isPlatformObject(v) {
  return v instanceof Promise || v instanceof WeakMap || v instanceof WeakSet
    || (typeof WeakRef === 'function' && v instanceof WeakRef);
}
