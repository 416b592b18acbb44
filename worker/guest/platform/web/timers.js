// Timers beyond prelude.js's setTimeout: setImmediate (Node's Immediate objects), and unreferenced sleeps (a pending
// unreferenced sleep does not keep a run alive, like Node's timer.unref()) for AbortSignal.timeout.
import { op, watchDropped, currentFrame, runInFrame } from './host.js';
import { invalidArgType } from './errors.js';

const immediates = new Map(); // Immediate → its op id while pending
const kDispose = Symbol.dispose ?? Symbol.for('Symbol.dispose');

/**
 * What setImmediate returns, as in Node (the global and node:timers' are one function): ref/unref/
 * hasRef, and disposing clears it. An unref'd immediate does not keep the run alive: it runs only
 * if something else does (its op is unreferenced, as an unref'd Timeout's sleep).
 */
export class Immediate {
  #ref = true;
  ref() { return this.#setRef(true); }
  unref() { return this.#setRef(false); }
  hasRef() { return this.#ref; }
  #setRef(ref) {
    if (this.#ref !== ref) {
      this.#ref = ref;
      const id = immediates.get(this);
      if (id !== undefined) op('timers.ref', { id, ref });
    }
    return this;
  }
  [kDispose]() { clearImmediate(this); }
}

export function setImmediate(callback, ...args) {
  if (typeof callback !== 'function') throw invalidArgType('callback', 'of type function', callback);
  const immediate = new Immediate();
  const frame = currentFrame(); // the async context it runs in (AsyncLocalStorage)
  // Ordered before any timeout set since this turn began (worker/runtime/timer-queue.ts), as
  // Node's check phase comes before its next timers phase.
  const id = op('timers.immediate', null, undefined, () => {
    if (!immediates.delete(immediate)) return;
    // As Node: the callback's `this` is the Immediate.
    watchDropped(runInFrame(frame, callback, immediate, args));
  });
  immediates.set(immediate, id);
  return immediate;
}

/** Clears an Immediate; anything else is ignored, as in Node. */
export function clearImmediate(immediate) {
  const id = immediates.get(immediate);
  if (id === undefined) return;
  immediates.delete(immediate);
  op('timers.cancel', id);
}

/**
 * Calls `callback` after `ms` without keeping the run alive (until `ref(true)`); returns
 * `{ cancel(), ref(keepAlive) }`.
 */
export function sleepUnref(ms, callback) {
  let live = true;
  let refd = false;
  const id = op('timers.sleep', Math.max(0, Math.floor(ms)), undefined, () => {
    // A firing the host sent before it processed our cancel (the engine's thread and the host's
    // event loop run side by side) must not call back: a cleared timer never fires.
    if (!live) return;
    live = false;
    callback();
  });
  op('timers.ref', { id, ref: false });
  return {
    cancel() {
      if (!live) return;
      live = false;
      op('timers.cancel', id);
    },
    ref(keepAlive) {
      if (!live || refd === keepAlive) return;
      refd = keepAlive;
      op('timers.ref', { id, ref: keepAlive });
    },
  };
}
