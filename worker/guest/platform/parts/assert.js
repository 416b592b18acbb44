// node:assert and node:assert/strict, written for runjs on Node's semantics and message texts
// (deep equality from util/deep-equal.js, values shown with util.inspect, a line diff for
// deep-equality failures).
import core from 'runjs:part/core';
import utilPart from 'runjs:part/util';

const { invalidArgType } = core.shared;
const { inspect, deepEqual } = utilPart;

const INSPECT_OPTIONS = { compact: false, customInspect: false, depth: 1000, maxArrayLength: Infinity, sorted: true, getters: true };
const show = (v) => inspect(v, INSPECT_OPTIONS);
const showShort = (v) => inspect(v);

export class AssertionError extends Error {
  constructor(options) {
    if (typeof options !== 'object' || options === null) throw invalidArgType('options', 'of type object', options);
    const { message, actual, expected, operator } = options;
    super(message !== undefined ? String(message) : defaultMessage(actual, expected, operator));
    this.generatedMessage = message === undefined;
    this.code = 'ERR_ASSERTION';
    this.actual = actual;
    this.expected = expected;
    this.operator = operator;
    if (options.stackStartFn !== undefined && typeof Error.captureStackTrace === 'function') Error.captureStackTrace(this, options.stackStartFn);
  }
  get name() { return 'AssertionError'; }
  toString() { return `AssertionError [ERR_ASSERTION]: ${this.message}`; }
}

function lines(s) {
  return s.split('\n');
}

/** `+ actual - expected` line diff (longest common subsequence). */
function diff(actual, expected) {
  const a = lines(show(actual));
  const b = lines(show(expected));
  const n = a.length;
  const m = b.length;
  if (n * m > 4_000_000) return `\n+ ${a.join('\n+ ')}\n- ${b.join('\n- ')}`;
  const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) { out.push(`  ${a[i]}`); i++; j++; } else if (j >= m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) { out.push(`+ ${a[i]}`); i++; } else { out.push(`- ${b[j]}`); j++; }
  }
  return `\n${out.join('\n')}\n`;
}

function defaultMessage(actual, expected, operator) {
  switch (operator) {
    case 'deepStrictEqual':
    case 'strictEqual': {
      const sa = show(actual);
      const sb = show(expected);
      const head = operator === 'strictEqual' ? 'Expected values to be strictly equal:' : 'Expected values to be strictly deep-equal:';
      if (operator === 'strictEqual' && sa === sb && typeof actual === 'object' && actual !== null) {
        return `Values have same structure but are not reference-equal:\n\n${sa}\n`;
      }
      if (!sa.includes('\n') && !sb.includes('\n') && (operator === 'strictEqual' || typeof actual !== 'object' || actual === null)) {
        return `${head}\n\n${sa} !== ${sb}\n`;
      }
      return `${head}\n+ actual - expected\n${diff(actual, expected)}`;
    }
    case 'deepEqual':
      return `Expected values to be loosely deep-equal:\n\n${show(actual)}\n\nshould loosely deep-equal\n\n${show(expected)}`;
    case 'notDeepStrictEqual':
      return `Expected "actual" not to be strictly deep-equal to:\n\n${show(expected)}\n`;
    case 'notDeepEqual':
      return `Expected "actual" not to be loosely deep-equal to:\n\n${show(expected)}\n`;
    case 'notStrictEqual':
      return `Expected "actual" to be strictly unequal to: ${show(expected)}`;
    case 'fail':
      return 'Failed';
    default:
      return `${showShort(actual)} ${operator} ${showShort(expected)}`;
  }
}

/** Throws an AssertionError; `generated` is the message Node would generate when none is given. */
function fail(actual, expected, message, operator, stackStartFn, generated = undefined) {
  if (message instanceof Error) throw message;
  const err = new AssertionError({ actual, expected, message: message ?? generated, operator, stackStartFn });
  if (message === undefined) err.generatedMessage = true;
  throw err;
}

function ok(...args) {
  innerOk(ok, args);
}
function innerOk(fn, args) {
  if (args.length === 0) {
    throw new AssertionError({ message: 'No value argument passed to `assert.ok()`', actual: undefined, expected: true, operator: '==', stackStartFn: fn });
  }
  const [value, message] = args;
  if (!value) {
    // Node quotes the call's source text here; a sandboxed script's source is not at hand, so
    // the value stands in for the expression.
    if (message instanceof Error) throw message;
    const err = new AssertionError({ actual: value, expected: true, operator: '==', stackStartFn: fn,
      message: message ?? `The expression evaluated to a falsy value:\n\n  assert.ok(${showShort(value)})\n` });
    err.generatedMessage = message === undefined;
    throw err;
  }
}

function checkThrown(thrown, expected, message, fn, operator) {
  if (expected === undefined) return;
  if (typeof expected === 'function') {
    if (expected.prototype !== undefined && thrown instanceof expected) return;
    if (Error.isPrototypeOf(expected) || expected === Error) {
      fail(thrown, expected, message, operator, fn, `The error is expected to be an instance of "${expected.name}". Received "${thrown?.constructor?.name}"\n\nError message:\n\n${thrown?.message}`);
    }
    if (expected.call({}, thrown) === true) return;
    fail(thrown, expected, message, operator, fn, `The ${expected.name ? `"${expected.name}" ` : ''}validation function is expected to return "true". Received ${showShort(expected.call({}, thrown))}\n\nCaught error:\n\n${thrown}`);
  }
  if (expected instanceof RegExp) {
    const str = String(thrown);
    if (expected.test(str)) return;
    fail(thrown, expected, message, operator, fn, `The input did not match the regular expression ${String(expected)}. Input:\n\n${showShort(str)}\n`);
  }
  if (typeof expected === 'object' && expected !== null) {
    const keys = Object.keys(expected);
    if (expected instanceof Error) keys.push('name', 'message');
    for (const k of keys) {
      const want = expected[k];
      const got = thrown?.[k];
      if (want instanceof RegExp && typeof got === 'string') {
        if (!want.test(got)) fail(thrown, expected, message, operator, fn, `The input did not match the regular expression ${String(want)}. Input:\n\n${showShort(got)}\n`);
      } else if (!deepEqual(got, want, true)) {
        const a = {};
        const e = {};
        for (const key of keys) { a[key] = thrown?.[key]; e[key] = expected[key]; }
        fail(thrown, expected, message, operator, fn, `Expected values to be strictly deep-equal:\n+ actual - expected\n${diff(a, e)}`);
      }
    }
    return;
  }
  throw invalidArgType('expected', 'of type function or an instance of Error, RegExp, or Object', expected);
}

function throws(fn, expected, message) {
  if (typeof fn !== 'function') throw invalidArgType('fn', 'of type function', fn);
  if (typeof expected === 'string') { message = expected; expected = undefined; }
  let thrown;
  let threw = false;
  try {
    fn();
  } catch (e) {
    threw = true;
    thrown = e;
  }
  if (!threw) fail(undefined, expected, message ?? `Missing expected exception${expected?.name ? ` (${expected.name})` : ''}.`, 'throws', throws);
  checkThrown(thrown, expected, message, throws, 'throws');
}

async function rejects(promiseFn, expected, message) {
  if (typeof expected === 'string') { message = expected; expected = undefined; }
  let thrown;
  let threw = false;
  try {
    await (typeof promiseFn === 'function' ? promiseFn() : promiseFn);
  } catch (e) {
    threw = true;
    thrown = e;
  }
  if (!threw) fail(undefined, expected, message ?? `Missing expected rejection${expected?.name ? ` (${expected.name})` : ''}.`, 'rejects', rejects);
  checkThrown(thrown, expected, message, rejects, 'rejects');
}

function doesNotThrow(fn, expected, message) {
  if (typeof expected === 'string') { message = expected; expected = undefined; }
  try {
    fn();
  } catch (e) {
    fail(e, expected, `Got unwanted exception${message ? `: ${message}` : '.'}\nActual message: "${e?.message}"`, 'doesNotThrow', doesNotThrow);
  }
}

async function doesNotReject(promiseFn, expected, message) {
  if (typeof expected === 'string') { message = expected; expected = undefined; }
  try {
    await (typeof promiseFn === 'function' ? promiseFn() : promiseFn);
  } catch (e) {
    fail(e, expected, `Got unwanted rejection${message ? `: ${message}` : '.'}\nActual message: "${e?.message}"`, 'doesNotReject', doesNotReject);
  }
}

function match(string, regexp, message) {
  if (!(regexp instanceof RegExp)) throw invalidArgType('regexp', 'an instance of RegExp', regexp);
  if (typeof string !== 'string' || !regexp.test(string)) {
    fail(string, regexp, message, 'match', match, (typeof string !== 'string'
      ? `The "string" argument must be of type string. Received type ${typeof string} (${showShort(string)})`
      : `The input did not match the regular expression ${String(regexp)}. Input:\n\n${showShort(string)}\n`));
  }
}

function doesNotMatch(string, regexp, message) {
  if (!(regexp instanceof RegExp)) throw invalidArgType('regexp', 'an instance of RegExp', regexp);
  if (typeof string !== 'string' || regexp.test(string)) {
    fail(string, regexp, message, 'doesNotMatch', doesNotMatch, (typeof string !== 'string'
      ? `The "string" argument must be of type string. Received type ${typeof string} (${showShort(string)})`
      : `The input was expected to not match the regular expression ${String(regexp)}. Input:\n\n${showShort(string)}\n`));
  }
}

function makeAssert(strict) {
  const assert = strict ? function strict(...args) { innerOk(assert, args); } : function ok(...args) { innerOk(assert, args); };
  const looseEqual = (a, b, message) => {
    // eslint-disable-next-line eqeqeq
    if (!(a == b || (Number.isNaN(a) && Number.isNaN(b)))) fail(a, b, message, '==', looseEqual);
  };
  const looseNotEqual = (a, b, message) => {
    // eslint-disable-next-line eqeqeq
    if (a == b || (Number.isNaN(a) && Number.isNaN(b))) fail(a, b, message, '!=', looseNotEqual);
  };
  const strictEqual = (a, b, message) => { if (!Object.is(a, b)) fail(a, b, message, 'strictEqual', strictEqual); };
  const notStrictEqual = (a, b, message) => { if (Object.is(a, b)) fail(a, b, message, 'notStrictEqual', notStrictEqual); };
  const deepStrictEqual = (a, b, message) => { if (!deepEqual(a, b, true)) fail(a, b, message, 'deepStrictEqual', deepStrictEqual); };
  const notDeepStrictEqual = (a, b, message) => { if (deepEqual(a, b, true)) fail(a, b, message, 'notDeepStrictEqual', notDeepStrictEqual); };
  const looseDeepEqual = (a, b, message) => { if (!deepEqual(a, b, false)) fail(a, b, message, 'deepEqual', looseDeepEqual); };
  const looseNotDeepEqual = (a, b, message) => { if (deepEqual(a, b, false)) fail(a, b, message, 'notDeepEqual', looseNotDeepEqual); };
  Object.assign(assert, {
    ok: assert,
    equal: strict ? strictEqual : looseEqual,
    notEqual: strict ? notStrictEqual : looseNotEqual,
    deepEqual: strict ? deepStrictEqual : looseDeepEqual,
    notDeepEqual: strict ? notDeepStrictEqual : looseNotDeepEqual,
    strictEqual,
    notStrictEqual,
    deepStrictEqual,
    notDeepStrictEqual,
    throws,
    rejects,
    doesNotThrow,
    doesNotReject,
    match,
    doesNotMatch,
    fail(actual = undefined, expected = undefined, message = undefined, operator = undefined) {
      if (arguments.length === 0) fail(undefined, undefined, undefined, 'fail', assert.fail);
      if (arguments.length === 1) fail(undefined, undefined, actual, 'fail', assert.fail);
      fail(actual, expected, message, operator ?? 'fail', assert.fail);
    },
    ifError(value) {
      if (value === null || value === undefined) return;
      let message = 'ifError got unwanted exception: ';
      message += typeof value?.message === 'string' && value.message.length > 0 ? value.message : showShort(value);
      const err = new AssertionError({ actual: value, expected: null, operator: 'ifError', message, stackStartFn: assert.ifError });
      err.generatedMessage = false;
      throw err;
    },
    AssertionError,
  });
  return assert;
}

const assert = makeAssert(false);
const strict = makeAssert(true);
assert.strict = strict;
strict.strict = strict;

export const modules = { assert, 'assert/strict': strict };
export const globals = {};
