// `process` (global and node:process): a Node-shaped process with fixed, documented values. There
// is no real process behind it: env is empty, the working directory is "/", exit() throws, and
// stdout/stderr write to the run's console output as they are (no prefix, no newline added).
import { op } from './host.js';
import { nodeError, invalidArgType } from './errors.js';
import { queueMicrotask } from './microtask.js';
import { VERSION } from './navigator.js';
import { TextDecoder } from './encoding.js';
import { timeOrigin } from './clock.js';
import { installProcessEvents } from './process-events.js';
import { queueTick } from './next-tick.js';

const NODE_VERSION = '24.0.0';

function hostNow() {
  return op('clock.now');
}

function writer(fd) {
  return {
    fd,
    isTTY: false,
    columns: 80,
    rows: 24,
    writable: true,
    write(chunk, encoding, callback) {
      const text = typeof chunk === 'string' ? chunk : chunkText(chunk);
      op('console.write', text);
      const cb = typeof encoding === 'function' ? encoding : callback;
      if (typeof cb === 'function') queueMicrotask(() => cb(null));
      return true;
    },
    end(chunk, encoding, callback) {
      if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') this.write(chunk, encoding);
      const cb = [chunk, encoding, callback].find((x) => typeof x === 'function');
      if (cb !== undefined) queueMicrotask(() => cb());
    },
    on() { return this; },
    once() { return this; },
    off() { return this; },
    removeListener() { return this; },
    emit() { return false; },
    getWindowSize() { return [80, 24]; },
    hasColors() { return false; },
    getColorDepth() { return 1; },
  };
}

let decoder;
function chunkText(chunk) {
  if (ArrayBuffer.isView(chunk)) {
    decoder ??= new TextDecoder();
    return decoder.decode(chunk);
  }
  return String(chunk);
}

function unsupported(what) {
  return nodeError(Error, 'ERR_UNSUPPORTED_OPERATION', `${what} is not supported in runjs`);
}

const listeners = new Map();

function hrtime(previous = undefined) {
  const ms = hostNow();
  let sec = Math.floor(ms / 1000);
  let nsec = Math.round((ms - sec * 1000) * 1e6);
  if (nsec >= 1e9) { sec += 1; nsec -= 1e9; }
  if (previous !== undefined) {
    if (!Array.isArray(previous) || previous.length !== 2) {
      throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "time" argument must be an instance of Array.');
    }
    sec -= previous[0];
    nsec -= previous[1];
    if (nsec < 0) { sec -= 1; nsec += 1e9; }
  }
  return [sec, nsec];
}
hrtime.bigint = function bigint() {
  const ms = hostNow();
  return BigInt(Math.floor(ms)) * 1000000n + BigInt(Math.round((ms % 1) * 1e6));
};


/** process.env: values are strings, as in Node (`process.env.N = 1` stores "1"). */
function newEnv() {
  return new Proxy({}, {
    set(target, key, value) {
      target[key] = typeof key === 'symbol' ? value : String(value);
      return true;
    },
    defineProperty(target, key, descriptor) {
      if (typeof key !== 'symbol' && 'value' in descriptor) {
        return Reflect.defineProperty(target, key, { value: String(descriptor.value), writable: true, enumerable: true, configurable: true });
      }
      return Reflect.defineProperty(target, key, descriptor);
    },
  });
}

export const process = {
  title: 'runjs',
  version: `v${NODE_VERSION}`,
  versions: { node: NODE_VERSION, runjs: VERSION },
  arch: 'x64',
  platform: 'linux',
  release: { name: 'node' },
  argv: ['/usr/local/bin/node', '/main.js'],
  argv0: 'node',
  execArgv: [],
  execPath: '/usr/local/bin/node',
  env: newEnv(),
  pid: 1,
  ppid: 0,
  exitCode: undefined,
  _exiting: false,
  config: { variables: {} },
  features: {},
  stdout: writer(1),
  stderr: writer(2),
  cwd() { return '/'; },
  chdir() { throw unsupported('process.chdir()'); },
  umask() { return 0o22; },
  getuid() { return 1000; },
  getgid() { return 1000; },
  geteuid() { return 1000; },
  getegid() { return 1000; },
  exit(code = undefined) {
    throw nodeError(Error, 'ERR_UNSUPPORTED_OPERATION', `process.exit(${code === undefined ? '' : String(code)}) is not supported in runjs: a run ends when its work is done; throw an error to fail it`);
  },
  abort() { throw unsupported('process.abort()'); },
  kill() { throw unsupported('process.kill()'); },
  nextTick(callback, ...args) {
    if (typeof callback !== 'function') throw invalidArgType('callback', 'of type function', callback);
    queueTick(callback, args);
  },
  hrtime,
  uptime() { return (hostNow() - timeOrigin()) / 1000; },
  memoryUsage() { return { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }; },
  cpuUsage() { return { user: 0, system: 0 }; },
  resourceUsage() { return {}; },
  /** Node's emitWarning: 'warning' listeners get the Error in a later tick; the run's output shows it too. */
  emitWarning(warning, type = undefined, code = undefined, ctor = undefined) {
    let detail;
    if (type !== null && typeof type === 'object' && !Array.isArray(type)) {
      ctor = type.ctor;
      code = type.code;
      if (typeof type.detail === 'string') detail = type.detail;
      type = type.type || 'Warning';
    } else if (typeof type === 'function') {
      ctor = type;
      code = undefined;
      type = 'Warning';
    }
    if (type !== undefined && typeof type !== 'string') throw invalidArgType('type', 'of type string', type);
    if (typeof code === 'function') code = undefined;
    else if (code !== undefined && typeof code !== 'string') throw invalidArgType('code', 'of type string', code);
    if (typeof warning === 'string') {
      const message = warning;
      warning = new Error(message);
      warning.name = String(type || 'Warning');
      if (code !== undefined) warning.code = code;
      if (detail !== undefined) warning.detail = detail;
    } else if (!(warning instanceof Error)) {
      throw invalidArgType('warning', 'of type string or an instance of Error', warning);
    }
    void ctor;
    queueMicrotask(() => {
      process.emit('warning', warning);
      const prefix = warning.code ? `[${warning.code}] ` : '';
      const more = typeof warning.detail === 'string' ? `\n${warning.detail}` : '';
      op('console.write', `[WARN] (runjs) ${prefix}${warning.name}: ${warning.message}${more}\n`);
    });
  },
  on(event, fn) { addListener(event, fn); return process; },
  addListener(event, fn) { addListener(event, fn); return process; },
  once(event, fn) {
    const once = function (...args) { removeListener(event, once); return fn.apply(this, args); };
    once.listener = fn;
    addListener(event, once);
    return process;
  },
  off(event, fn) { removeListener(event, fn); return process; },
  removeListener(event, fn) { removeListener(event, fn); return process; },
  removeAllListeners(event = undefined) {
    if (event === undefined) listeners.clear(); else listeners.delete(event);
    return process;
  },
  prependListener(event, fn) { addListener(event, fn, true); return process; },
  prependOnceListener(event, fn) {
    const once = function (...args) { removeListener(event, once); return fn.apply(this, args); };
    once.listener = fn;
    addListener(event, once, true);
    return process;
  },
  listeners(event) { return (listeners.get(event) ?? []).map((l) => l.listener ?? l); },
  rawListeners(event) { return (listeners.get(event) ?? []).slice(); },
  eventNames() { return [...listeners.keys()].filter((k) => listeners.get(k).length > 0); },
  setMaxListeners() { return process; },
  getMaxListeners() { return 10; },
  listenerCount(event) { return (listeners.get(event) ?? []).length; },
  emit(event, ...args) {
    const list = listeners.get(event);
    if (list === undefined) return false;
    for (const fn of list.slice()) fn.apply(process, args);
    return true;
  },
};
function addListener(event, fn, prepend = false) {
  if (typeof fn !== 'function') throw invalidArgType('listener', 'of type function', fn);
  let list = listeners.get(event);
  if (list === undefined) { list = []; listeners.set(event, list); }
  if (prepend) list.unshift(fn); else list.push(fn);
  listenersChanged(event);
}
function removeListener(event, fn) {
  const list = listeners.get(event);
  if (list === undefined) return;
  const i = list.findIndex((l) => l === fn || l.listener === fn);
  if (i >= 0) list.splice(i, 1);
}
Object.defineProperty(process, Symbol.toStringTag, { value: 'process', configurable: true });
const listenersChanged = installProcessEvents(process);
