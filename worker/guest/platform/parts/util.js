// node:util: inspect/format from node-inspect-extracted (Node's own util.inspect, extracted), and
// the rest written here: promisify, callbackify, types, isDeepStrictEqual, deprecate, inherits…
import inspectLib from 'node-inspect-extracted';
import core from 'runjs:part/core';
import { types } from './util/types.js';
import { isDeepStrictEqual, deepEqual } from './util/deep-equal.js';
import { MIMEType, MIMEParams } from './util/mime.js';
import { SYSTEM_ERRORS } from './util/system-errors.js';
import * as extras from './util/extras.js';
import { myersDiff, printMyersDiff } from './util/myers-diff.js';

const { nodeError, invalidArgType, outOfRange } = core.shared;
const { inspect, format, formatWithOptions, stripVTControlCharacters } = inspectLib;

const kCustomPromisify = Symbol.for('nodejs.util.promisify.custom');

function promisify(original) {
  if (typeof original !== 'function') throw invalidArgType('original', 'of type function', original);
  // The globals of the prelude cannot carry promisify.custom: theirs is timers/promises'.
  if (original === core.globals.setTimeout || original === core.globals.setImmediate) {
    const promises = core.host.require('timers/promises');
    return original === core.globals.setTimeout ? promises.setTimeout : promises.setImmediate;
  }
  const custom = original[kCustomPromisify];
  if (custom !== undefined) {
    if (typeof custom !== 'function') throw invalidArgType('util.promisify.custom', 'of type function', custom);
    return Object.defineProperty(custom, kCustomPromisify, { value: custom, enumerable: false, writable: false, configurable: true });
  }
  function fn(...args) {
    return new Promise((resolve, reject) => {
      original.call(this, ...args, (err, ...values) => {
        if (err) reject(err);
        else resolve(values.length > 1 ? values : values[0]);
      });
    });
  }
  Object.setPrototypeOf(fn, Object.getPrototypeOf(original));
  Object.defineProperty(fn, kCustomPromisify, { value: fn, enumerable: false, writable: false, configurable: true });
  return Object.defineProperties(fn, Object.getOwnPropertyDescriptors(original));
}
promisify.custom = kCustomPromisify;

function callbackify(original) {
  if (typeof original !== 'function') throw invalidArgType('original', 'of type function', original);
  function callbackified(...args) {
    const cb = args.pop();
    if (typeof cb !== 'function') throw invalidArgType('last argument', 'of type function', cb);
    Promise.resolve(original.apply(this, args)).then(
      (value) => queueMicrotask(() => cb(null, value)),
      (reason) => {
        let err = reason;
        if (!reason) {
          err = nodeError(Error, 'ERR_FALSY_VALUE_REJECTION', 'Promise was rejected with falsy value');
          err.reason = reason;
        }
        queueMicrotask(() => cb(err));
      },
    );
  }
  Object.defineProperties(callbackified, Object.getOwnPropertyDescriptors(original));
  return callbackified;
}

function inherits(ctor, superCtor) {
  if (ctor === undefined || ctor === null) throw invalidArgType('ctor', 'of type function', ctor);
  if (superCtor === undefined || superCtor === null) throw invalidArgType('superCtor', 'of type function', superCtor);
  if (superCtor.prototype === undefined) throw invalidArgType('superCtor.prototype', 'of type object', superCtor.prototype);
  Object.defineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true });
  Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
}

const warned = new Set();
function deprecate(fn, msg, code = undefined) {
  if (code !== undefined && typeof code !== 'string') throw invalidArgType('code', 'of type string', code);
  function deprecated(...args) {
    const key = code ?? msg;
    if (!warned.has(key)) {
      warned.add(key);
      process.emitWarning(msg, 'DeprecationWarning', code, deprecated);
    }
    return new.target ? Reflect.construct(fn, args, new.target) : fn.apply(this, args);
  }
  Object.setPrototypeOf(deprecated, fn);
  // As Node: a deprecated class keeps its prototype, so `new` makes instances of the original.
  if (fn.prototype) deprecated.prototype = fn.prototype;
  return deprecated;
}

function debuglog() {
  const log = () => {};
  log.enabled = false;
  return log;
}

const STYLES = inspect.colors;
/**
 * parseArgs: computed by the host's node:util (op util.parseArgs). The default `args` are
 * process.argv's after the script name: none in runjs.
 */
function parseArgs(config = {}) {
  if (config === null || typeof config !== 'object') throw invalidArgType('config', 'of type object', config);
  const sent = { ...config, args: config.args ?? core.process.argv.slice(2) };
  const result = core.host.op('util.parseArgs', sent);
  const out = { values: Object.assign(Object.create(null), result.values), positionals: result.positionals };
  if (result.tokens !== undefined) {
    out.tokens = result.tokens.map((t) => (t.kind === 'option'
      ? { kind: t.kind, name: t.name, rawName: t.rawName, index: t.index, value: t.value, inlineValue: t.inlineValue }
      : t.kind === 'positional' ? { kind: t.kind, index: t.index, value: t.value } : { kind: t.kind, index: t.index }));
  }
  return out;
}

/** As Node 24: the first format is the outermost; the text must be a string. */
function styleText(format, text) {
  if (typeof text !== 'string') throw invalidArgType('text', 'of type string', text);
  const list = Array.isArray(format) ? format : [format];
  let left = '';
  let right = '';
  for (const f of list) {
    const codes = STYLES[f];
    if (codes === undefined) throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'format' must be one of: ${Object.getOwnPropertyNames(STYLES).map((k) => `'${k}'`).join(', ')}. Received ${inspect(f)}`);
    left += `\u001b[${codes[0]}m`;
    right = `\u001b[${codes[1]}m${right}`;
  }
  return `${left}${text}${right}`;
}

function toUSVString(s) {
  return String(s).toWellFormed?.() ?? String(s);
}

function aborted(signal, resource) {
  if (signal.aborted) return Promise.resolve();
  void resource;
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

function checkErrno(err) {
  if (typeof err !== 'number') throw invalidArgType('err', 'of type number', err);
  if (err >= 0 || !Number.isSafeInteger(err)) throw outOfRange('err', 'a negative integer', err);
}
let systemErrors;
function getSystemErrorMap() {
  systemErrors ??= new Map(SYSTEM_ERRORS.map(([errno, name, message]) => [errno, [name, message]]));
  return new Map(systemErrors);
}
function getSystemErrorName(err) {
  checkErrno(err);
  return getSystemErrorMap().get(err)?.[0] ?? `Unknown system error ${err}`;
}
function getSystemErrorMessage(err) {
  checkErrno(err);
  return getSystemErrorMap().get(err)?.[1] ?? `Unknown system error ${err}`;
}

/** Node's deprecated util._extend (DEP0060). */
const extend = deprecate(function _extend(target, source) {
  if (source === null || typeof source !== 'object') return target;
  const keys = Object.keys(source);
  for (let i = keys.length - 1; i >= 0; i--) target[keys[i]] = source[keys[i]];
  return target;
}, 'The `util._extend` API is deprecated. Please use Object.assign() instead.', 'DEP0060');

const util = {
  format,
  formatWithOptions,
  inspect,
  promisify,
  callbackify,
  inherits,
  deprecate,
  debuglog,
  debug: debuglog,
  types,
  isDeepStrictEqual,
  stripVTControlCharacters,
  styleText,
  parseArgs,
  MIMEType,
  MIMEParams,
  toUSVString,
  aborted,
  getSystemErrorName,
  getSystemErrorMap,
  getSystemErrorMessage,
  _extend: extend,
  diff: extras.diff,
  parseEnv: extras.parseEnv,
  getCallSites: extras.getCallSites,
  transferableAbortController: extras.transferableAbortController,
  transferableAbortSignal: extras.transferableAbortSignal,
  setTraceSigInt: extras.setTraceSigInt,
  convertProcessSignalToExitCode: extras.convertProcessSignalToExitCode,
  ...extras.makeErrnoHelpers(getSystemErrorName),
  TextEncoder: core.globals.TextEncoder,
  TextDecoder: core.globals.TextDecoder,
  // Node 23 removed the other legacy is* helpers (DEP0044–DEP0058 reached end of life).
  isArray: Array.isArray,
};

export const modules = { util, 'util/types': types };
export const globals = {};
// myersDiff/printMyersDiff: for the assert part's failure messages (one copy of the diff in the bundle).
export { inspect, format, isDeepStrictEqual, deepEqual, deprecate, myersDiff, printMyersDiff };
