// AbortController and AbortSignal (DOM Standard), including AbortSignal.abort/timeout/any.
import { DOMException } from './dom-exception.js';
import { Event, EventTarget, trusted, watchListeners } from './event-target.js';
import { sleepUnref } from './timers.js';

const signals = new WeakMap(); // AbortSignal → state
const CREATE = Symbol('create');

function st(s) {
  const v = signals.get(s);
  if (v === undefined) throw new TypeError('Illegal invocation');
  return v;
}

/** util.inspect as Node shows a signal or controller: its class name and `obj`, one level deeper. */
function customInspect(self, obj, depth, options, inspect) {
  if (typeof depth === 'number' && depth < 0) return self;
  const opts = { ...options, depth: options.depth === null ? null : options.depth - 1 };
  return `${self.constructor.name} ${inspect(obj, opts)}`;
}

export class AbortSignal extends EventTarget {
  constructor(token) {
    if (token !== CREATE) throw new TypeError('Illegal constructor');
    super();
    signals.set(this, { aborted: false, reason: undefined, onabort: null, followers: [], dependent: false, sources: [] });
  }
  get aborted() { return st(this).aborted; }
  get reason() { return st(this).reason; }
  [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
    return customInspect(this, { aborted: st(this).aborted }, depth, options, inspect);
  }
  throwIfAborted() {
    const s = st(this);
    if (s.aborted) throw s.reason;
  }
  get onabort() { return st(this).onabort; }
  set onabort(fn) {
    const s = st(this);
    if (s.onabort !== null) this.removeEventListener('abort', s.onabortListener);
    s.onabort = typeof fn === 'function' || (typeof fn === 'object' && fn !== null) ? fn : null;
    if (s.onabort !== null) {
      s.onabortListener = (e) => (typeof s.onabort === 'function' ? s.onabort.call(this, e) : undefined);
      this.addEventListener('abort', s.onabortListener);
    }
  }
  static abort(reason = undefined) {
    const signal = newSignal();
    signalAbort(signal, reason === undefined ? abortError() : reason);
    return signal;
  }
  static timeout(ms) {
    const n = Number(ms);
    if (!Number.isFinite(n) || n < 0 || n > Number.MAX_SAFE_INTEGER) {
      throw new TypeError(`The "delay" argument must be an integer between 0 and ${Number.MAX_SAFE_INTEGER}. Received ${String(ms)}`);
    }
    const signal = newSignal();
    // As in Node, a pending timeout does not keep the run alive by itself; unlike Node, it does
    // while something listens for its abort event (awaiting it should not end the run early).
    const timer = sleepUnref(n, () => signalAbort(signal, new DOMException('The operation was aborted due to timeout', 'TimeoutError')));
    watchListeners(signal, (type, count) => {
      if (type === 'abort') timer.ref(count > 0);
    });
    return signal;
  }
  static any(iterable) {
    const list = [];
    for (const s of iterable) {
      if (!signals.has(s)) throw new TypeError('The "signals" argument must be an array of AbortSignal instances');
      list.push(s);
    }
    const result = newSignal();
    for (const s of list) {
      const src = st(s);
      if (src.aborted) {
        signalAbort(result, src.reason);
        return result;
      }
    }
    // A dependent signal follows the sources of the signals it was made from, never another
    // dependent signal, so aborting a source aborts every dependent signal at once (DOM § 3.2).
    const rs = st(result);
    rs.dependent = true;
    for (const s of list) {
      const ss = st(s);
      for (const source of ss.dependent ? ss.sources : [s]) {
        if (rs.sources.includes(source)) continue;
        rs.sources.push(source);
        st(source).followers.push(result);
      }
    }
    return result;
  }
}
Object.defineProperty(AbortSignal.prototype, Symbol.toStringTag, { value: 'AbortSignal', configurable: true });

function newSignal() {
  return new AbortSignal(CREATE);
}

function abortError() {
  return new DOMException('This operation was aborted', 'AbortError');
}

/** Aborts `signal` (and every signal following it through AbortSignal.any). */
export function signalAbort(signal, reason) {
  const s = st(signal);
  if (s.aborted) return;
  s.aborted = true;
  s.reason = reason;
  const followers = s.followers;
  s.followers = [];
  const toFire = [signal];
  for (const f of followers) {
    const fs = st(f);
    if (fs.aborted) continue;
    fs.aborted = true;
    fs.reason = reason;
    toFire.push(f);
  }
  for (const t of toFire) t.dispatchEvent(trusted(new Event('abort')));
}

export class AbortController {
  #signal = newSignal();
  get signal() { return this.#signal; }
  [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
    return customInspect(this, { signal: this.#signal }, depth, options, inspect);
  }
  abort(reason = undefined) {
    signalAbort(this.#signal, reason === undefined ? abortError() : reason);
  }
}
Object.defineProperty(AbortController.prototype, Symbol.toStringTag, { value: 'AbortController', configurable: true });
