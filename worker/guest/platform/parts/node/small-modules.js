// node:perf_hooks, node:module, node:async_hooks and node:worker_threads: the parts of them pasted
// code reaches for. async_hooks' context follows synchronous calls and the callbacks the platform
// schedules (see docs/script-environment.md): the engines give no hook into promise jobs.
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
    // Prefix-only builtins are listed as `node:test` (as Node lists them).
    const list = require.builtinModules;
    return list.includes(s) || (s.startsWith('node:') && list.includes(s.slice(5)));
  },
};

let nextAsyncId = 2;
const { currentFrame, enterFrame, runInFrame } = core.host;
/** The current async context with `storage` set to `store` (or left out). */
function withStore(storage, store, set = true) {
  const frame = new Map(currentFrame());
  if (set) frame.set(storage, store);
  else frame.delete(storage);
  return frame;
}

/**
 * Stores live in the async context (core/host.js): synchronous calls see them, and so do the
 * callbacks of timers, immediates, queueMicrotask and process.nextTick scheduled under them
 * (not promise jobs: see docs/script-environment.md).
 */
class AsyncLocalStorage {
  getStore() { return currentFrame()?.get(this); }
  run(store, callback, ...args) { return runInFrame(withStore(this, store), callback, undefined, args); }
  exit(callback, ...args) { return runInFrame(withStore(this, undefined, false), callback, undefined, args); }
  enterWith(store) { enterFrame(withStore(this, store)); }
  disable() { if (currentFrame()?.has(this)) enterFrame(withStore(this, undefined, false)); }
  /** `fn` bound to the current async context. */
  static bind(fn) {
    const frame = currentFrame();
    return function (...args) { return runInFrame(frame, fn, this, args); };
  }
  static snapshot() {
    const frame = currentFrame();
    return (fn, ...args) => runInFrame(frame, fn, undefined, args);
  }
}

/** Runs its callbacks in the async context it was made in, as Node's. */
class AsyncResource {
  #id = nextAsyncId++;
  #frame = currentFrame();
  constructor(type) {
    if (typeof type !== 'string') throw new TypeError('The "type" argument must be of type string');
  }
  runInAsyncScope(fn, thisArg, ...args) { return runInFrame(this.#frame, fn, thisArg, args); }
  bind(fn, thisArg = undefined) {
    const resource = this;
    return function (...args) { return resource.runInAsyncScope(fn, thisArg === undefined ? this : thisArg, ...args); };
  }
  emitDestroy() { return this; }
  asyncId() { return this.#id; }
  triggerAsyncId() { return 1; }
  static bind(fn, type = 'bound-anonymous-fn', thisArg = undefined) { return new AsyncResource(type).bind(fn, thisArg); }
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
  // As Node: a marked ArrayBuffer (or any object) cannot be in a postMessage/structuredClone transfer list.
  markAsUntransferable(object) { core.shared.markUntransferable(object); },
  isMarkedAsUntransferable(object) { return core.shared.isUntransferable(object); },
  receiveMessageOnPort() { return undefined; },
};
