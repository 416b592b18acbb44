// The newer and the underscore-prefixed parts of node:util, to Node 24's behaviour: diff (assert's
// Myers diff), parseEnv (Node's .env grammar), getCallSites (from the engine's stack text),
// transferableAbortController/Signal, setTraceSigInt, convertProcessSignalToExitCode and the
// errno helpers _errnoException/_exceptionWithHostPort.
import core from 'runjs:part/core';
import { myersDiff } from './myers-diff.js';

const { invalidArgType, nodeError, outOfRange } = core.shared;

function checkDiffSide(v, name) {
  if (typeof v === 'string') return v.split('');
  if (!Array.isArray(v)) throw invalidArgType(name, 'of type string', v);
  for (let i = 0; i < v.length; i++) if (typeof v[i] !== 'string') throw invalidArgType(`${name}[${i}]`, 'of type string', v[i]);
  return v;
}

/** `[op, value]` entries from actual to expected: 1 only in actual, -1 only in expected, 0 both. */
export function diff(actual, expected) {
  if (actual === expected) return [];
  const a = checkDiffSide(actual, 'actual');
  const e = checkDiffSide(expected, 'expected');
  return myersDiff(a, e).reverse();
}

const SPACE = ' \t\n\r\f\v';
function trim(s) {
  let i = 0;
  let j = s.length;
  while (i < j && SPACE.includes(s[i])) i++;
  while (j > i && SPACE.includes(s[j - 1])) j--;
  return s.slice(i, j);
}

/** Node's dotenv grammar (src/node_dotenv.cc): the keys come back sorted, as Node's std::map. */
export function parseEnv(content) {
  if (typeof content !== 'string') throw invalidArgType('content', 'of type string', content);
  const store = new Map();
  let rest = trim(content.replaceAll('\r', ''));
  const skipLine = (from = 0) => {
    const nl = rest.indexOf('\n', from);
    rest = nl === -1 ? '' : rest.slice(nl + 1);
  };
  while (rest !== '') {
    if (rest[0] === '\n' || rest[0] === '#') { skipLine(); continue; }
    const eq = rest.search(/[=\n]/);
    if (eq === -1 || rest[eq] === '\n') { skipLine(); rest = trim(rest); continue; }
    let key = trim(rest.slice(0, eq));
    rest = rest.slice(eq + 1);
    if (rest === '' || rest[0] === '\n') { store.set(key, ''); continue; }
    rest = trim(rest);
    if (key === '') { skipLine(); rest = trim(rest); continue; }
    if (key.startsWith('export ')) key = trim(key.slice(7));
    if (rest === '') { store.set(key, ''); continue; }
    const q = rest[0];
    if (q === '"' || q === "'" || q === '`') {
      const close = rest.indexOf(q, 1);
      if (close !== -1) {
        const value = rest.slice(1, close);
        store.set(key, q === '"' ? value.replaceAll('\\n', '\n') : value);
        skipLine(close + 1);
        continue;
      }
    }
    const nl = rest.indexOf('\n');
    let value = nl === -1 ? rest : rest.slice(0, nl);
    const hash = value.indexOf('#');
    if (hash !== -1) value = value.slice(0, hash);
    store.set(key, trim(value));
    rest = nl === -1 ? '' : trim(rest.slice(nl + 1));
  }
  const out = {};
  for (const k of [...store.keys()].sort()) out[k] = store.get(k);
  return out;
}

// `    at fn (file:line:col)` or `    at file:line:col` (V8); QuickJS writes the same shape.
const FRAME = /^\s*at (?:(.*?) \()?(.*?):(\d+):(\d+)\)?$/;

/**
 * Node's getCallSites from the stack text: the engine gives no script ids, so scriptId is the
 * script name's index among those seen in this call ("0" for the first), as a string like Node's.
 */
export function getCallSites(frameCount = 10, options = undefined) {
  if (typeof frameCount === 'object' && frameCount !== null && options === undefined) {
    options = frameCount;
    frameCount = 10;
  }
  if (options !== undefined) {
    if (typeof options !== 'object' || options === null) throw invalidArgType('options', 'of type object', options);
    if (options.sourceMap !== undefined && typeof options.sourceMap !== 'boolean') throw invalidArgType('options.sourceMap', 'of type boolean', options.sourceMap);
  }
  if (typeof frameCount !== 'number') throw invalidArgType('frameCount', 'of type number', frameCount);
  if (!Number.isInteger(frameCount)) throw outOfRange('frameCount', 'an integer', frameCount);
  if (frameCount < 1 || frameCount > 200) throw outOfRange('frameCount', '>= 1 && <= 200', frameCount);
  const holder = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = frameCount + 1;
  try {
    if (typeof Error.captureStackTrace === 'function') Error.captureStackTrace(holder, getCallSites);
    else holder.stack = new Error().stack;
  } finally {
    Error.stackTraceLimit = limit;
  }
  const ids = [];
  const sites = [];
  for (const line of String(holder.stack ?? '').split('\n')) {
    const m = FRAME.exec(line);
    if (m === null) continue;
    const scriptName = m[2];
    if (!ids.includes(scriptName)) ids.push(scriptName);
    const lineNumber = Number(m[3]);
    const column = Number(m[4]);
    sites.push({ functionName: m[1] ?? '', scriptId: String(ids.indexOf(scriptName)), scriptName, lineNumber, columnNumber: column, column });
    if (sites.length === frameCount) break;
  }
  return sites;
}

export function transferableAbortSignal(signal) {
  if (!(signal instanceof core.globals.AbortSignal)) throw invalidArgType('signal', 'an instance of AbortSignal', signal);
  return signal;
}

export function transferableAbortController() {
  return new core.globals.AbortController();
}

/** No SIGINT reaches a runjs script, so there is nothing to trace. */
export function setTraceSigInt() {}

export function convertProcessSignalToExitCode(signalCode) {
  const { signals } = core.host.require('os').constants;
  if (typeof signalCode !== 'string' || !Object.hasOwn(signals, signalCode)) {
    const shown = typeof signalCode === 'string' ? `'${signalCode}'` : String(signalCode);
    throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'signalCode' must be one of: ${Object.keys(signals).map((s) => `'${s}'`).join(', ')}. Received ${shown}`);
  }
  return 128 + signals[signalCode];
}

/** Node's ErrnoException: `<syscall> <CODE>[ <original>]` with errno, code and syscall. */
export function makeErrnoHelpers(getSystemErrorName) {
  function _errnoException(err, syscall, original) {
    const code = getSystemErrorName(err);
    const e = new Error(original ? `${syscall} ${code} ${original}` : `${syscall} ${code}`);
    e.errno = err;
    e.code = code;
    e.syscall = syscall;
    return e;
  }
  function _exceptionWithHostPort(err, syscall, address, port, additional) {
    const code = getSystemErrorName(err);
    let details = '';
    if (port && port > 0) details = ` ${address}:${port}`;
    else if (address) details = ` ${address}`;
    if (additional) details += ` - Local (${additional})`;
    const e = new Error(`${syscall} ${code}${details}`);
    e.errno = err;
    e.code = code;
    e.syscall = syscall;
    e.address = address;
    if (port) e.port = port;
    return e;
  }
  return { _errnoException, _exceptionWithHostPort };
}
