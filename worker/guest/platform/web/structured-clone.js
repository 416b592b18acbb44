// structuredClone (HTML's structured serialize/deserialize, in one pass). Cloneable: primitives
// but symbols, their wrapper objects, Date, RegExp, ArrayBuffer and views, Map, Set, Error types,
// arrays and plain objects (class instances become plain objects), plus platform types that
// register themselves (Blob, File). Anything else throws a DataCloneError. Transferable: ArrayBuffer
// and the platform types that register as such (MessagePort).
import { DOMException } from './dom-exception.js';
import { nodeError } from './errors.js';
import core from 'runjs:part/core';

const { isPlatformInstance } = core.host;

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

/**
 * Platform classes that can be transferred (MessagePort): [class, steps]. steps.detached(v) says
 * whether v was transferred already; steps.receive(v) makes the object the clone holds;
 * steps.transfer(v, received) moves v's state to it — called only once the whole value has been
 * serialized, so a clone that fails detaches nothing (HTML's StructuredSerializeWithTransfer).
 */
const transferable = [];

export function registerTransferable(Ctor, steps) {
  transferable.push([Ctor, steps]);
}

function transferStepsOf(v) {
  for (const [Ctor, steps] of transferable) if (v instanceof Ctor) return [Ctor, steps];
  return undefined;
}

function isDetached(buffer) {
  if (typeof buffer.detached === 'boolean') return buffer.detached;
  try {
    new Uint8Array(buffer);
    return false;
  } catch {
    return true;
  }
}

/** A copy of an ArrayBuffer; a resizable one stays resizable with the same maximum. */
function copyBuffer(buffer) {
  if (buffer.resizable !== true) return buffer.slice(0);
  const copy = new ArrayBuffer(buffer.byteLength, { maxByteLength: buffer.maxByteLength });
  new Uint8Array(copy).set(new Uint8Array(buffer));
  return copy;
}

/**
 * Whether a typed array or DataView over a resizable buffer tracks the buffer's length (made
 * without a length). Nothing exposes this, so the buffer is grown by one element and shrunk back:
 * the bytes it held are kept, and nothing else runs in between.
 */
function tracksLength(view) {
  const buffer = view.buffer;
  if (buffer.resizable !== true || view.byteOffset + view.byteLength !== buffer.byteLength) return false;
  const size = buffer.byteLength;
  const step = view.BYTES_PER_ELEMENT ?? 1; // a DataView's element is a byte
  if (size + step <= buffer.maxByteLength) {
    const before = view.byteLength;
    buffer.resize(size + step);
    const tracks = view.byteLength !== before;
    buffer.resize(size);
    return tracks;
  }
  if (size === 0) return false;
  // At its maximum: shrink by a byte, where a fixed-length view goes out of bounds (a typed
  // array's length reads 0, a DataView's byteLength throws).
  const last = new Uint8Array(buffer)[size - 1];
  buffer.resize(size - 1);
  let tracks;
  try { tracks = view.byteLength !== 0; } catch { tracks = false; }
  buffer.resize(size);
  new Uint8Array(buffer)[size - 1] = last;
  return tracks;
}

/** A view whose buffer is detached or that lies outside its resized buffer cannot be cloned. */
function checkInBounds(view) {
  try {
    if (view instanceof DataView) void view.byteLength;
    else TypedArrayAt.call(view, 0);
  } catch {
    throw new DOMException('An ArrayBuffer is detached or a view is out of bounds and could not be cloned.', 'DataCloneError');
  }
}
const TypedArrayAt = Object.getPrototypeOf(Uint8Array.prototype).at;

function optionsError(message) {
  return nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `Failed to execute 'structuredClone': ${message}`);
}

/** The transfer list as WebIDL's sequence<object> converts it (Node's texts). */
export function transferList(transfer) {
  if (transfer === undefined) return [];
  if ((typeof transfer !== 'object' && typeof transfer !== 'function') || transfer === null || typeof transfer[Symbol.iterator] !== 'function') {
    throw optionsError('transfer in Options cannot be converted to sequence.');
  }
  const list = [];
  for (const t of transfer) {
    if ((typeof t !== 'object' && typeof t !== 'function') || t === null) throw optionsError(`transfer in Options[${list.length}] is not an object.`);
    list.push(t);
  }
  return list;
}

export function structuredClone(value, options = undefined) {
  // Node 24's text, doubled quote-in-quote and all.
  if (arguments.length === 0) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "The value argument must be specified" argument must be specified');
  return serializeWithTransfer(value, transferList(options === undefined || options === null ? undefined : options.transfer));
}

/** ArrayBuffers that may not be transferred: node:buffer's pool, and what markAsUntransferable() marked. */
const untransferable = new WeakSet();
export function markUntransferable(buffer) {
  if ((typeof buffer === 'object' && buffer !== null) || typeof buffer === 'function') untransferable.add(buffer);
}
export function isUntransferable(value) {
  return untransferable.has(value);
}

/**
 * Clones value with the transfer list already converted; then detaches what was transferred.
 * ArrayBuffers are cloned as copies and the originals detached afterwards (the same observable
 * result as a move, and nothing is detached when the value cannot be cloned).
 */
export function serializeWithTransfer(value, transfer) {
  const memory = new Map();
  const moves = [];
  for (const t of transfer) {
    if (t instanceof ArrayBuffer) {
      if (memory.has(t)) throw new DOMException('Transfer list contains duplicate ArrayBuffer', 'DataCloneError');
      if (isDetached(t) || untransferable.has(t)) throw new DOMException('Cannot transfer object of unsupported type.', 'DataCloneError');
      memory.set(t, copyBuffer(t));
      moves.push(() => { if (typeof t.transfer === 'function') t.transfer(); });
      continue;
    }
    const found = transferStepsOf(t);
    if (found === undefined) throw new DOMException('Found invalid value in transferList.', 'DataCloneError');
    const [Ctor, steps] = found;
    if (memory.has(t)) throw new DOMException(`Transfer list contains duplicate ${Ctor.name}`, 'DataCloneError');
    if (steps.detached(t)) throw steps.lockedError?.() ?? new DOMException(`${Ctor.name} in transfer list is already detached`, 'DataCloneError');
    const received = steps.receive(t);
    memory.set(t, received);
    // HTML's transfer steps check the lock again: transferring a TransformStream locks its
    // readable and writable, so listing one of those after it is a DataCloneError, not the
    // TypeError that getReader()/getWriter() would throw.
    moves.push(() => {
      if (steps.detached(t)) throw steps.lockedError?.() ?? new DOMException(`${Ctor.name} in transfer list is already detached`, 'DataCloneError');
      steps.transfer(t, received);
    });
  }
  const out = clone(value, memory);
  for (const move of moves) move();
  return out;
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
    if (isDetached(v)) throw new DOMException('An ArrayBuffer is detached and could not be cloned.', 'DataCloneError');
    out = copyBuffer(v);
  } else if (tag === '[object SharedArrayBuffer]') {
    // Shared memory stays shared: Node's clone is a new SharedArrayBuffer over the same memory,
    // which a script cannot make; the same object is the one that shares it (a run is one realm).
    memory.set(v, v);
    return v;
  } else if (ArrayBuffer.isView(v)) {
    checkInBounds(v);
    const tracks = tracksLength(v);
    const buffer = clone(v.buffer, memory);
    if (v instanceof DataView) out = tracks ? new DataView(buffer, v.byteOffset) : new DataView(buffer, v.byteOffset, v.byteLength);
    else {
      const Ctor = typedArrayCtor(v);
      out = tracks ? new Ctor(buffer, v.byteOffset) : new Ctor(buffer, v.byteOffset, v.length);
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
  else if (v instanceof DOMException) {
    // Serializable (WebIDL): its name and message travel, its code follows from the name.
    out = new DOMException(v.message, v.name);
    if (typeof v.stack === 'string') Object.defineProperty(out, 'stack', { value: v.stack, writable: true, configurable: true });
  } else if (v instanceof Error) {
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
    if (transferStepsOf(v) !== undefined) throw new DOMException('Object that needs transfer was found in message but not listed in transferList', 'DataCloneError');
    if (isPlatformObject(v)) throw cannotClone(v);
    if (isPlatformInstance(v)) throw new DOMException('Cannot clone object of unsupported type.', 'DataCloneError');
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
    case '[object Float16Array]': return Float16Array;
    default: return Uint8Array;
  }
}

/** Promises, weak collections and other host objects are not serializable. */
function isPlatformObject(v) {
  return v instanceof Promise || v instanceof WeakMap || v instanceof WeakSet
    || (typeof WeakRef === 'function' && v instanceof WeakRef);
}
