// Node-style errors: the builtin class with a `code` (ERR_…), as Node's own modules throw them.
import { describeType } from './microtask.js';

export function nodeError(Ctor, code, message) {
  const e = new Ctor(message);
  Object.defineProperty(e, 'code', { value: code, writable: true, enumerable: true, configurable: true });
  return e;
}

/** ERR_INVALID_ARG_TYPE: `The "name" argument must be <expected>. Received …`. */
export function invalidArgType(name, expected, actual) {
  // As Node: a name that ends in " argument" is used as it is ("The first argument must be …").
  const subject = name.endsWith(' argument') ? name : `"${name}" ${name.includes('.') ? 'property' : 'argument'}`;
  return nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The ${subject} must be ${expected}. Received ${describeType(actual)}`);
}

/** ERR_OUT_OF_RANGE: `The value of "name" is out of range. It must be <range>. Received <value>`. */
export function outOfRange(name, range, actual) {
  return nodeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "${name}" is out of range. It must be ${range}. Received ${describeReceived(actual)}`);
}

/** How Node's ERR_OUT_OF_RANGE shows the value: big integers with `_` separators, BigInts with `n`. */
function describeReceived(v) {
  if (typeof v === 'bigint') {
    const s = String(v);
    return `${v > 2n ** 32n || v < -(2n ** 32n) ? addNumericalSeparator(s) : s}n`;
  }
  if (typeof v === 'number') {
    if (Number.isInteger(v) && Math.abs(v) > 2 ** 32) return addNumericalSeparator(String(v));
    return Object.is(v, -0) ? '-0' : String(v);
  }
  if (typeof v === 'string') return `'${v}'`;
  return String(v);
}

function addNumericalSeparator(s) {
  let res = '';
  let i = s.length;
  const start = s[0] === '-' ? 1 : 0;
  for (; i >= start + 4; i -= 3) res = `_${s.slice(i - 3, i)}${res}`;
  return `${s.slice(0, i)}${res}`;
}
