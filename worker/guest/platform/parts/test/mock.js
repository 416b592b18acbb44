// node:test's MockTracker (`mock`, `t.mock`): fn, method, getter, setter, restoreAll and reset, on
// Node 24's shapes. A mocked function is, as in Node, a Proxy of the original, so its name and
// length are the original's and `fn.mock` is its MockFunctionContext. `mock.timers`,
// `mock.module` and `mock.property` are not in runjs (docs/script-environment.md, "node:test").
import core from 'runjs:part/core';

const { invalidArgType, nodeError } = core.shared;

class MockFunctionContext {
  #calls = [];
  #implementation;
  #original;
  #onces = new Map();
  #restore;
  #times;

  constructor(implementation, original, restore, times) {
    this.#implementation = implementation;
    this.#original = original;
    this.#restore = restore;
    this.#times = times;
  }

  /** Copies: a caller changing the array changes nothing here (as Node). */
  get calls() { return this.#calls.slice(); }
  callCount() { return this.#calls.length; }

  mockImplementation(implementation) {
    if (typeof implementation !== 'function') throw invalidArgType('implementation', 'of type function', implementation);
    this.#implementation = implementation;
  }

  mockImplementationOnce(implementation, onCall) {
    if (typeof implementation !== 'function') throw invalidArgType('implementation', 'of type function', implementation);
    const at = onCall ?? this.#calls.length;
    if (!Number.isInteger(at) || at < 0) throw nodeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "onCall" is out of range. It must be >= 0 && an integer. Received ${at}`);
    this.#onces.set(at, implementation);
  }

  resetCalls() { this.#calls = []; }

  restore() {
    this.#implementation = this.#original;
    this.#onces.clear();
    this.#restore?.();
  }

  /** The implementation for the next call (a once-implementation for that call index wins). */
  nextImplementation() {
    const index = this.#calls.length;
    const once = this.#onces.get(index);
    if (once !== undefined) { this.#onces.delete(index); return once; }
    if (this.#times !== undefined && index >= this.#times) return this.#original;
    return this.#implementation;
  }

  record(call) { this.#calls.push(call); }
}

function makeMock(original, implementation, restore, times) {
  const ctx = new MockFunctionContext(implementation, original, restore, times);
  const invoke = (call, run) => {
    const impl = ctx.nextImplementation();
    let result;
    try {
      result = run(impl);
    } catch (error) {
      ctx.record({ arguments: call.args, error, result: undefined, stack: new Error(), target: call.target, this: call.self });
      throw error;
    }
    // As Node: a construct's `target` is the original function, its `this` what it made.
    ctx.record({ arguments: call.args, error: undefined, result, stack: new Error(), target: call.target, this: call.target === undefined ? call.self : result });
    return result;
  };
  return new Proxy(original, {
    apply: (_fn, self, args) => invoke({ args, self, target: undefined }, (impl) => Reflect.apply(impl, self, args)),
    construct: (fn, args, newTarget) => invoke({ args, self: undefined, target: fn }, (impl) => Reflect.construct(impl, args, newTarget)),
    get: (fn, key, receiver) => (key === 'mock' ? ctx : Reflect.get(fn, key, receiver)),
  });
}

function optionsOf(options, name = 'options') {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object') throw invalidArgType(name, 'of type object', options);
  const times = options.times;
  if (times !== undefined && (!Number.isInteger(times) || times < 1)) throw nodeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "options.times" is out of range. It must be >= 1 && an integer. Received ${times}`);
  return options;
}

function unsupported(what) {
  return nodeError(Error, 'ERR_UNSUPPORTED_OPERATION', `${what} is not supported in runjs's node:test`);
}

export class MockTracker {
  #mocks = [];

  fn(original = function () {}, implementation = original, options = undefined) {
    if (original !== null && typeof original === 'object') { options = original; original = function () {}; implementation = original; }
    else if (implementation !== null && typeof implementation === 'object') { options = implementation; implementation = original; }
    if (typeof original !== 'function') throw invalidArgType('original', 'of type function', original);
    if (typeof implementation !== 'function') throw invalidArgType('implementation', 'of type function', implementation);
    const mocked = makeMock(original, implementation, undefined, optionsOf(options).times);
    this.#mocks.push(mocked.mock);
    return mocked;
  }

  method(object, methodName, implementation = undefined, options = undefined) {
    if (object === null || (typeof object !== 'object' && typeof object !== 'function')) throw invalidArgType('object', 'of type object', object);
    if (typeof methodName !== 'string' && typeof methodName !== 'symbol') throw invalidArgType('methodName', 'of type string or symbol', methodName);
    if (implementation !== null && typeof implementation === 'object') { options = implementation; implementation = undefined; }
    const opts = optionsOf(options);
    if (opts.getter && opts.setter) throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', "The property 'options.setter' cannot be used with 'options.getter'");
    const kind = opts.getter ? 'get' : opts.setter ? 'set' : 'value';
    let owner = object;
    let descriptor;
    while (owner !== null && (descriptor = Object.getOwnPropertyDescriptor(owner, methodName)) === undefined) owner = Object.getPrototypeOf(owner);
    const original = descriptor?.[kind];
    if (typeof original !== 'function') {
      throw invalidArgType(kind === 'value' ? 'methodName' : `${kind}ter`, 'of type function', original);
    }
    const own = Object.getOwnPropertyDescriptor(object, methodName);
    const restore = () => {
      if (own === undefined) delete object[methodName];
      else Object.defineProperty(object, methodName, own);
    };
    const mocked = makeMock(original, implementation ?? original, restore, opts.times);
    const { value: _v, writable: _w, get: _g, set: _s, ...rest } = descriptor;
    const replaced = kind === 'value' ? { ...rest, value: mocked, writable: descriptor.writable } : { ...rest, get: descriptor.get, set: descriptor.set, [kind]: mocked };
    Object.defineProperty(object, methodName, { ...replaced, configurable: true });
    this.#mocks.push(mocked.mock);
    return mocked;
  }

  getter(object, methodName, implementation = undefined, options = undefined) {
    if (implementation !== null && typeof implementation === 'object') { options = implementation; implementation = undefined; }
    return this.method(object, methodName, implementation, { ...options, getter: true });
  }

  setter(object, methodName, implementation = undefined, options = undefined) {
    if (implementation !== null && typeof implementation === 'object') { options = implementation; implementation = undefined; }
    return this.method(object, methodName, implementation, { ...options, setter: true });
  }

  /** Restores every mock's original and forgets them. */
  reset() {
    this.restoreAll();
    this.#mocks = [];
  }

  restoreAll() {
    for (const m of this.#mocks) m.restore();
  }

  get timers() { throw unsupported('mock.timers'); }
  module() { throw unsupported('mock.module()'); }
  property() { throw unsupported('mock.property()'); }
}
