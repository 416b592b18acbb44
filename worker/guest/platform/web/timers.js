// Timers beyond prelude.js's setTimeout: setImmediate, and unreferenced sleeps (a pending
// unreferenced sleep does not keep a run alive, like Node's timer.unref()) for AbortSignal.timeout.
import { op, watchDropped } from './host.js';

const immediates = new Map(); // immediate id → true while pending
let nextImmediate = 1;

export function setImmediate(callback, ...args) {
  if (typeof callback !== 'function') throw new TypeError('The "callback" argument must be of type function');
  const id = nextImmediate++;
  immediates.set(id, true);
  // Ordered before any timeout set since this turn began (worker/runtime/timer-queue.ts), as
  // Node's check phase comes before its next timers phase.
  op('timers.immediate', null, undefined, () => {
    if (!immediates.delete(id)) return;
    watchDropped(callback(...args));
  });
  return id;
}

export function clearImmediate(id) {
  immediates.delete(Number(id));
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
