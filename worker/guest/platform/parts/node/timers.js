// node:timers and node:timers/promises. There is no setInterval: runjs follows the interface
// spec, which has no interval timers (a run ends when its work is done).
import core from 'runjs:part/core';

const { sleepUnref } = core.shared;
const kCustomPromisify = Symbol.for('nodejs.util.promisify.custom');
function abortError(signal) {
  const e = new Error('The operation was aborted');
  e.name = 'AbortError';
  e.code = 'ABORT_ERR';
  e.cause = signal?.reason;
  return e;
}

function delayed(schedule, cancel, value, options) {
  const signal = options?.signal;
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

export const promises = {
  setTimeout: (delay = 1, value = undefined, options = undefined) => delayed((fn) => setTimeout(fn, delay), clearTimeout, value, options),
  setImmediate: (value = undefined, options = undefined) => delayed((fn) => setImmediate(fn), clearImmediate, value, options),
  scheduler: {
    wait: (delay, options = undefined) => delayed((fn) => setTimeout(fn, delay), clearTimeout, undefined, options),
    yield: () => delayed((fn) => setImmediate(fn), clearImmediate, undefined, undefined),
  },
};

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
  constructor(callback, ms, args) {
    this.#id = nextId--;
    this.#ms = ms;
    this.#fire = () => {
      live.delete(this.#id);
      this.#sleep = undefined;
      Reflect.apply(callback, globalThis, args);
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
  refresh() {
    if (this.#sleep !== undefined) { this.#sleep.cancel(); this.#start(); }
    return this;
  }
  close() {
    this.#sleep?.cancel();
    this.#sleep = undefined;
    live.delete(this.#id);
    return this;
  }
  [Symbol.toPrimitive]() { return this.#id; }
}

function timeout(callback, delay = 1, ...args) {
  if (typeof callback !== 'function') {
    const e = new TypeError(`The "callback" argument must be of type function. Received ${callback === null ? 'null' : typeof callback}`);
    e.code = 'ERR_INVALID_ARG_TYPE';
    throw e;
  }
  let ms = Number(delay);
  if (!(ms >= 1) || !Number.isFinite(ms)) ms = ms === Infinity ? 2147483647 : 1;
  return new Timeout(callback, Math.floor(ms), args);
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

export const timers = {
  setTimeout: timeout,
  clearTimeout: clearTimeoutAny,
  setImmediate: (...args) => setImmediate(...args),
  clearImmediate: (id) => clearImmediate(id),
  promises,
};
