// node:assert and node:assert/strict, written for runjs on Node's semantics and message texts
// (deep equality from util/deep-equal.js, AssertionError's messages as Node 24 builds them in
// assert/assertion-error.js), and Node 24's Assert class.
import core from 'runjs:part/core';
import utilPart from 'runjs:part/util';
import { makeAssertionError } from './assert/assertion-error.js';
import { partialDeepStrictEqual as isPartialDeepStrictEqual } from './assert/partial-deep-equal.js';
import { makeCallTracker } from './assert/call-tracker.js';

const { invalidArgType, nodeError } = core.shared;
const { inspect, deepEqual, deprecate, myersDiff, printMyersDiff } = utilPart;

const showShort = (v) => inspect(v);
/** Node's isError: a native error (the engine's brand check where it has one) or an Error instance. */
function isError(v) {
  const engineIsError = globalThis.Error.isError;
  return (typeof engineIsError === 'function' && engineIsError(v)) || v instanceof Error;
}

export const AssertionError = makeAssertionError(inspect, invalidArgType, { myersDiff, printMyersDiff });

/** Throws an AssertionError; `generated` is the message Node would generate when none is given. */
function fail(actual, expected, message, operator, stackStartFn, generated = undefined) {
  if (message instanceof Error) throw message;
  const err = new AssertionError({ actual, expected, message: message ?? generated, operator, stackStartFn });
  if (message === undefined) err.generatedMessage = true;
  throw err;
}

const MAIN_FRAME = /^\s*at (?:.*?\()?file:\/\/\/main\.js:(\d+):(\d+)\)?$/;
const EVAL_FRAME = /^\s*at (?:<eval>|anonymous) \(<input>:/;

/**
 * The source text of the call of `fn` when the main module made it. The first stack frame in
 * main.js is the caller: on V8 `fn` and the frames above it are left out; QuickJS lists the
 * platform's own frames (never main.js) first.
 */
function callSource(fn) {
  const holder = {};
  const limit = Error.stackTraceLimit;
  try {
    Error.stackTraceLimit = 10;
    Error.captureStackTrace(holder, fn);
  } catch {
    return undefined;
  } finally {
    Error.stackTraceLimit = limit;
  }
  const lines = String(holder.stack ?? '').split('\n');
  for (let i = 0; i < lines.length; i++) {
    // QuickJS names eval and `new Function` code `<input>` as it names the platform's parts; their
    // frames (`<eval>`, `anonymous`) mean the call was not made by main.js's own text.
    if (EVAL_FRAME.test(lines[i])) return undefined;
    if (!lines[i].includes('file:///')) continue;
    const m = MAIN_FRAME.exec(lines[i]);
    if (m === null) return undefined;
    try {
      return core.shared.op('run.sourceExpression', [Number(m[1]), Number(m[2])]) ?? undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function ok(...args) {
  innerOk(ok, args);
}
function innerOk(fn, args) {
  const [value, message] = args;
  if (args.length > 0 && value) return;
  let generated = false;
  let text = message;
  if (args.length === 0) {
    generated = true;
    text = 'No value argument passed to `assert.ok()`';
  } else if (message == null) {
    // Node quotes the call's source text; the host reads it from the main module (op
    // run.sourceExpression). A call from elsewhere (a module, eval) shows the value instead.
    generated = true;
    const source = callSource(fn);
    text = `The expression evaluated to a falsy value:\n\n  ${source ?? `assert.ok(${showShort(value)})`}\n`;
  } else if (message instanceof Error) throw message;
  const err = new AssertionError({ actual: value, expected: true, message: text, operator: '==', stackStartFn: fn });
  err.generatedMessage = generated;
  throw err;
}

const missingArgs = () => nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "actual" and "expected" arguments must be specified');

/** What a validation object is compared as (Node's Comparison: its name shows in the diff). */
class Comparison {
  constructor(obj, keys, actual = undefined) {
    for (const key of keys) {
      if (!(key in obj)) continue;
      this[key] = actual !== undefined && typeof actual[key] === 'string' && obj[key] instanceof RegExp && obj[key].test(actual[key]) ? actual[key] : obj[key];
    }
  }
}
Object.defineProperty(Comparison, 'name', { value: 'Comparison' });

function checkThrown(thrown, expected, message, fn, operator) {
  if (expected === undefined) return;
  if (typeof expected === 'function') {
    if (expected.prototype !== undefined && thrown instanceof expected) return;
    // As Node 24 (lib/assert.js expectedException): a subclass of Error names what was thrown —
    // an error by its constructor's name, with its message when it has one; anything else
    // inspected at depth -1. `Error` itself is no subclass of Error: it is called as a
    // validation function, as in Node.
    if (Error.isPrototypeOf(expected)) {
      let text = `The error is expected to be an instance of "${expected.name}". Received `;
      if (isError(thrown)) {
        const name = thrown.constructor?.name || thrown.name;
        text += expected.name === name ? 'an error with identical name but a different prototype.' : `"${name}"`;
        if (thrown.message) text += `\n\nError message:\n\n${thrown.message}`;
      } else {
        text += `"${inspect(thrown, { depth: -1 })}"`;
      }
      fail(thrown, expected, message, operator, fn, text);
    }
    const res = Reflect.apply(expected, {}, [thrown]);
    if (res === true) return;
    fail(thrown, expected, message, operator, fn, `The ${expected.name ? `"${expected.name}" ` : ''}validation function is expected to return "true". Received ${showShort(res)}${isError(thrown) ? `\n\nCaught error:\n\n${thrown}` : ''}`);
  }
  if (expected instanceof RegExp) {
    const str = String(thrown);
    if (expected.test(str)) return;
    fail(thrown, expected, message, operator, fn, `The input did not match the regular expression ${String(expected)}. Input:\n\n${showShort(str)}\n`);
  }
  if (typeof expected === 'object' && expected !== null && (typeof thrown !== 'object' || thrown === null)) {
    // As Node: a primitive (or null) thrown against a validation object fails as a deep-equality
    // diff of the two, reported under the calling function's operator.
    const err = new AssertionError({ actual: thrown, expected, message, operator: 'deepStrictEqual', stackStartFn: fn });
    err.operator = operator;
    throw err;
  }
  if (typeof expected === 'object' && expected !== null) {
    const keys = Object.keys(expected);
    if (expected instanceof Error) keys.push('name', 'message');
    else if (keys.length === 0) throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'error' may not be an empty object. Received ${inspect(expected)}`);
    for (const k of keys) {
      const want = expected[k];
      const got = thrown?.[k];
      if (want instanceof RegExp && typeof got === 'string' && want.test(got)) continue;
      // As Node: a key the error lacks fails even when expected as undefined, and a RegExp that
      // does not match shows in the Comparison diff like any other key.
      if (!(k in thrown) || !deepEqual(got, want, true)) {
        const err = new AssertionError({ actual: new Comparison(thrown, keys), expected: new Comparison(expected, keys, thrown), operator: 'deepStrictEqual', stackStartFn: fn });
        err.actual = thrown;
        err.expected = expected;
        err.operator = operator;
        if (message !== undefined) { err.message = message; err.generatedMessage = false; }
        throw err;
      }
    }
    return;
  }
  throw invalidArgType('expected', 'of type function or an instance of Error, RegExp, or Object', expected);
}

/** Node's expectsError: a string second argument is the message (unless it is the error's own). */
function expectsError(stackStartFn, actual, threw, error, message, argCount) {
  if (typeof error === 'string') {
    if (argCount === 3) throw invalidArgType('error', 'of type function or an instance of Error, RegExp, or Object', error);
    if (threw && typeof actual === 'object' && actual !== null) {
      if (actual.message === error) throw nodeError(TypeError, 'ERR_AMBIGUOUS_ARGUMENT', `The "error/message" argument is ambiguous. The error message "${actual.message}" is identical to the message.`);
    } else if (threw && actual === error) {
      throw nodeError(TypeError, 'ERR_AMBIGUOUS_ARGUMENT', `The "error/message" argument is ambiguous. The error "${actual}" is identical to the message.`);
    }
    message = error;
    error = undefined;
  } else if (error != null && typeof error !== 'object' && typeof error !== 'function') {
    throw invalidArgType('error', 'of type function or an instance of Error, RegExp, or Object', error);
  }
  const operator = stackStartFn === rejects ? 'rejects' : 'throws';
  if (!threw) {
    let details = error?.name ? ` (${error.name})` : '';
    details += message ? `: ${message}` : '.';
    if (message instanceof Error) throw message;
    throw new AssertionError({ actual: undefined, expected: error, operator, message: `Missing expected ${operator === 'rejects' ? 'rejection' : 'exception'}${details}`, stackStartFn });
  }
  checkThrown(actual, error, message, stackStartFn, operator);
}

function throws(fn, ...args) {
  if (typeof fn !== 'function') throw invalidArgType('fn', 'of type function', fn);
  let thrown;
  let threw = false;
  try {
    fn();
  } catch (e) {
    threw = true;
    thrown = e;
  }
  expectsError(throws, thrown, threw, args[0], args[1], args.length + 1);
}

/**
 * Node's waitForActual: the promise `promiseFn` is or returns, awaited; what it rejected with, or
 * `threw: false`. A synchronous throw of `promiseFn` propagates (the caller's promise rejects with
 * it, unvalidated), as in Node.
 */
async function waitForActual(promiseFn) {
  let promise;
  if (typeof promiseFn === 'function') {
    promise = promiseFn();
    if (!isPromiseLike(promise)) throw nodeError(TypeError, 'ERR_INVALID_RETURN_VALUE', `Expected instance of Promise to be returned from the "promiseFn" function but got ${describeReturn(promise)}.`);
  } else if (isPromiseLike(promiseFn)) promise = promiseFn;
  else throw invalidArgType('promiseFn', 'of type function or an instance of Promise', promiseFn);
  try {
    await promise;
  } catch (e) {
    return { threw: true, thrown: e };
  }
  return { threw: false, thrown: undefined };
}

async function rejects(promiseFn, ...args) {
  const { threw, thrown } = await waitForActual(promiseFn);
  expectsError(rejects, thrown, threw, args[0], args[1], args.length + 1);
}

function isPromiseLike(v) {
  return v instanceof Promise || (v !== null && typeof v === 'object' && typeof v.then === 'function' && typeof v.catch === 'function');
}
/** As Node's ERR_INVALID_RETURN_VALUE shows the value: its ERR_INVALID_ARG_TYPE "Received …" text. */
const describeReturn = (v) => core.shared.describeType(v);

/**
 * Node's hasMatchingError: whether `expected` (a class, a validation function or a RegExp) matches
 * what was thrown; only then do doesNotThrow/doesNotReject report it, else they rethrow it.
 */
function hasMatchingError(actual, expected) {
  if (typeof expected !== 'function') {
    if (expected instanceof RegExp) return expected.test(String(actual));
    throw invalidArgType('expected', 'of type function or an instance of RegExp', expected);
  }
  if (expected.prototype !== undefined && actual instanceof expected) return true;
  if (Error.isPrototypeOf(expected)) return false;
  return Reflect.apply(expected, {}, [actual]) === true;
}

/** Node's expectsNoError, shared by doesNotThrow and doesNotReject. */
function expectsNoError(stackStartFn, actual, expected, message) {
  if (typeof expected === 'string') { message = expected; expected = undefined; }
  if (!expected || hasMatchingError(actual, expected)) {
    const kind = stackStartFn === doesNotReject ? 'rejection' : 'exception';
    fail(actual, expected, `Got unwanted ${kind}${message ? `: ${message}` : '.'}\nActual message: "${actual?.message}"`, stackStartFn.name, stackStartFn);
  }
  throw actual;
}

function doesNotThrow(fn, expected, message) {
  if (typeof fn !== 'function') throw invalidArgType('fn', 'of type function', fn);
  try {
    fn();
  } catch (e) {
    expectsNoError(doesNotThrow, e, expected, message);
  }
}

async function doesNotReject(promiseFn, expected, message) {
  const { threw, thrown } = await waitForActual(promiseFn);
  if (threw) expectsNoError(doesNotReject, thrown, expected, message);
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

/** assert.fail's DEP0094 warning is given once per realm (Node: per process). */
const failWarned = { done: false };

/** The options of each Assert instance (Node 24's Assert class, below). */
const assertOptionsOf = new WeakMap();
const skipsPrototype = (self) => (self !== null && typeof self === 'object' && assertOptionsOf.get(self)?.skipPrototype === true);

function makeAssert(strict) {
  const assert = strict ? function strict(...args) { innerOk(assert, args); } : function ok(...args) { innerOk(assert, args); };
  // As Node: each comparison needs both values (`ERR_MISSING_ARGS` when given fewer than two).
  const looseEqual = function equal(a, b, message) {
    if (arguments.length < 2) throw missingArgs();
    // eslint-disable-next-line eqeqeq
    if (!(a == b || (Number.isNaN(a) && Number.isNaN(b)))) fail(a, b, message, '==', looseEqual);
  };
  const looseNotEqual = function notEqual(a, b, message) {
    if (arguments.length < 2) throw missingArgs();
    // eslint-disable-next-line eqeqeq
    if (a == b || (Number.isNaN(a) && Number.isNaN(b))) fail(a, b, message, '!=', looseNotEqual);
  };
  const strictEqual = function strictEqual(a, b, message) {
    if (arguments.length < 2) throw missingArgs();
    if (!Object.is(a, b)) fail(a, b, message, 'strictEqual', strictEqual);
  };
  const notStrictEqual = function notStrictEqual(a, b, message) {
    if (arguments.length < 2) throw missingArgs();
    if (Object.is(a, b)) fail(a, b, message, 'notStrictEqual', notStrictEqual);
  };
  // Called on an Assert instance, these honour its skipPrototype option (Node 24).
  const deepStrictEqual = function deepStrictEqual(a, b, message) {
    if (arguments.length < 2) throw missingArgs();
    if (!deepEqual(a, b, true, undefined, skipsPrototype(this))) fail(a, b, message, 'deepStrictEqual', deepStrictEqual);
  };
  const notDeepStrictEqual = function notDeepStrictEqual(a, b, message) {
    if (arguments.length < 2) throw missingArgs();
    if (deepEqual(a, b, true, undefined, skipsPrototype(this))) fail(a, b, message, 'notDeepStrictEqual', notDeepStrictEqual);
  };
  const looseDeepEqual = function deepEqual_(a, b, message) {
    if (arguments.length < 2) throw missingArgs();
    if (!deepEqual(a, b, false)) fail(a, b, message, 'deepEqual', looseDeepEqual);
  };
  const looseNotDeepEqual = function notDeepEqual(a, b, message) {
    if (arguments.length < 2) throw missingArgs();
    if (deepEqual(a, b, false)) fail(a, b, message, 'notDeepEqual', looseNotDeepEqual);
  };
  // (Named apart from the deepEqual it calls.)
  Object.defineProperty(looseDeepEqual, 'name', { value: 'deepEqual' });
  const partialDeepStrictEqual = function partialDeepStrictEqual(a, b, message) {
    if (arguments.length < 2) throw missingArgs();
    if (!isPartialDeepStrictEqual(a, b)) fail(a, b, message, 'partialDeepStrictEqual', partialDeepStrictEqual);
  };
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
    partialDeepStrictEqual,
    throws,
    rejects,
    doesNotThrow,
    doesNotReject,
    match,
    doesNotMatch,
    fail(actual = undefined, expected = undefined, message = undefined, operator = undefined, stackStartFn = undefined) {
      if (arguments.length === 0 || (arguments.length === 1 && actual == null)) fail(undefined, undefined, undefined, 'fail', assert.fail, 'Failed');
      if (arguments.length === 1) fail(undefined, undefined, actual, 'fail', assert.fail);
      // As Node 24: more than one argument is deprecated (DEP0094, once), and two mean `!=`.
      if (!failWarned.done) {
        failWarned.done = true;
        process.emitWarning('assert.fail() with more than one argument is deprecated. Please use assert.strictEqual() instead or only pass a message.', 'DeprecationWarning', 'DEP0094');
      }
      fail(actual, expected, message, operator ?? (arguments.length === 2 ? '!=' : 'fail'), stackStartFn || assert.fail);
    },
    ifError(value) {
      if (value === null || value === undefined) return;
      let message = 'ifError got unwanted exception: ';
      // Node 24: an object's string message, or its constructor's name when that message is empty
      // (`new TypeError()` reads `TypeError`, `{ constructor: null, message: '' }` nothing), else
      // the value inspected.
      if (typeof value === 'object' && typeof value.message === 'string') message += value.message.length === 0 && value.constructor ? value.constructor.name : value.message;
      else message += showShort(value);
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

/**
 * Node 24's Assert class. As there, its methods are the module's own functions
 * (`new Assert().strictEqual === assert.strictEqual`), a strict instance (the default) gets own
 * `equal`/`deepEqual`/`notEqual`/`notDeepEqual` that are the strict ones, `options` is read, not
 * type-checked (`diff` must be 'simple' or 'full'), and `skipPrototype` makes its deep strict
 * comparisons ignore prototypes. runjs's diff is always the 'simple' one.
 */
const METHODS = ['fail', 'ok', 'equal', 'notEqual', 'deepEqual', 'notDeepEqual', 'deepStrictEqual', 'notDeepStrictEqual', 'strictEqual', 'notStrictEqual',
  'partialDeepStrictEqual', 'throws', 'rejects', 'doesNotThrow', 'doesNotReject', 'ifError', 'match', 'doesNotMatch'];
class Assert {
  constructor(options = {}) {
    const opts = options ?? {};
    const diff = opts.diff;
    if (diff !== undefined && diff !== 'simple' && diff !== 'full') throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The property 'options.diff' must be one of: 'simple', 'full'. Received ${inspect(diff)}`);
    assertOptionsOf.set(this, { skipPrototype: opts.skipPrototype === true, diff: diff ?? 'simple' });
    this.AssertionError = AssertionError;
    if (opts.strict !== false) {
      this.equal = assert.strictEqual;
      this.deepEqual = assert.deepStrictEqual;
      this.notEqual = assert.notStrictEqual;
      this.notDeepEqual = assert.notDeepStrictEqual;
    }
  }
}
for (const name of METHODS) Object.defineProperty(Assert.prototype, name, { value: assert[name], writable: true, configurable: true });
Object.defineProperty(Assert, 'name', { value: 'Assert' });
// As Node: assert/strict's methods are assert's (strict.equal is assert.strictEqual).
for (const name of METHODS) if (name !== 'ok') strict[name] = assert[name];
for (const [loose, strictName] of [['equal', 'strictEqual'], ['notEqual', 'notStrictEqual'], ['deepEqual', 'deepStrictEqual'], ['notDeepEqual', 'notDeepStrictEqual']]) strict[loose] = assert[strictName];
assert.Assert = Assert;
strict.Assert = Assert;
assert.CallTracker = deprecate(makeCallTracker(AssertionError, inspect), 'assert.CallTracker is deprecated.', 'DEP0173');
strict.CallTracker = assert.CallTracker;

export const modules = { assert, 'assert/strict': strict };
export const globals = {};
