// Node-style errors: the builtin class with a `code` (ERR_…), as Node's own modules throw them.
import { describeType } from './microtask.js';

export function nodeError(Ctor, code, message) {
  const e = new Ctor(message);
  Object.defineProperty(e, 'code', { value: code, writable: true, enumerable: true, configurable: true });
  return e;
}

/** ERR_INVALID_ARG_TYPE: `The "name" argument must be <expected>. Received …`. */
export function invalidArgType(name, expected, actual) {
  const what = name.includes('.') ? 'property' : 'argument';
  return nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "${name}" ${what} must be ${expected}. Received ${describeType(actual)}`);
}

/** ERR_OUT_OF_RANGE: `The value of "name" is out of range. It must be <range>. Received <value>`. */
export function outOfRange(name, range, actual) {
  return nodeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "${name}" is out of range. It must be ${range}. Received ${String(actual)}`);
}
