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
// node-inspect-extracted follows a newer Node that highlights a RegExp's parts; Node 24 shows it
// in plain red (inspect.styles.regexp === 'red').
inspect.styles.regexp = 'red';

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

/** Deprecation codes already warned about in this realm (Node: per process). */
const codesWarned = new Set();
/**
 * As Node 24: a wrapper warns on its first call — once per function, or once per `code` across
 * every function deprecated with it —, unless process.noDeprecation; it keeps fn's prototype
 * chain, `prototype` and `length`.
 */
function deprecate(fn, msg, code = undefined) {
  if (code !== undefined && typeof code !== 'string') throw invalidArgType('code', 'of type string', code);
  let warned = false;
  function deprecated(...args) {
    if (!warned && !process.noDeprecation) {
      warned = true;
      if (code === undefined || !codesWarned.has(code)) {
        if (code !== undefined) codesWarned.add(code);
        process.emitWarning(msg, 'DeprecationWarning', code, deprecated);
      }
    }
    return new.target ? Reflect.construct(fn, args, new.target) : fn.apply(this, args);
  }
  Object.setPrototypeOf(deprecated, fn);
  // As Node: a deprecated class keeps its prototype, so `new` makes instances of the original.
  if (fn.prototype) deprecated.prototype = fn.prototype;
  Object.defineProperty(deprecated, 'length', { __proto__: null, ...Object.getOwnPropertyDescriptor(fn, 'length') });
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

/** Node's isNodeStream, or a web ReadableStream/WritableStream: what styleText may check. */
function isStreamLike(s) {
  if (s === null || typeof s !== 'object') return false;
  if (s._readableState || s._writableState || (typeof s.on === 'function' && (typeof s.write === 'function' || typeof s.pipe === 'function'))) return true;
  return (typeof s.getReader === 'function' && typeof s.pipeThrough === 'function') || (typeof s.getWriter === 'function' && typeof s.abort === 'function');
}

/** Node's shouldColorize: FORCE_COLOR decides if set ('', '1', '2', '3', 'true' colour), else the stream's isTTY. */
function shouldColorize(stream) {
  const force = core.process.env.FORCE_COLOR;
  if (force !== undefined) return ['', '1', '2', '3', 'true'].includes(force);
  return stream?.isTTY === true && (typeof stream.getColorDepth === 'function' ? stream.getColorDepth() > 2 : true);
}

/**
 * Inside styled text, a close code the outer style shares (an inner `red` ending `\x1b[39m` in a
 * `blue` text) would end the outer style too: as Node 24, each such close code that is not at the
 * text's end reopens the outer style — replaced by its open code, or followed by it for code 22,
 * which closes both bold and dim.
 */
function reopenAfterClose(text, close, open, keepClose) {
  let out = '';
  let last = 0;
  let i = text.indexOf(close);
  while (i !== -1) {
    const after = i + close.length;
    if (after < text.length) {
      out += text.slice(last, i) + (keepClose ? close + open : open);
      last = after;
    }
    i = text.indexOf(close, after);
  }
  return out + text.slice(last);
}

/**
 * As Node 24: formats apply outermost-first, 'none' adds nothing, and with `validateStream`
 * (the default) the text is styled only when `stream` (default process.stdout, which in runjs is
 * no TTY) would show colours — FORCE_COLOR overrides, as in Node.
 */
function styleText(format, text, options = undefined) {
  if (typeof text !== 'string') throw invalidArgType('text', 'of type string', text);
  if (options !== undefined && (options === null || typeof options !== 'object' || Array.isArray(options))) throw invalidArgType('options', 'of type object', options);
  const validateStream = options?.validateStream ?? true;
  const stream = options?.stream ?? core.process.stdout;
  if (typeof validateStream !== 'boolean') throw invalidArgType('options.validateStream', 'of type boolean', validateStream);
  let skipColorize = false;
  if (validateStream) {
    if (!isStreamLike(stream)) throw invalidArgType('stream', 'an instance of ReadableStream, WritableStream, or Stream', stream);
    skipColorize = !shouldColorize(stream);
  }
  const list = Array.isArray(format) ? format : [format];
  let left = '';
  let right = '';
  let inner = text;
  for (const f of list) {
    if (f === 'none') continue;
    const codes = STYLES[f];
    if (codes == null) throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'format' must be one of: ${Object.getOwnPropertyNames(STYLES).map((k) => `'${k}'`).join(', ')}. Received ${inspect(f)}`);
    if (skipColorize) continue;
    const open = `\u001b[${codes[0]}m`;
    const close = `\u001b[${codes[1]}m`;
    inner = reopenAfterClose(inner, close, open, codes[1] === 22);
    left += open;
    right = close + right;
  }
  return skipColorize ? text : `${left}${inner}${right}`;
}

function toUSVString(s) {
  return String(s).toWellFormed?.() ?? String(s);
}

/** As Node 24 (an async function: bad arguments reject), with its odd text for a non-signal. */
async function aborted(signal, resource) {
  if (!(signal instanceof core.globals.AbortSignal)) throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'signal is not of type AbortSignal.');
  if (resource === null || (typeof resource !== 'object' && typeof resource !== 'function')) throw invalidArgType('resource', 'of type object', resource);
  if (signal.aborted) return undefined;
  // As Node: resolves with the abort event (its addAbortListener hands the event on).
  return new Promise((resolve) => signal.addEventListener('abort', (event) => resolve(event), { once: true }));
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
