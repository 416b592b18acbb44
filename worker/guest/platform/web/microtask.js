// queueMicrotask and reportError.
import { failRun, watchDropped, currentFrame, runInFrame } from './host.js';

const resolved = Promise.resolve();

/** Reports an exception nobody can catch: the run ends with it, as in Node and Deno. */
export function reportError(e) {
  if (reportHook !== undefined && reportHook(e)) return;
  failRun(e);
}

/** Whether the global object's `error` listeners took `e` (global-events.js); false without any. */
export function reportToGlobalListeners(e) {
  return reportHook !== undefined && reportHook(e);
}

let reportHook; // global-events.js: the global object's `error` listeners take the exception first
/** Sets what `reportError` tries first: `hook(e)` returns whether the script took the exception. */
export function onReportException(hook) {
  reportHook = hook;
}

export function queueMicrotask(callback) {
  if (typeof callback !== 'function') {
    const e = new TypeError(`The "callback" argument must be of type function. Received ${describeType(callback)}`);
    Object.defineProperty(e, 'code', { value: 'ERR_INVALID_ARG_TYPE', writable: true, enumerable: true, configurable: true });
    throw e;
  }
  const frame = currentFrame(); // the async context it runs in (AsyncLocalStorage)
  resolved.then(() => {
    try {
      watchDropped(runInFrame(frame, callback, undefined, []));
    } catch (e) {
      reportError(e);
    }
  });
}

/** Node's "Received …" suffix for ERR_INVALID_ARG_TYPE messages. */
export function describeType(v) {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  if (typeof v === 'function') return `function ${v.name}`;
  if (typeof v === 'object') {
    if (v.constructor && 'name' in v.constructor) return `an instance of ${v.constructor.name}`;
    return shallowInspect(v);
  }
  // As Node's determineSpecificType: long strings cut to 25 characters, JSON quotes for one
  // with an apostrophe, -0 as -0.
  if (typeof v === 'string') {
    const cut = v.length > 28 ? `${v.slice(0, 25)}...` : v;
    return `type string (${cut.includes("'") ? JSON.stringify(cut) : `'${cut}'`})`;
  }
  let shown = Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'bigint') shown += 'n';
  return `type ${typeof v} (${shown})`;
}

/** util.inspect(v, { depth: -1 }) of an object with no constructor name, the shapes Node shows. */
function shallowInspect(v) {
  const empty = Object.keys(v).length === 0;
  if (Object.getPrototypeOf(v) === null) return empty ? '[Object: null prototype] {}' : '[Object: null prototype]';
  if (Array.isArray(v)) return empty ? '[]' : '[Array]';
  return empty ? '{}' : '[Object]';
}
