// node:timers and node:timers/promises. There is no setInterval: runjs follows the interface
// spec, which has no interval timers (a run ends when its work is done).
import core from 'runjs:part/core';

const { sleepUnref, nodeError, invalidArgType } = core.shared;
const kCustomPromisify = Symbol.for('nodejs.util.promisify.custom');
function abortError(signal) {
  const e = new Error('The operation was aborted', { cause: signal?.reason });
  e.name = 'AbortError';
  e.code = 'ABORT_ERR';
  return e;
}

/** Node's argument checks for the promise API; a bad argument rejects (it never throws). */
function checkOptions(options) {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw invalidArgType('options', 'of type object', options);
  const { signal, ref } = options;
  if (signal !== undefined && !(signal instanceof core.globals.AbortSignal)) throw invalidArgType('options.signal', 'an instance of AbortSignal', signal);
  if (ref !== undefined && typeof ref !== 'boolean') throw invalidArgType('options.ref', 'of type boolean', ref);
}

function delayed(schedule, cancel, value, options) {
  try {
    checkOptions(options);
  } catch (e) {
    return Promise.reject(e);
  }
  const signal = options.signal;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    let onAbort;
    const id = schedule(() => {
      if (signal !== undefined) signal.removeEventListener('abort', onAbort);
      resolve(value);
    });
    if (signal !== undefined) {
      onAbort = () => {
        cancel(id);
        reject(abortError(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
    }
  });
}

function promiseTimeout(delay = undefined, value = undefined, options = {}) {
  if (delay !== undefined && typeof delay !== 'number') return Promise.reject(invalidArgType('delay', 'of type number', delay));
  return delayed((fn) => setTimeout(fn, delay), clearTimeout, value, options);
}
function promiseImmediate(value = undefined, options = {}) {
  return delayed((fn) => setImmediate(fn), clearImmediate, value, options);
}

/** timers/promises' scheduler (Node's Scheduler: not constructible, its methods check `this`). */
const schedulers = new WeakSet();
class Scheduler {
  constructor() { throw nodeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor'); }
  yield() {
    if (!schedulers.has(this)) throw nodeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type Scheduler');
    return promiseImmediate();
  }
  wait(delay, options = undefined) {
    if (!schedulers.has(this)) throw nodeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type Scheduler');
    return promiseTimeout(delay, undefined, options);
  }
}
const scheduler = Object.create(Scheduler.prototype);
schedulers.add(scheduler);

// Named as Node's are: timers/promises' setTimeout is 'setTimeout' (and so is promisify(setTimeout)).
Object.defineProperty(promiseTimeout, 'name', { value: 'setTimeout' });
Object.defineProperty(promiseImmediate, 'name', { value: 'setImmediate' });
export const promises = { setTimeout: promiseTimeout, setImmediate: promiseImmediate, scheduler };

/** Live node:timers timeouts by id (ids count down from -1, apart from the global timers' ids ≥ 1). */
const live = new Map();
let nextId = -1;

/**
 * What node:timers' setTimeout returns, as in Node: ref/unref/hasRef/refresh/close, and the id as
 * its primitive value. (The global setTimeout returns an integer id, per the interface spec.)
 */
class Timeout {
  #id;
  #ms;
  #fire;
  #sleep;
  #ref = true;
  #closed = false;
  constructor(callback, ms, args) {
    this.#id = nextId--;
    this.#ms = ms;
    this.#fire = () => {
      live.delete(this.#id);
      this.#sleep = undefined;
      // As Node: the callback's `this` is the Timeout.
      core.host.watchDropped(Reflect.apply(callback, this, args));
    };
    this.#start();
  }
  #start() {
    this.#sleep = sleepUnref(this.#ms, this.#fire);
    if (this.#ref) this.#sleep.ref(true);
    live.set(this.#id, this);
  }
  ref() { this.#ref = true; this.#sleep?.ref(true); return this; }
  unref() { this.#ref = false; this.#sleep?.ref(false); return this; }
  hasRef() { return this.#ref; }
  /** Restarts the timer, also one that already fired (as in Node); not one that was cleared. */
  refresh() {
    if (this.#closed) return this;
    this.#sleep?.cancel();
    this.#start();
    return this;
  }
  close() {
    this.#closed = true;
    this.#sleep?.cancel();
    this.#sleep = undefined;
    live.delete(this.#id);
    return this;
  }
  [Symbol.toPrimitive]() { return this.#id; }
  /** As Node 24: `using t = setTimeout(…)` clears it at the end of the block. */
  [Symbol.dispose ?? Symbol.for('Symbol.dispose')]() { this.close(); }
}

const TIMEOUT_MAX = 2 ** 31 - 1;

/**
 * Node's delay rule: anything that is not from 1 to 2³¹−1 ms becomes 1 ms, with Node's warning
 * (overflow every time; negative and NaN delays once per realm, as Node warns once per process).
 */
const warned = { negative: false, nan: false };
function delayOf(delay) {
  const ms = Number(delay);
  if (ms >= 1 && ms <= TIMEOUT_MAX) return Math.floor(ms);
  if (ms > TIMEOUT_MAX) process.emitWarning(`${ms} does not fit into a 32-bit signed integer.\nTimeout duration was set to 1.`, 'TimeoutOverflowWarning');
  else if (ms < 0 && !warned.negative) {
    warned.negative = true;
    process.emitWarning(`${ms} is a negative number.\nTimeout duration was set to 1.`, 'TimeoutNegativeWarning');
  } else if (typeof delay === 'number' && Number.isNaN(delay) && !warned.nan) {
    warned.nan = true;
    process.emitWarning(`${ms} is not a number.\nTimeout duration was set to 1.`, 'TimeoutNaNWarning');
  }
  return 1;
}

function timeout(callback, delay = 1, ...args) {
  if (typeof callback !== 'function') throw invalidArgType('callback', 'of type function', callback);
  return new Timeout(callback, delayOf(delay), args);
}
Object.defineProperty(timeout, kCustomPromisify, { value: promises.setTimeout, configurable: true });
Object.defineProperty(timeout, 'name', { value: 'setTimeout' });

function clearTimeoutAny(id) {
  if (id instanceof Timeout) { id.close(); return; }
  const own = live.get(Number(id));
  if (own !== undefined) { own.close(); return; }
  clearTimeout(id);
}
Object.defineProperty(clearTimeoutAny, 'name', { value: 'clearTimeout' });

/**
 * What node:timers' setImmediate returns, as in Node (ref/unref/hasRef). An immediate runs in the
 * next turn either way, so ref() and unref() only change what hasRef() says.
 */
const kId = Symbol('id');
class Immediate {
  #ref = true;
  constructor(id) { Object.defineProperty(this, kId, { value: id }); }
  ref() { this.#ref = true; return this; }
  unref() { this.#ref = false; return this; }
  hasRef() { return this.#ref; }
  /** As Node 24: disposing an Immediate clears it. */
  [Symbol.dispose ?? Symbol.for('Symbol.dispose')]() { clearImmediate(this[kId]); }
}

function immediate(callback, ...args) {
  if (typeof callback !== 'function') throw invalidArgType('callback', 'of type function', callback);
  // As Node: the callback's `this` is the Immediate (made before it can run).
  let self;
  self = new Immediate(setImmediate(() => Reflect.apply(callback, self, args))); // setImmediate watches the result
  return self;
}
Object.defineProperty(immediate, kCustomPromisify, { value: promises.setImmediate, configurable: true });
Object.defineProperty(immediate, 'name', { value: 'setImmediate' });

export const timers = {
  setTimeout: timeout,
  clearTimeout: clearTimeoutAny,
  setImmediate: immediate,
  clearImmediate: (id) => clearImmediate(id instanceof Immediate ? id[kId] : id),
  promises,
};
