// Event, EventTarget and CustomEvent (DOM Standard), for targets without a tree: dispatch runs
// the target's own listeners (phase AT_TARGET). An exception in a listener is reported, and the
// dispatch goes on with the next listener: to the global object's `error` listeners at once if it
// has any (HTML's "report the exception", global-events.js), else the way Node does it, as an
// uncaught exception in a tick after the dispatch, which ends the run unless a process
// 'uncaughtException' listener takes it.
import { reportToGlobalListeners, describeType } from './microtask.js';
import { queueTick } from './next-tick.js';
import { now } from './clock.js';
import { DOMException } from './dom-exception.js';
import { process } from './process.js';
import { nodeError, invalidArgType } from './errors.js';

// Argument errors: Node's codes and texts where Node and the WebIDL agree on the class (TypeError;
// the WPT checks only the class), so `code` and `message` are what Node's EventTarget gives.
const missingArgs = (names) => nodeError(TypeError, 'ERR_MISSING_ARGS', `The ${names} must be specified`);
const invalidThis = (type) => nodeError(TypeError, 'ERR_INVALID_THIS', `Value of "this" must be of type ${type}`);

const events = new WeakMap(); // Event → its state

function ev(e) {
  const s = events.get(e);
  if (s === undefined) throw invalidThis('Event');
  return s;
}

const IS_TRUSTED = {
  __proto__: null,
  get: Object.getOwnPropertyDescriptor({ get isTrusted() { return ev(this).trusted; } }, 'isTrusted').get,
  enumerable: true,
  configurable: false,
};

export class Event {
  constructor(type, init = undefined) {
    if (arguments.length === 0) throw missingArgs('"type" argument');
    if (init !== undefined && init !== null && typeof init !== 'object' && typeof init !== 'function') throw invalidArgType('options', 'of type object', init);
    const o = init ?? {};
    events.set(this, {
      type: String(type),
      bubbles: !!o.bubbles,
      cancelable: !!o.cancelable,
      composed: !!o.composed,
      defaultPrevented: false,
      target: null,
      currentTarget: null,
      phase: 0,
      stop: false,
      stopImmediate: false,
      dispatching: false,
      passive: false,
      timeStamp: now(),
      trusted: false,
    });
    // [LegacyUnforgeable]: an own accessor of every event, the same getter for all of them.
    Object.defineProperty(this, 'isTrusted', IS_TRUSTED);
  }
  get type() { return ev(this).type; }
  get target() { return ev(this).target; }
  get srcElement() { return ev(this).target; }
  get currentTarget() { return ev(this).currentTarget; }
  get eventPhase() { return ev(this).phase; }
  get bubbles() { return ev(this).bubbles; }
  get cancelable() { return ev(this).cancelable; }
  get composed() { return ev(this).composed; }
  get defaultPrevented() { return ev(this).defaultPrevented; }
  get timeStamp() { return ev(this).timeStamp; }
  get returnValue() { return !ev(this).defaultPrevented; }
  set returnValue(v) { if (!v) this.preventDefault(); }
  get cancelBubble() { return ev(this).stop; }
  set cancelBubble(v) { if (v) ev(this).stop = true; }
  composedPath() {
    const s = ev(this);
    return s.dispatching && s.currentTarget !== null ? [s.currentTarget] : [];
  }
  preventDefault() {
    const s = ev(this);
    if (s.cancelable && !s.passive) s.defaultPrevented = true;
  }
  stopPropagation() { ev(this).stop = true; }
  stopImmediatePropagation() {
    const s = ev(this);
    s.stop = true;
    s.stopImmediate = true;
  }
  // util.inspect shows an event as Node does (its own isTrusted accessor would show otherwise).
  [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
    const name = this.constructor.name;
    if (depth < 0) return name;
    const s = ev(this);
    const opts = { ...options, depth: Number.isInteger(options.depth) ? options.depth - 1 : options.depth };
    return `${name} ${inspect({ type: s.type, defaultPrevented: s.defaultPrevented, cancelable: s.cancelable, timeStamp: s.timeStamp }, opts)}`;
  }
  initEvent(type, bubbles = false, cancelable = false) {
    const s = ev(this);
    if (arguments.length === 0) throw missingArgs('"type" argument');
    if (s.dispatching) return;
    s.type = String(type);
    s.bubbles = !!bubbles;
    s.cancelable = !!cancelable;
    s.stop = s.stopImmediate = s.defaultPrevented = false;
  }
}
const PHASES = [['NONE', 0], ['CAPTURING_PHASE', 1], ['AT_TARGET', 2], ['BUBBLING_PHASE', 3]];
for (const [k, v] of PHASES) {
  Object.defineProperty(Event, k, { value: v, enumerable: true });
  Object.defineProperty(Event.prototype, k, { value: v, enumerable: true });
}
Object.defineProperty(Event.prototype, Symbol.toStringTag, { value: 'Event', configurable: true });

/** Marks `event` as dispatched by the platform (its isTrusted is true), and returns it. */
export function trusted(event) {
  ev(event).trusted = true;
  return event;
}

export class CustomEvent extends Event {
  #detail;
  constructor(type, init = undefined) {
    if (arguments.length === 0) throw missingArgs('"type" argument');
    super(type, init);
    this.#detail = init?.detail ?? null;
  }
  get detail() {
    try {
      return this.#detail;
    } catch {
      throw invalidThis('CustomEvent');
    }
  }
  initCustomEvent(type, bubbles = false, cancelable = false, detail = null) {
    this.initEvent(type, bubbles, cancelable);
    this.#detail = detail;
  }
}
Object.defineProperty(CustomEvent.prototype, Symbol.toStringTag, { value: 'CustomEvent', configurable: true });

const targets = new WeakMap(); // EventTarget → Map(type → listener records)

function listenersOf(target) {
  let m = targets.get(target);
  if (m === undefined) {
    if (!(target instanceof EventTarget)) throw invalidThis('EventTarget');
    m = new Map();
    targets.set(target, m);
  }
  return m;
}

/**
 * Node's internal listener option: a listener added with it still runs after
 * stopImmediatePropagation() (events.addAbortListener's, so an abort always reaches it).
 */
export const kResistStopPropagation = Symbol('kResistStopPropagation');

function flatten(options) {
  if (typeof options === 'boolean') return { capture: options, once: false, passive: false, signal: undefined };
  if (options === null || options === undefined) return { capture: false, once: false, passive: false, signal: undefined };
  const o = { capture: !!options.capture, once: !!options.once, passive: !!options.passive, signal: options.signal, resist: options[kResistStopPropagation] === true };
  // WebIDL converts the whole dictionary before addEventListener looks at the callback.
  if (o.signal !== undefined && !isAbortSignal(o.signal)) {
    const e = new TypeError(`The "options.signal" property must be an instance of AbortSignal. Received ${describeType(o.signal)}`);
    e.code = 'ERR_INVALID_ARG_TYPE'; // Node's error for it
    throw e;
  }
  return o;
}

/** node:events' getEventListeners(target, type): the target's listeners of `type`, in order. */
export function eventTargetListeners(target, type) {
  const list = targets.get(target)?.get(String(type)) ?? [];
  return list.filter((rec) => !rec.removed).map((rec) => rec.callback);
}

/** Makes `obj` (the global object) an event target without EventTarget in its prototype chain. */
export function adoptEventTarget(obj) {
  if (!targets.has(obj)) targets.set(obj, new Map());
}

// As Node: what a listener throws, or its promise rejects with, is an uncaught exception raised
// in a tick after the dispatch (the other listeners still run).
function rethrow(e) {
  throw e;
}

function reportListenerError(e) {
  if (!reportToGlobalListeners(e)) queueTick(rethrow, [e]);
}

function catchRejection(result) {
  try {
    const then = result.then;
    if (typeof then === 'function') then.call(result, undefined, (e) => queueTick(rethrow, [e]));
  } catch (e) {
    queueTick(rethrow, [e]);
  }
}

export class EventTarget {
  constructor() {
    targets.set(this, new Map());
  }
  addEventListener(type, callback, options = undefined) {
    const map = listenersOf(this);
    if (arguments.length < 2) throw missingArgs('"type" and "listener" arguments');
    const o = flatten(options);
    if (callback === null || callback === undefined) {
      const w = new Error(`addEventListener called with ${callback} which has no effect.`);
      w.name = 'AddEventListenerArgumentTypeWarning';
      w.target = this;
      w.type = String(type);
      process.emitWarning(w);
      return;
    }
    if (typeof callback !== 'function' && typeof callback !== 'object') throw invalidArgType('listener', 'an instance of EventListener', callback);
    if (o.signal !== undefined && o.signal.aborted) return;
    const t = String(type);
    let list = map.get(t);
    if (list === undefined) { list = []; map.set(t, list); }
    for (let i = 0; i < list.length; i++) if (list[i].callback === callback && list[i].capture === o.capture) return;
    const rec = { callback, capture: o.capture, once: o.once, passive: o.passive, resist: o.resist === true, removed: false };
    list.push(rec);
    notify(this, t, list.length);
    if (list.length > 1) checkMaxListeners(this, t, list.length);
    if (o.signal !== undefined) {
      o.signal.addEventListener('abort', () => this.removeEventListener(t, callback, { capture: o.capture }));
    }
  }
  removeEventListener(type, callback, options = undefined) {
    const map = listenersOf(this);
    if (arguments.length < 2) throw missingArgs('"type" and "listener" arguments');
    if (callback !== null && callback !== undefined && typeof callback !== 'function' && typeof callback !== 'object') throw invalidArgType('listener', 'an instance of EventListener', callback);
    const capture = typeof options === 'boolean' ? options : !!options?.capture;
    const t = String(type);
    const list = map.get(t);
    if (list === undefined) return;
    for (let i = 0; i < list.length; i++) {
      if (list[i].callback === callback && list[i].capture === capture) {
        list[i].removed = true;
        list.splice(i, 1);
        if (list.length === 0) map.delete(t);
        notify(this, t, list.length);
        return;
      }
    }
  }
  dispatchEvent(event) {
    const map = listenersOf(this);
    if (arguments.length === 0) throw missingArgs('"event" argument');
    const s = events.get(event);
    if (s === undefined) throw invalidArgType('event', 'an instance of Event', event);
    if (s.dispatching) throw new DOMException('The event is already being dispatched.', 'InvalidStateError');
    s.dispatching = true;
    s.target = this;
    s.currentTarget = this;
    s.phase = 2;
    try {
      const list = map.get(s.type);
      if (list !== undefined) {
        const snapshot = list.slice();
        for (let i = 0; i < snapshot.length; i++) {
          const rec = snapshot[i];
          if (rec.removed || (s.stopImmediate && !rec.resist)) continue;
          if (rec.once) this.removeEventListener(s.type, rec.callback, { capture: rec.capture });
          s.passive = rec.passive;
          try {
            let result;
            if (typeof rec.callback === 'function') result = rec.callback.call(this, event);
            else {
              const handle = rec.callback.handleEvent;
              if (typeof handle !== 'function') throw new TypeError("'handleEvent' property of event listener should be a function");
              result = handle.call(rec.callback, event);
            }
            if (result !== undefined && result !== null) catchRejection(result);
          } catch (e) {
            reportListenerError(e);
          }
          s.passive = false;
        }
      }
    } finally {
      s.dispatching = false;
      s.phase = 0;
      s.currentTarget = null;
      s.stop = false;
      s.stopImmediate = false;
    }
    return !s.defaultPrevented;
  }
}
Object.defineProperty(EventTarget.prototype, Symbol.toStringTag, { value: 'EventTarget', configurable: true });

const watchers = new WeakMap(); // EventTarget → (type, listenerCount) => void

/** Calls `watcher(type, count)` whenever `target` gains or loses a listener. */
export function watchListeners(target, watcher) {
  watchers.set(target, watcher);
}

// Node's MaxListenersExceededWarning for EventTargets: once per target, when one type's listeners
// outnumber the target's maximum (events.setMaxListeners(n, target), else events'
// defaultMaxListeners; an AbortSignal has none unless given one, as in Node).
const maxListeners = new WeakMap();
const warnedTargets = new WeakSet();
let defaultMaxListeners = 10;

/** events.setMaxListeners(n, target) and getMaxListeners(target). */
export function setEventTargetMaxListeners(target, n) { maxListeners.set(target, n); }
export function getEventTargetMaxListeners(target) {
  return maxListeners.get(target) ?? (isAbortSignal(target) ? 0 : defaultMaxListeners);
}
/** Follows node:events' `EventEmitter.defaultMaxListeners`. */
export function setEventTargetDefaultMaxListeners(n) { defaultMaxListeners = n; }

function isAbortSignal(target) {
  const AbortSignal = globalThis.AbortSignal;
  return typeof AbortSignal === 'function' && target instanceof AbortSignal;
}

function checkMaxListeners(target, type, count) {
  if (warnedTargets.has(target)) return;
  const max = getEventTargetMaxListeners(target);
  if (!(max > 0) || count <= max) return;
  warnedTargets.add(target);
  const w = new Error(`Possible EventTarget memory leak detected. ${count} ${type} listeners added to ${target.constructor?.name ?? 'EventTarget'}. MaxListeners is ${max}. Use events.setMaxListeners() to increase limit`);
  w.name = 'MaxListenersExceededWarning';
  w.target = target;
  w.type = type;
  w.count = count;
  process.emitWarning(w);
}

function notify(target, type, count) {
  const w = watchers.get(target);
  if (w !== undefined) w(type, count);
}
