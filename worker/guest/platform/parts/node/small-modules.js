// node:perf_hooks, node:module, node:async_hooks and node:worker_threads: the parts of them pasted
// code reaches for. async_hooks' context follows synchronous calls only (see
// docs/script-environment.md): the engines give no hook into promise jobs to carry it further.
import core from 'runjs:part/core';

function unsupported(what) {
  const err = new Error(`${what} is not supported in runjs: a run is one script in one thread`);
  err.code = 'ERR_UNSUPPORTED_OPERATION';
  return err;
}

const g = core.globals;
export const perfHooks = {
  get performance() { return g.performance; },
  get Performance() { return g.Performance; },
  get PerformanceEntry() { return g.PerformanceEntry; },
  get PerformanceMark() { return g.PerformanceMark; },
  get PerformanceMeasure() { return g.PerformanceMeasure; },
  PerformanceObserver: class PerformanceObserver {
    constructor() { throw unsupported('PerformanceObserver'); }
  },
  monitorEventLoopDelay() { throw unsupported('perf_hooks.monitorEventLoopDelay()'); },
  constants: {},
};

const require = core.host.require;
export const moduleModule = {
  createRequire(filename) {
    if (typeof filename !== 'string' && !(filename instanceof g.URL)) {
      const err = new TypeError(`The argument 'filename' must be a file URL object, file URL string, or absolute path string. Received ${filename === undefined ? 'undefined' : typeof filename}`);
      err.code = 'ERR_INVALID_ARG_VALUE';
      throw err;
    }
    return require;
  },
  get builtinModules() { return require.builtinModules; },
  isBuiltin(name) {
    const s = String(name);
    return require.builtinModules.includes(s.startsWith('node:') ? s.slice(5) : s);
  },
};

let nextAsyncId = 2;
class AsyncLocalStorage {
  #store = undefined;
  #enabled = false;
  getStore() { return this.#enabled ? this.#store : undefined; }
  run(store, callback, ...args) {
    const [prevStore, prevEnabled] = [this.#store, this.#enabled];
    this.#store = store;
    this.#enabled = true;
    try {
      return callback(...args);
    } finally {
      this.#store = prevStore;
      this.#enabled = prevEnabled;
    }
  }
  exit(callback, ...args) {
    const prev = this.#enabled;
    this.#enabled = false;
    try {
      return callback(...args);
    } finally {
      this.#enabled = prev;
    }
  }
  enterWith(store) { this.#store = store; this.#enabled = true; }
  disable() { this.#store = undefined; this.#enabled = false; }
  static bind(fn) { return fn; }
  static snapshot() { return (fn, ...args) => fn(...args); }
}

class AsyncResource {
  #id = nextAsyncId++;
  constructor(type) {
    if (typeof type !== 'string') throw new TypeError('The "type" argument must be of type string');
  }
  runInAsyncScope(fn, thisArg, ...args) { return Reflect.apply(fn, thisArg, args); }
  bind(fn, thisArg = undefined) { return thisArg === undefined ? fn : fn.bind(thisArg); }
  emitDestroy() { return this; }
  asyncId() { return this.#id; }
  triggerAsyncId() { return 1; }
  static bind(fn, _type, thisArg = undefined) { return thisArg === undefined ? fn : fn.bind(thisArg); }
}

export const asyncHooks = {
  AsyncLocalStorage,
  AsyncResource,
  executionAsyncId() { return 1; },
  triggerAsyncId() { return 0; },
  executionAsyncResource() { return {}; },
  createHook() { return { enable() { return this; }, disable() { return this; } }; },
};

export const workerThreads = {
  get MessageChannel() { return g.MessageChannel; },
  get MessagePort() { return g.MessagePort; },
  isMainThread: true,
  parentPort: null,
  workerData: null,
  threadId: 0,
  resourceLimits: {},
  SHARE_ENV: Symbol.for('nodejs.worker_threads.SHARE_ENV'),
  Worker: class Worker {
    constructor() { throw unsupported('worker_threads.Worker'); }
  },
  getEnvironmentData() { return undefined; },
  setEnvironmentData() {},
  markAsUntransferable() {},
  receiveMessageOnPort() { return undefined; },
};
