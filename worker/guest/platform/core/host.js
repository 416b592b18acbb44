// The prelude's bridge to the host, as the platform uses it. `internal` is the object prelude.js
// builds; it is reachable only from prelude code, never from user code.
/* global __runjs_internal */ // prelude.js's internal object (a local of the generated wrapper)
const internal = __runjs_internal;

/** Calls a sync host op (throws the op's error); with `onDone`, starts an async op and returns its id. */
export const op = internal.op;
/** Calls an async host op; resolves with its value. */
export const opAsync = internal.opAsync;
export const formatError = internal.formatError;
/** The factory function of platform part `name` compiled by the engine, or undefined (see prelude.js). */
export const compilePart = internal.compilePart;
export const formatArg = internal.formatArg;
/** `[state, result]` of a promise (0 pending, 1 fulfilled, 2 rejected) where the engine can tell (QuickJS), else undefined. */
export const promiseDetails = internal.promiseDetails;

/**
 * The async context AsyncLocalStorage reads: a Map (storage → store) or undefined, current while
 * synchronous code runs. Timers, immediates, queueMicrotask and process.nextTick carry the one
 * they were scheduled in to their callbacks; promise jobs do not (neither engine lets the platform
 * hook them).
 */
export function currentFrame() {
  return internal.frame;
}
/** Makes `frame` current for the rest of this synchronous execution (AsyncLocalStorage#enterWith). */
export function enterFrame(frame) {
  internal.frame = frame;
}
/** Calls `fn` with `frame` current, then restores the one before (the prelude's, which its timers use too). */
export const runInFrame = internal.runInFrame;

const runStartHooks = [];
/** `fn` runs at the start of every run in this realm (a realm may serve many runs in heap mode). */
export function onRunStart(fn) {
  runStartHooks.push(fn);
}
let beforeRun;
/** `fn(parts)` runs before each run's code, given the parts its main module names where the engine passes them (V8). */
export function setBeforeRun(fn) {
  beforeRun = fn;
}
const track = internal.track;
// Named: an anonymous function's inferred name depends on how the prelude was compiled (booted
// from source: `internal.track`; as the V8 startup snapshot's script, which assigns the prelude's
// result to a global: `globalThis.__runjs_boot_internal.internal.track`), and err.stack shows it.
internal.track = function trackRun(main, parts) {
  if (beforeRun !== undefined && parts !== undefined) beforeRun(parts);
  for (let i = 0; i < runStartHooks.length; i++) runStartHooks[i]();
  return track(main);
};

/** An uncaught exception (errors in event listeners, reportError): to process's listeners, else the run ends. */
export function failRun(e) {
  if (internal.dispatchUncaught(e, 'uncaughtException')) return;
  failRunNow(e);
}

/** Fails the run with `e` without dispatching it (what a process listener throws ends Node's process). */
export function failRunNow(e) {
  let text;
  try {
    text = e instanceof Error || (typeof e === 'object' && e !== null && typeof e.stack === 'string') ? formatError(e) : formatArg(e);
  } catch {
    text = 'unprintable error';
  }
  op('run.settle', { ok: false, error: `Uncaught ${text}` });
}

/**
 * Installs process's 'uncaughtException' dispatch (web/process-events.js): `fn(error, origin)`
 * returns true when a listener took the error.
 */
export const setUncaughtHandler = internal.setUncaughtHandler;
/** Hands process a promise a platform callback returned, which nobody else can handle (prelude.js). */
export const watchDropped = internal.watchDropped;
/** `fn` runs after each task's synchronous part, before its promise jobs (web/next-tick.js). */
export const setAfterTask = internal.setAfterTask;

/** Puts `fn` on the internal object the engine holds (never reachable from user code). */
export function exposeToEngine(name, fn) {
  internal[name] = fn;
}
