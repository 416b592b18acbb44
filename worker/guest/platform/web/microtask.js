// queueMicrotask and reportError.
import { failRun } from './host.js';

const resolved = Promise.resolve();

/** Reports an exception nobody can catch: the run ends with it, as in Node and Deno. */
export function reportError(e) {
  failRun(e);
}

export function queueMicrotask(callback) {
  if (typeof callback !== 'function') {
    const e = new TypeError(`The "callback" argument must be of type function. Received ${describeType(callback)}`);
    Object.defineProperty(e, 'code', { value: 'ERR_INVALID_ARG_TYPE', writable: true, enumerable: true, configurable: true });
    throw e;
  }
  resolved.then(() => {
    try {
      callback();
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
    const name = v.constructor?.name;
    return name ? `an instance of ${name}` : 'an instance of Object';
  }
  let shown = typeof v === 'string' ? `'${v.length > 25 ? `${v.slice(0, 25)}...` : v}'` : String(v);
  if (typeof v === 'bigint') shown += 'n';
  return `type ${typeof v} (${shown})`;
}
