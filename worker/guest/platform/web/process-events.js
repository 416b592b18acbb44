// process's run events, in Node's order (docs/script-environment.md "Process events"):
// 'uncaughtException' (and 'uncaughtExceptionMonitor', setUncaughtExceptionCaptureCallback),
// 'unhandledRejection', 'beforeExit' and 'exit'. The prelude hands every error nothing caught to
// the dispatch installed here; the host tells the run's end and unhandled rejections through two
// ops (run.idle, run.rejection) the guest starts only while it has listeners, so a run without
// them pays nothing and ends exactly as before.
import { op, onRunStart, setUncaughtHandler, failRun, failRunNow } from './host.js';
import { nodeError, invalidArgType } from './errors.js';

/** What the host's rejection copy (engines/v8/unhandled-rejection.ts) can give back of a reason. */
const ERROR_CLASSES = { __proto__: null, Error, TypeError, RangeError, SyntaxError, ReferenceError, URIError, EvalError };

function rebuildReason(r) {
  switch (r.kind) {
    case 'error': {
      const Ctor = ERROR_CLASSES[r.name] ?? Error;
      const e = new Ctor(r.message);
      if (ERROR_CLASSES[r.name] === undefined) e.name = r.name;
      Object.defineProperty(e, 'stack', { value: r.stack, writable: true, configurable: true });
      return e;
    }
    case 'bigint': return BigInt(r.value);
    case 'symbol': return Symbol(r.value);
    case 'undefined': return undefined;
    case 'number': return Number(r.value);
    case 'value': return r.value;
    default: return new Error('a promise was rejected with an object that is not an Error; runjs cannot pass that object on');
  }
}

/**
 * Wires `process` (web/process.js) to the run: returns `listenersChanged(event)`, which process
 * calls when a listener is added, so the ops the events need are started.
 */
export function installProcessEvents(process) {
  let captureCallback = null;
  let idleArmed = false;
  let rejectionArmed = false;

  const exitCode = () => {
    const code = process.exitCode;
    return code === undefined || code === null ? 0 : Number(code) | 0;
  };

  /** Node's 'exit' on the way out of a failed run (code 1), once. */
  function emitFatalExit() {
    if (process._exiting || process.listenerCount('exit') === 0) return;
    process._exiting = true;
    process.exitCode = 1;
    try { process.emit('exit', 1); } catch { /* the run fails with the first error */ }
  }

  /** The prelude's dispatch: true when a listener or the capture callback took `err`. */
  function onUncaught(err, origin) {
    process.emit('uncaughtExceptionMonitor', err, origin);
    if (captureCallback !== null) { captureCallback(err); return true; }
    if (process.emit('uncaughtException', err, origin)) return true;
    emitFatalExit();
    return false;
  }

  const wantsRejections = () => captureCallback !== null || process.listenerCount('unhandledRejection') + process.listenerCount('uncaughtException') > 0;

  /** An unhandled rejection the guest saw itself: the reason and promise are the script's own. */
  function onDroppedRejection(reason, promise) {
    if (process.listenerCount('unhandledRejection') > 0) {
      try {
        process.emit('unhandledRejection', reason, promise);
      } catch (e) {
        failRun(e); // to 'uncaughtException', as Node does with what such a listener throws
      }
      return;
    }
    if (!raisedAsUncaught(reason)) failRunNow(reason);
  }

  /**
   * Node's default for an unhandled rejection (--unhandled-rejections=throw): raised as an
   * uncaught exception. True when a listener took it or what a listener threw ended the run;
   * false when nobody listens (the caller fails the run with its own text).
   */
  function raisedAsUncaught(reason) {
    try {
      return onUncaught(reason, 'unhandledRejection');
    } catch (e) {
      failRunNow(e);
      return true;
    }
  }

  /**
   * A promise a platform callback returned (prelude.js watchDropped): only while someone listens
   * does the guest handle it itself; otherwise the engine reports it as before (V8) or not (QuickJS).
   */
  function onDropped(result) {
    if (!(result instanceof Promise) || !wantsRejections()) return;
    result.then(undefined, (reason) => onDroppedRejection(reason, result));
  }
  setUncaughtHandler(onUncaught, onDropped);

  function onIdle(ok, value) {
    idleArmed = false;
    if (!ok || process._exiting) return;
    if (value.exit) {
      process._exiting = true;
      // What an 'exit' listener throws is an uncaught exception, as in Node: to 'uncaughtException'
      // listeners, else the run fails with it (it was lost, the run completing).
      try {
        process.emit('exit', exitCode());
      } catch (e) {
        failRun(e);
      }
      return;
    }
    process.emit('beforeExit', exitCode());
    armIdle();
  }

  function armIdle() {
    if (idleArmed || process._exiting || process.listenerCount('beforeExit') + process.listenerCount('exit') === 0) return;
    idleArmed = true;
    op('run.idle', null, undefined, onIdle);
  }

  function onRejection(ok, value) {
    rejectionArmed = false;
    if (!ok) return;
    const reason = rebuildReason(value.reason);
    const promise = Promise.reject(reason);
    promise.catch(() => {});
    armRejection();
    if (process.listenerCount('unhandledRejection') > 0) {
      // What a listener throws is an uncaught exception (the prelude's complete() dispatches it).
      process.emit('unhandledRejection', reason, promise);
      return;
    }
    if (!raisedAsUncaught(reason)) op('run.settle', { ok: false, error: value.text });
  }

  function armRejection() {
    if (rejectionArmed) return;
    // 'exit' listeners too: a fatal rejection emits 'exit' with code 1, as Node does.
    if (captureCallback === null && process.listenerCount('unhandledRejection') + process.listenerCount('uncaughtException') + process.listenerCount('exit') === 0) return;
    rejectionArmed = true;
    op('run.rejection', null, undefined, onRejection);
  }

  // A heap-mode realm serves many runs: each run waits for its own events.
  onRunStart(() => {
    idleArmed = false;
    rejectionArmed = false;
    process._exiting = false;
    armIdle();
    armRejection();
  });

  process.setUncaughtExceptionCaptureCallback = function setUncaughtExceptionCaptureCallback(fn) {
    if (fn === null) { captureCallback = null; return; }
    if (typeof fn !== 'function') throw invalidArgType('fn', 'of type function or null', fn);
    if (captureCallback !== null) {
      throw nodeError(Error, 'ERR_UNCAUGHT_EXCEPTION_CAPTURE_ALREADY_SET', '`process.setupUncaughtExceptionCapture()` was called while a capture callback was already active');
    }
    captureCallback = fn;
    armRejection();
  };
  process.hasUncaughtExceptionCaptureCallback = function hasUncaughtExceptionCaptureCallback() {
    return captureCallback !== null;
  };

  return function listenersChanged(event) {
    if (event === 'beforeExit' || event === 'exit') armIdle();
    if (event === 'unhandledRejection' || event === 'uncaughtException' || event === 'exit') armRejection();
  };
}
