// node:events: the `events` package (Node's EventEmitter for all engines), plus the newer
// statics Node has since added (errorMonitor, on, getEventListeners, setMaxListeners,
// addAbortListener, once with a signal) and Node's argument checks.
import EventEmitter from 'events';
import core from 'runjs:part/core';
import { makeDomain } from './events/domain.js';

const { nodeError, invalidArgType, outOfRange } = core.shared;

function validateAbortSignal(signal, name) {
  if (signal !== undefined && (signal === null || typeof signal !== 'object' || !('aborted' in signal))) throw invalidArgType(name, 'an instance of AbortSignal', signal);
}
const errorMonitor = Symbol('events.errorMonitor');

const baseEmit = EventEmitter.prototype.emit;
EventEmitter.prototype.emit = function emit(type, ...args) {
  if (type === 'error' && this._events !== undefined && this._events[errorMonitor] !== undefined) baseEmit.call(this, errorMonitor, ...args);
  if (type === 'error' && (this._events === undefined || this._events.error === undefined) && !(args[0] instanceof Error)) throw unhandledError(args[0]);
  return baseEmit.call(this, type, ...args);
};

/** Node's ERR_UNHANDLED_ERROR for an 'error' event without listeners whose value is no Error. */
function unhandledError(value) {
  let shown;
  try {
    shown = core.host.requirePart('util').modules.util.inspect(value);
  } catch {
    shown = String(value);
  }
  const err = nodeError(Error, 'ERR_UNHANDLED_ERROR', `Unhandled error. (${shown})`);
  err.context = value;
  return err;
}

function abortError(signal) {
  const e = new Error('The operation was aborted');
  e.name = 'AbortError';
  e.code = 'ABORT_ERR';
  e.cause = signal?.reason;
  return e;
}

/**
 * events.once(emitter, name, options), as Node 24's: resolves with the event's arguments (an
 * EventTarget's event as `[event]`), rejects on an 'error' event (EventEmitters only) or when
 * `options.signal` aborts — and then removes every listener it added; bad arguments reject.
 */
EventEmitter.once = function once(emitter, name, options = {}) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) return Promise.reject(invalidArgType('options', 'of type object', options));
  const signal = options.signal;
  try {
    validateAbortSignal(signal, 'options.signal');
  } catch (e) {
    return Promise.reject(e);
  }
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    const isEmitter = typeof emitter?.once === 'function';
    const onError = (err) => {
      unlisten(emitter, name, onEvent);
      signal?.removeEventListener('abort', onAbort);
      reject(err);
    };
    const onEvent = (...args) => {
      if (isEmitter && name !== 'error') emitter.removeListener('error', onError);
      signal?.removeEventListener('abort', onAbort);
      resolve(args);
    };
    const onAbort = () => {
      unlisten(emitter, name, onEvent);
      if (isEmitter && name !== 'error') emitter.removeListener('error', onError);
      reject(abortError(signal));
    };
    if (isEmitter) emitter.once(name, onEvent);
    else if (typeof emitter?.addEventListener === 'function') emitter.addEventListener(name, onEvent, { once: true });
    else throw invalidArgType('emitter', 'an instance of EventEmitter', emitter);
    if (isEmitter && name !== 'error') emitter.once('error', onError);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
};

/**
 * Node's listening helpers for events.on: an emitter's `on`/`removeListener`, else an
 * EventTarget's `addEventListener`/`removeEventListener`, else ERR_INVALID_ARG_TYPE.
 */
function listen(emitter, name, listener) {
  if (typeof emitter?.on === 'function') emitter.on(name, listener);
  else if (typeof emitter?.addEventListener === 'function') emitter.addEventListener(name, listener);
  else throw invalidArgType('emitter', 'an instance of EventEmitter', emitter);
}
function unlisten(emitter, name, listener) {
  if (typeof emitter.removeListener === 'function') emitter.removeListener(name, listener);
  else if (typeof emitter.removeEventListener === 'function') emitter.removeEventListener(name, listener);
}

/** Node's validateInteger for the watermark options: a number, an integer, from `min`. */
function validateWatermark(value, name) {
  if (typeof value !== 'number') throw invalidArgType(name, 'of type number', value);
  if (!Number.isInteger(value)) throw outOfRange(name, 'an integer', value);
  if (value < 1 || value > Number.MAX_SAFE_INTEGER) throw outOfRange(name, `>= 1 && <= ${Number.MAX_SAFE_INTEGER}`, value);
}

const AsyncIteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf(async function* () {}).prototype);

/**
 * events.on(emitter, name, options): an async iterator of the event's argument arrays (an
 * EventTarget's events as `[event]`), as Node 24's: `options` checked (`signal`,
 * `highWaterMark`/`lowWaterMark`, `close` — event names that end the iteration), an 'error'
 * event rejects the next read, and the iterator's methods are its own properties over
 * %AsyncIteratorPrototype%. runjs's emitters have no pause/resume, so the watermarks are only
 * checked.
 */
EventEmitter.on = function on(emitter, name, options = {}) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw invalidArgType('options', 'of type object', options);
  const signal = options.signal;
  validateAbortSignal(signal, 'options.signal');
  if (signal?.aborted) throw abortError(signal);
  validateWatermark(options.highWaterMark ?? options.highWatermark ?? Number.MAX_SAFE_INTEGER, 'options.highWaterMark');
  validateWatermark(options.lowWaterMark ?? options.lowWatermark ?? 1, 'options.lowWaterMark');
  const closeEvents = options.close;
  const queue = [];
  const waiting = [];
  let error;
  let done = false;
  const onEvent = function(...args) {
    const w = waiting.shift();
    if (w !== undefined) w.resolve({ value: args, done: false });
    else queue.push(args);
  };
  const onError = (e) => {
    const w = waiting.shift();
    if (w !== undefined) w.reject(e);
    else error = e;
    cleanup();
  };
  const onAbort = () => onError(abortError(signal));
  const onClose = () => {
    done = true;
    cleanup();
  };
  const cleanup = () => {
    done = true;
    unlisten(emitter, name, onEvent);
    if (name !== 'error' && typeof emitter.removeListener === 'function') emitter.removeListener('error', onError);
    if (closeEvents?.length) for (const c of closeEvents) unlisten(emitter, c, onClose);
    signal?.removeEventListener('abort', onAbort);
    for (const w of waiting.splice(0)) w.resolve({ value: undefined, done: true });
  };
  listen(emitter, name, onEvent);
  if (name !== 'error' && typeof emitter.on === 'function') emitter.on('error', onError);
  if (closeEvents?.length) for (const c of closeEvents) listen(emitter, c, onClose);
  signal?.addEventListener('abort', onAbort, { once: true });
  return Object.setPrototypeOf({
    next() {
      if (queue.length > 0) return Promise.resolve({ value: queue.shift(), done: false });
      if (error !== undefined) {
        const e = error;
        error = undefined;
        return Promise.reject(e);
      }
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    return() {
      cleanup();
      return Promise.resolve({ value: undefined, done: true });
    },
    throw(err) {
      if (!err || !(err instanceof Error)) throw invalidArgType('EventEmitter.AsyncIterator', 'an instance of Error', err);
      onError(err);
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]() { return this; },
  }, AsyncIteratorPrototype);
};

EventEmitter.errorMonitor = errorMonitor;
// Node 24: listenerCount(type, listener) counts only that listener (once-wrapped ones too).
const baseListenerCount = EventEmitter.prototype.listenerCount;
EventEmitter.prototype.listenerCount = function listenerCount(type, listener) {
  if (listener === undefined || listener === null) return baseListenerCount.call(this, type);
  let n = 0;
  for (const l of this.rawListeners(type)) if (l === listener || l.listener === listener) n++;
  return n;
};
EventEmitter.usingDomains = false;
EventEmitter.getEventListeners = function getEventListeners(target, name) {
  if (typeof target?.listeners === 'function') return target.listeners(name);
  if (target instanceof core.globals.EventTarget) return core.shared.eventTargetListeners(target, name);
  throw invalidArgType('emitter', 'an instance of EventEmitter or EventTarget', target);
};
// EventTargets' maximum, set by events.setMaxListeners(n, target), lives with the EventTarget
// (web/event-target.js warns from it); so does the default, which follows defaultMaxListeners
// (its setter is patched to tell it: scripts/guest-bundle/patches.ts).
EventEmitter.getMaxListeners = function getMaxListeners(target) {
  if (typeof target?.getMaxListeners === 'function') return target.getMaxListeners();
  if (target instanceof core.globals.EventTarget) return core.shared.getEventTargetMaxListeners(target);
  throw invalidArgType('emitter', 'an instance of EventEmitter or EventTarget', target);
};
// Node's keys for an EventTarget's maximum; exported for name parity (runjs keeps the maximum with
// the target itself, web/event-target.js).
for (const [key, description] of [['kMaxEventTargetListeners', 'events.maxEventTargetListeners'], ['kMaxEventTargetListenersWarned', 'events.maxEventTargetListenersWarned']]) {
  Object.defineProperty(EventEmitter, key, { value: Symbol(description), writable: false, enumerable: false, configurable: false });
}

EventEmitter.setMaxListeners = function setMaxListeners(n = EventEmitter.defaultMaxListeners, ...targets) {
  if (typeof n !== 'number') throw invalidArgType('setMaxListeners', 'of type number', n);
  if (n < 0 || Number.isNaN(n)) throw outOfRange('setMaxListeners', '>= 0', n);
  if (targets.length === 0) EventEmitter.defaultMaxListeners = n;
  for (const t of targets) {
    if (t instanceof EventEmitter || typeof t?.setMaxListeners === 'function') t.setMaxListeners(n);
    else if (t instanceof core.globals.EventTarget) core.shared.setEventTargetMaxListeners(t, n);
    else throw invalidArgType('eventTargets', 'an instance of EventEmitter or EventTarget', t);
  }
};
EventEmitter.addAbortListener = function addAbortListener(signal, listener) {
  if (signal === undefined) throw invalidArgType('signal', 'an instance of AbortSignal', signal);
  validateAbortSignal(signal, 'signal');
  if (typeof listener !== 'function') throw invalidArgType('listener', 'of type function', listener);
  let remove;
  if (signal.aborted) queueMicrotask(() => listener());
  else {
    signal.addEventListener('abort', listener, { __proto__: null, once: true, [core.shared.kResistStopPropagation]: true });
    remove = () => signal.removeEventListener('abort', listener);
  }
  const dispose = () => remove?.();
  return { [Symbol.dispose ?? Symbol.for('Symbol.dispose')]: dispose };
};

/**
 * Node's EventEmitterAsyncResource: an emitter whose events run in its AsyncResource's scope
 * (async_hooks' resources are inert in runjs, so that is a plain call). Made on first use, so
 * that node:events does not load async_hooks.
 */
function makeAsyncResourceEmitter() {
  const { AsyncResource } = core.host.requirePart('node-misc').modules.async_hooks;
  class EventEmitterAsyncResource extends EventEmitter {
    #resource;
    constructor(options = undefined) {
      let name;
      if (typeof options === 'string') {
        name = options;
        options = undefined;
      } else {
        // As Node: the class itself needs a name; a subclass defaults to its own.
        if (new.target === EventEmitterAsyncResource && typeof options?.name !== 'string') throw invalidArgType('options.name', 'of type string', options?.name);
        name = options?.name || new.target.name;
      }
      super(options);
      this.#resource = new AsyncResource(name);
      this.#resource.eventEmitter = this;
    }
    emit(event, ...args) { return this.#resource.runInAsyncScope(super.emit, this, event, ...args); }
    emitDestroy() { this.#resource.emitDestroy(); }
    get asyncId() { return this.#resource.asyncId(); }
    get triggerAsyncId() { return this.#resource.triggerAsyncId(); }
    get asyncResource() { return this.#resource; }
  }
  return EventEmitterAsyncResource;
}
let asyncResourceEmitter;
Object.defineProperty(EventEmitter, 'EventEmitterAsyncResource', {
  enumerable: true,
  configurable: true,
  get() { return (asyncResourceEmitter ??= makeAsyncResourceEmitter()); },
  set(value) { Object.defineProperty(EventEmitter, 'EventEmitterAsyncResource', { value, writable: true, enumerable: true, configurable: true }); },
});

let domain;
export const modules = {
  events: EventEmitter,
  // Made on first require: loading node:domain patches EventEmitter.prototype.emit, as in Node.
  get domain() { return (domain ??= makeDomain(EventEmitter)); },
};
export const globals = {};
