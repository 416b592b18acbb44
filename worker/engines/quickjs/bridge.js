// QuickJS engine bridge: guest-side code of the QuickJS engine (not of the prelude), evaluated
// once into the base image before the prelude. It is called with the raw host function and
// returns one dispatcher the host keeps a handle to; neither is reachable from guest code.
//
// - installs `__runjs_host` with the same contract as on V8 (bytes in and out as Uint8Array; the
//   raw host function only moves whole ArrayBuffers), for the prelude to capture and delete;
// - replaces Math.random with a generator the host reseeds on every boot and restore, so forks
//   of one image draw different numbers (QuickJS's own state is inside the image);
// - fills gaps of this QuickJS build that V8 has (Array.fromAsync, Error.captureStackTrace,
//   Symbol.dispose) and
//   presents QuickJS's InternalError (stack overflow, ...) as the RangeError V8 throws.
// The host passes the prelude's internal object into each dispatch, so the bridge holds no state
// the image does not already hold.
(function (raw) {
  'use strict';
  const g = globalThis;
  const Uint8ArrayCtor = Uint8Array;
  const PromiseCtor = Promise;
  const uncurry = (fn) => Function.prototype.call.bind(fn);
  const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
  const typedArrayTag = uncurry(Object.getOwnPropertyDescriptor(TypedArrayPrototype, Symbol.toStringTag).get);
  const typedArrayBuffer = uncurry(Object.getOwnPropertyDescriptor(TypedArrayPrototype, 'buffer').get);
  const typedArrayOffset = uncurry(Object.getOwnPropertyDescriptor(TypedArrayPrototype, 'byteOffset').get);
  const typedArrayLength = uncurry(Object.getOwnPropertyDescriptor(TypedArrayPrototype, 'byteLength').get);
  const ArrayBufferSlice = uncurry(ArrayBuffer.prototype.slice);
  const PromisePrototypeThen = uncurry(Promise.prototype.then);
  const ObjectDefineProperty = Object.defineProperty;
  const StringIndexOf = uncurry(String.prototype.indexOf);
  const StringSlice = uncurry(String.prototype.slice);
  const imul = Math.imul;
  const ErrorCtor = Error;
  const MAIN_EXPORT = '__runjs_main'; // worker/source/wrap-main.ts MAIN_EXPORT

  // --- the host-call primitive ---
  function hostCall(op, argsJson, bytes) {
    let r;
    if (bytes !== undefined && typedArrayTag(bytes) === 'Uint8Array') {
      const offset = typedArrayOffset(bytes);
      r = raw(op, argsJson, ArrayBufferSlice(typedArrayBuffer(bytes), offset, offset + typedArrayLength(bytes)));
    } else {
      r = raw(op, argsJson);
    }
    return typeof r === 'string' ? r : new Uint8ArrayCtor(r);
  }
  ObjectDefineProperty(g, '__runjs_host', { __proto__: null, value: hostCall, writable: true, enumerable: false, configurable: true });

  // --- Math.random: xoshiro128**, 53-bit doubles, state reseeded by the host ---
  let s0 = 0x9e3779b9 | 0, s1 = 0x243f6a88 | 0, s2 = 0xb7e15162 | 0, s3 = 0x7f4a7c15 | 0;
  function next32() {
    const result = imul(((imul(s1, 5) << 7) | (imul(s1, 5) >>> 25)), 9) >>> 0;
    const t = s1 << 9;
    s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
    return result;
  }
  const random = {
    random() {
      return ((next32() >>> 5) * 67108864 + (next32() >>> 6)) / 9007199254740992;
    },
  }.random;
  ObjectDefineProperty(Math, 'random', { __proto__: null, value: random, writable: true, enumerable: false, configurable: true });
  function reseed(a, b, c, d) {
    s0 = a | 0; s1 = b | 0; s2 = c | 0; s3 = d | 0;
    if ((s0 | s1 | s2 | s3) === 0) s0 = 1; // the all-zero state is a fixed point
    for (let i = 0; i < 8; i++) next32();
  }

  // --- promise state, for util.inspect (`Promise { 1 }`, `<rejected>`, `<pending>`) ---
  // A call of the raw function with four arguments asks the host for a promise's state (third
  // argument 0: 0 pending, 1 fulfilled, 2 rejected, -1 no promise) or its result (1); hostCall never passes four.
  // The prelude captures and deletes the global, as it does `__runjs_host`.
  // -1 answers a value that is no promise (the engine's brand check: also a promise without its
  // prototype, never an object that only claims to be one).
  function promiseDetails(p) {
    const state = raw('', p, 0, 0);
    return state === 1 || state === 2 ? [state, raw('', p, 1, 0)] : [state === 0 ? 0 : -1, undefined];
  }
  ObjectDefineProperty(g, '__runjs_promise_details', { __proto__: null, value: promiseDetails, writable: true, enumerable: false, configurable: true });

  // --- gaps of this QuickJS build that V8 fills ---
  const InternalErrorCtor = g.InternalError;
  if (typeof InternalErrorCtor === 'function') {
    Object.setPrototypeOf(InternalErrorCtor.prototype, RangeError.prototype);
    Object.setPrototypeOf(InternalErrorCtor, RangeError);
    ObjectDefineProperty(InternalErrorCtor.prototype, 'name', { __proto__: null, value: 'RangeError', writable: true, enumerable: false, configurable: true });
    delete g.InternalError;
  }
  // V8 begins a stack with its error's `name: message` head, as Error.prototype.toString would
  // write it (Node's errors, assert's AssertionError `stack: /Failed/` rely on it); QuickJS's own
  // stacks hold frames only.
  const stackHead = (target) => {
    let name = 'Error';
    let message = '';
    try {
      const n = target.name;
      if (n !== undefined) name = `${n}`;
      const m = target.message;
      if (m !== undefined) message = `${m}`;
    } catch {
      return 'Error';
    }
    if (name === '') return message;
    return message === '' ? name : `${name}: ${message}`;
  };
  if (typeof ErrorCtor.captureStackTrace !== 'function') {
    const captureStackTrace = {
      captureStackTrace(target, fn) {
        if (typeof target !== 'object' || target === null) throw new TypeError('Invalid argument');
        let stack = new ErrorCtor().stack;
        if (typeof stack !== 'string') stack = '';
        // V8 leaves out `fn`'s frame and every frame above it (assert's AssertionError starts its
        // stack at the caller of assert.throws this way). QuickJS names a frame by its function's
        // name: drop through the first frame of that name, if there is one.
        const name = typeof fn === 'function' ? fn.name : '';
        if (typeof name === 'string' && name !== '') {
          const marker = `    at ${name} (`;
          const at = StringIndexOf(stack, marker) === 0 ? 0 : StringIndexOf(stack, `\n${marker}`);
          if (at !== -1) {
            const end = StringIndexOf(stack, '\n', at + 1);
            stack = end === -1 ? '' : StringSlice(stack, end + 1);
          }
        }
        const head = stackHead(target);
        stack = stack === '' ? head : `${head}\n${stack}`;
        ObjectDefineProperty(target, 'stack', { __proto__: null, value: stack, writable: true, enumerable: false, configurable: true });
      },
    }.captureStackTrace;
    ObjectDefineProperty(ErrorCtor, 'captureStackTrace', { __proto__: null, value: captureStackTrace, writable: true, enumerable: false, configurable: true });
  }
  // The error constructors a script (and the platform) calls begin their errors' stacks with that
  // head too: each is wrapped, and the wrapper rewrites the stack QuickJS just built, dropping its
  // own two frames (`construct (native)` and the wrapper's). The wrappers take the natives' place
  // everywhere a script can reach them (globals, `prototype.constructor`, the constructors' own
  // prototype chain), and share their prototypes, so `instanceof` and the errors QuickJS itself
  // throws (`null.x`) are unchanged. Those QuickJS throws still hold frames only.
  const ReflectConstruct = Reflect.construct;
  const HEAD_MAX_CHARS = 64 * 1024;
  /** The first `limit` lines of a stack's frames (a negative or NaN limit keeps none). */
  const firstFrames = (frames, limit) => {
    if (!(limit > 0)) return '';
    let end = -1;
    for (let n = 0; n < limit; n++) {
      end = StringIndexOf(frames, '\n', end + 1);
      if (end === -1) return frames;
    }
    return StringSlice(frames, 0, end);
  };
  // Errors whose stack has not been read yet, with their frames; the accessor pair is shared by
  // all of them (V8's `stack` is an own accessor pair too).
  const pendingStacks = new WeakMap();
  const WeakMapGet = WeakMap.prototype.get.call.bind(WeakMap.prototype.get);
  const WeakMapSet = WeakMap.prototype.set.call.bind(WeakMap.prototype.set);
  const WeakMapDelete = WeakMap.prototype.delete.call.bind(WeakMap.prototype.delete);
  const stackAccessors = Object.getOwnPropertyDescriptor({
    get stack() {
      const rest = typeof this === 'object' && this !== null ? WeakMapGet(pendingStacks, this) : undefined;
      if (rest === undefined) return undefined;
      // A head longer than HEAD_MAX_CHARS (a message of megabytes) is left out: the stack would
      // be a second copy of it, held as long as the error lives.
      const head = stackHead(this);
      const value = head.length > HEAD_MAX_CHARS ? rest : rest === '' ? head : `${head}\n${rest}`;
      WeakMapDelete(pendingStacks, this);
      ObjectDefineProperty(this, 'stack', { __proto__: null, value, writable: true, enumerable: false, configurable: true });
      return value;
    },
    set stack(value) {
      if (typeof this !== 'object' || this === null) return;
      WeakMapDelete(pendingStacks, this);
      ObjectDefineProperty(this, 'stack', { __proto__: null, value, writable: true, enumerable: false, configurable: true });
    },
  }, 'stack');
  const stackGet = stackAccessors.get;
  const stackSet = stackAccessors.set;
  let ErrorWrapper;
  const wrapErrorCtor = (name, parent) => {
    const Native = g[name];
    if (typeof Native !== 'function') return undefined;
    const Wrapper = {
      [name]: function (...args) {
        const e = ReflectConstruct(Native, args, new.target === undefined ? Wrapper : new.target);
        const stack = e.stack;
        if (typeof stack === 'string') {
          // The frames below the wrapper's own (the first of the bridge's), without the newline
          // QuickJS ends a stack with. Plain string operations only: nothing a script may have
          // replaced (Array methods, species, Symbol.split) runs while one of its errors is made.
          const at = StringIndexOf(stack, 'quickjs-bridge');
          const nl = at === -1 ? -1 : StringIndexOf(stack, '\n', at);
          let rest = at === -1 ? stack : nl === -1 ? '' : StringSlice(stack, nl + 1);
          if (rest.length > 0 && rest[rest.length - 1] === '\n') rest = StringSlice(rest, 0, rest.length - 1);
          // Error.stackTraceLimit as V8 reads it when an error is made: not a number, a stack that
          // reads undefined; else at most that many frames. The head is written when the stack is
          // first read, as V8 does under Node's prepareStackTrace: `err.message = 'x'` after
          // `new Error()` shows in the stack.
          const limit = ErrorWrapper === undefined ? 10 : ErrorWrapper.stackTraceLimit;
          if (typeof limit === 'number') WeakMapSet(pendingStacks, e, rest === '' ? rest : firstFrames(rest, limit));
          ObjectDefineProperty(e, 'stack', { __proto__: null, get: stackGet, set: stackSet, enumerable: false, configurable: true });
        }
        return e;
      },
    }[name];
    for (const key of Reflect.ownKeys(Native)) {
      if (key === 'prototype' || key === 'name') continue;
      ObjectDefineProperty(Wrapper, key, Object.getOwnPropertyDescriptor(Native, key));
    }
    ObjectDefineProperty(Wrapper, 'prototype', { __proto__: null, value: Native.prototype, writable: false, enumerable: false, configurable: false });
    ObjectDefineProperty(Native.prototype, 'constructor', { __proto__: null, value: Wrapper, writable: true, enumerable: false, configurable: true });
    if (parent !== undefined) Object.setPrototypeOf(Wrapper, parent);
    ObjectDefineProperty(g, name, { __proto__: null, value: Wrapper, writable: true, enumerable: false, configurable: true });
    return Wrapper;
  };
  ErrorWrapper = wrapErrorCtor('Error', undefined);
  // V8's default, an own enumerable data property of Error as in V8.
  if (ErrorWrapper !== undefined) ObjectDefineProperty(ErrorWrapper, 'stackTraceLimit', { __proto__: null, value: 10, writable: true, enumerable: true, configurable: true });
  for (const name of ['EvalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError', 'AggregateError']) wrapErrorCtor(name, ErrorWrapper);
  // `using` declarations (lowered by esbuild) look these up; QuickJS has no Symbol.dispose.
  // esbuild's helpers fall back to the registry symbols chosen here, so both sides agree.
  for (const name of ['dispose', 'asyncDispose']) {
    if (typeof Symbol[name] !== 'symbol') ObjectDefineProperty(Symbol, name, { __proto__: null, value: Symbol.for(`Symbol.${name}`), writable: false, enumerable: false, configurable: false });
  }
  if (typeof Array.fromAsync !== 'function') {
    const fromAsync = {
      async fromAsync(items, mapFn, thisArg) {
        if (mapFn !== undefined && typeof mapFn !== 'function') throw new TypeError('Array.fromAsync: mapper is not a function');
        const C = typeof this === 'function' ? this : Array;
        const out = [];
        let i = 0;
        const iterable = items != null && (items[Symbol.asyncIterator] !== undefined || items[Symbol.iterator] !== undefined);
        if (iterable) {
          for await (const v of items) out.push(mapFn === undefined ? v : await mapFn.call(thisArg, v, i++));
        } else {
          const o = Object(items);
          const n = Math.min(Math.max(Math.trunc(Number(o.length)) || 0, 0), Number.MAX_SAFE_INTEGER);
          for (; i < n; i++) { const v = await o[i]; out.push(mapFn === undefined ? v : await mapFn.call(thisArg, v, i)); }
        }
        if (C === Array) return out;
        const result = new C(out.length);
        for (let k = 0; k < out.length; k++) result[k] = out[k];
        result.length = out.length;
        return result;
      },
    }.fromAsync;
    ObjectDefineProperty(Array, 'fromAsync', { __proto__: null, value: fromAsync, writable: true, enumerable: false, configurable: true });
  }

  // --- deadline polls around heavy native calls ---
  // QuickJS checks its interrupt handler every 10,000 calls and backward jumps. A loop whose every
  // turn is one heavy native call (JSON.stringify of a large object, fill/join/indexOf over
  // millions of elements) would reach that check only after minutes; these wrappers ask the host
  // first whenever the input is large. When the run must stop, the host says so and the wrapper
  // spins: QuickJS's own check then fires within ~0.1 ms and throws its uncatchable interrupt.
  // Small inputs cost only the wrapper call.
  const HEAVY = 4096;
  function pollHeavy() {
    if (raw() === 1) for (;;) { /* interrupted by QuickJS's check */ }
  }
  // Each wrapper passes a fixed number of arguments: for these methods an undefined argument
  // means the same as a missing one. `this.length` is read only to size the call.
  function wrapHeavy(owner, name, pollAfter) {
    const desc = Object.getOwnPropertyDescriptor(owner, name);
    const call = uncurry(desc.value);
    const wrapped = pollAfter
      ? { [name](a, b, c) { const r = call(this, a, b, c); if (typeof r === 'string' && r.length > HEAVY) pollHeavy(); return r; } }[name]
      : name === 'parse'
        ? { [name](a, b) { if (typeof a === 'string' && a.length > HEAVY) pollHeavy(); return call(this, a, b); } }[name]
        : { [name](a, b, c) { if (this != null && this.length > HEAVY) pollHeavy(); return call(this, a, b, c); } }[name];
    ObjectDefineProperty(wrapped, 'length', { __proto__: null, value: desc.value.length, writable: false, enumerable: false, configurable: true });
    ObjectDefineProperty(owner, name, { __proto__: null, value: wrapped, writable: desc.writable, enumerable: desc.enumerable, configurable: desc.configurable });
  }
  wrapHeavy(JSON, 'parse', false);
  wrapHeavy(JSON, 'stringify', true); // its cost shows only in the result
  for (const name of ['join', 'fill', 'indexOf', 'includes']) {
    wrapHeavy(Array.prototype, name, false);
    wrapHeavy(TypedArrayPrototype, name, false);
  }
  wrapHeavy(String.prototype, 'indexOf', false);
  wrapHeavy(String.prototype, 'includes', false);

  // --- the dispatcher the host calls ---
  return function dispatch(code, a, b, c, d, e) {
    switch (code) {
      case 0: { // run the main module: a = prelude internal object, b = namespace or promise of it
        const ns = b;
        if (ns instanceof PromiseCtor) a.track(() => PromisePrototypeThen(ns, (m) => m[MAIN_EXPORT]()));
        else a.track(ns[MAIN_EXPORT]);
        return undefined;
      }
      case 1: // deliver an async op settlement: internal.complete(id, ok, json, bytes)
        a.complete(b, c, d, e === undefined ? undefined : new Uint8ArrayCtor(e));
        return undefined;
      case 2: // reseed Math.random with four 32-bit words
        reseed(a, b, c, d);
        return undefined;
      default:
        throw new ErrorCtor('runjs: unknown bridge call');
    }
  };
})
