// node:timers and node:timers/promises. The interface spec has no global setInterval; node:timers'
// own setInterval (and timers/promises' async-iterator one) follow Node, as its other exports do.
import core from 'runjs:part/core';

const { sleepUnref, nodeError, invalidArgType } = core.shared;
// Captured: a script that deletes the globals (as Node's own tests do) must not break node:timers.
const g = core.globals;
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
  return delayed((fn) => g.setTimeout(fn, delay), g.clearTimeout, value, options);
}
function promiseImmediate(value = undefined, options = {}) {
  return delayed((fn) => g.setImmediate(fn), g.clearImmediate, value, options);
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
Object.defineProperty(promiseInterval, 'name', { value: 'setInterval' });
export const promises = { setTimeout: promiseTimeout, setImmediate: promiseImmediate, setInterval: promiseInterval, scheduler };

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
  constructor(callback, ms, args, repeat = false, ref = true) {
    this.#id = nextId--;
    this.#ms = ms;
    this.#ref = ref;
    const frame = core.host.currentFrame(); // the async context its calls run in (AsyncLocalStorage)
    this.#fire = () => {
      this.#sleep = undefined;
      if (!repeat) live.delete(this.#id);
      try {
        // As Node: the callback's `this` is the Timeout.
        core.host.watchDropped(core.host.runInFrame(frame, callback, this, args));
      } finally {
        // An interval is re-armed after its callback, even one that threw (as Node and browsers
        // do), unless the callback cleared or refreshed it.
        if (repeat && !this.#closed && this.#sleep === undefined) this.#start();
      }
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
  g.clearTimeout(id);
}
Object.defineProperty(clearTimeoutAny, 'name', { value: 'clearTimeout' });

/** node:timers' setInterval: a Timeout re-armed after each call until cleared (Node's checks and delay rule). */
function interval(callback, delay = 1, ...args) {
  if (typeof callback !== 'function') throw invalidArgType('callback', 'of type function', callback);
  return new Timeout(callback, delayOf(delay), args, true);
}
Object.defineProperty(interval, 'name', { value: 'setInterval' });
/** As Node: clearInterval and clearTimeout clear either kind. */
function clearInterval(id) { clearTimeoutAny(id); }

/**
 * timers/promises' setInterval: an async iterator yielding `value` once per tick, as Node's — ticks
 * that come while the consumer is busy are counted and yielded back to back; an abort rejects
 * the pending `next()` with an AbortError and ends the iteration; `return()` clears the interval.
 */
async function* promiseInterval(delay = undefined, value = undefined, options = {}) {
  checkOptions(options);
  if (delay !== undefined && typeof delay !== 'number') throw invalidArgType('delay', 'of type number', delay);
  const { signal, ref = true } = options;
  if (signal?.aborted) throw abortError(signal);
  let notYielded = 0;
  let wake;
  let onAbort;
  const timer = new Timeout(() => {
    notYielded++;
    wake?.();
    wake = undefined;
  }, delayOf(delay ?? 1), [], true, ref);
  try {
    if (signal !== undefined) {
      onAbort = () => {
        timer.close();
        wake?.(Promise.reject(abortError(signal)));
        wake = undefined;
      };
      signal.addEventListener('abort', onAbort, { once: true });
    }
    while (!signal?.aborted) {
      if (notYielded === 0) await new Promise((resolve) => { wake = resolve; });
      for (; notYielded > 0; notYielded--) yield value;
    }
    throw abortError(signal);
  } finally {
    timer.close();
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}

// As Node, node:timers' setImmediate is the global one (it returns an Immediate).
const immediate = g.setImmediate;
if (!Object.hasOwn(immediate, kCustomPromisify)) Object.defineProperty(immediate, kCustomPromisify, { value: promises.setImmediate, configurable: true });

export const timers = {
  setTimeout: timeout,
  clearTimeout: clearTimeoutAny,
  setInterval: interval,
  clearInterval,
  setImmediate: immediate,
  clearImmediate: g.clearImmediate,
  promises,
};
