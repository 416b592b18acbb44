// node:child_process and Deno.Command: the child runs on the host (worker/ops/subprocess/), which
// decides it by the `subprocess` policy (denied unless a policy allows the command) and spawns it
// with only the environment given here. Each child keeps one `subprocess.next` op pending until it
// closes; the op answers its next event (spawn, output, exit, error, close), so output arrives
// without polling and a running child keeps the run alive, as it keeps a Node process alive.
// The sync forms (execSync, spawnSync, Deno's outputSync) cannot be: they throw.
import core from 'runjs:part/core';
import bufferPart from 'runjs:part/buffer';
import eventsPart from 'runjs:part/events';
import streamPart from 'runjs:part/stream';

const { op, invalidArgType, nodeError } = core.shared;
const { Buffer } = bufferPart.globals;
const EventEmitter = eventsPart.modules.events;
const { Readable, Writable } = streamPart.modules.stream;

const kCustomPromisify = Symbol.for('nodejs.util.promisify.custom');
const DEFAULT_MAX_BUFFER = 1024 * 1024;

function unsupported(name) {
  op('subprocess.unsupported', { name });
}

function stringArgs(args, name) {
  if (args === undefined || args === null) return [];
  if (!Array.isArray(args)) throw invalidArgType(name, 'an instance of Array', args);
  return args.map((a) => String(a));
}

function envOf(env) {
  if (env === undefined || env === null) return undefined;
  if (typeof env !== 'object') throw invalidArgType('options.env', 'of type object', env);
  const out = {};
  for (const k of Object.keys(env)) if (env[k] !== undefined) out[k] = String(env[k]);
  return out;
}

function cwdOf(cwd) {
  if (cwd === undefined || cwd === null) return undefined;
  if (cwd instanceof URL) return decodeURIComponent(cwd.pathname);
  if (typeof cwd !== 'string') throw invalidArgType('options.cwd', 'of type string or an instance of URL', cwd);
  return cwd;
}

/** Node's stdio option → what each of the three is: 'pipe', 'ignore' or 'inherit'. */
function stdioOf(stdio) {
  const one = (v) => (v === 'ignore' || v === 'inherit' ? v : v === null || v === undefined || v === 'pipe' || v === 'overlapped' ? 'pipe' : 'ignore');
  if (typeof stdio === 'string') return [one(stdio), one(stdio), one(stdio)];
  if (Array.isArray(stdio)) return [one(stdio[0]), one(stdio[1]), one(stdio[2])];
  return ['pipe', 'pipe', 'pipe'];
}

function bytesOf(chunk, encoding) {
  if (typeof chunk === 'string') return Buffer.from(chunk, encoding);
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw invalidArgType('chunk', 'of type string or an instance of Buffer, TypedArray, or DataView', chunk);
}

class ChildStdout extends Readable {
  constructor(s) {
    super();
    this._s = s;
  }
  _read() {
    const wake = this._s.wake;
    this._s.wake = null;
    wake?.();
  }
}

export class ChildProcess extends EventEmitter {
  constructor() {
    super();
    this.pid = undefined;
    this.exitCode = null;
    this.signalCode = null;
    this.killed = false;
    this.connected = false;
    this.spawnfile = undefined;
    this.spawnargs = [];
    this.stdin = null;
    this.stdout = null;
    this.stderr = null;
    this.stdio = [null, null, null];
    this._s = null;
  }

  kill(signal = 'SIGTERM') {
    const s = this._s;
    if (s === null || s.closed) return false;
    const sent = op('subprocess.kill', { id: s.id, signal: signal === 0 ? 0 : typeof signal === 'number' ? signal : String(signal) });
    if (sent && signal !== 0) this.killed = true;
    return sent;
  }

  /** An unref'd child does not keep the run alive (it is still killed when the run ends). */
  unref() {
    const s = this._s;
    if (s === null) return;
    s.refd = false;
    if (s.next !== null) op('timers.ref', { id: s.next, ref: false });
  }

  ref() {
    const s = this._s;
    if (s === null) return;
    s.refd = true;
    if (s.next !== null) op('timers.ref', { id: s.next, ref: true });
  }
  disconnect() {}
  [Symbol.dispose ?? Symbol.for('Symbol.dispose')]() {
    if (this.exitCode === null && this.signalCode === null) this.kill();
  }
}

/** Starts a child on the host and wires its events to `cp`; `onOutput(fd, bytes)` sees every chunk. */
function start(cp, req, stdio, onOutput) {
  let spawned;
  const s = {
    id: 0, closed: false, wake: null, refd: true, next: null,
    spawned: new Promise((resolve) => { spawned = resolve; }),
    didSpawn: false,
  };
  cp._s = s;
  cp.spawnfile = req.command;
  cp.spawnargs = [req.command, ...req.args];
  if (stdio[1] === 'pipe') cp.stdout = new ChildStdout(s);
  if (stdio[2] === 'pipe') cp.stderr = new ChildStdout(s);
  if (stdio[0] === 'pipe') {
    cp.stdin = new Writable({
      write(chunk, encoding, callback) {
        s.spawned.then((ok) => {
          if (ok && !s.closed) {
            try {
              op('subprocess.write', { id: s.id }, bytesOf(chunk, encoding));
            } catch (e) {
              callback(e);
              return;
            }
          }
          callback();
        });
      },
      final(callback) {
        s.spawned.then((ok) => {
          if (ok && !s.closed) op('subprocess.end', { id: s.id });
          callback();
        });
      },
    });
  }
  cp.stdio = [cp.stdin, cp.stdout, cp.stderr];
  s.id = op('subprocess.spawn', { ...req, stdin: stdio[0] === 'pipe' });
  pump(cp, s, stdio, spawned, onOutput);
  return s;
}

/** Whether a stream someone reads has not ended yet: 'close' waits for it. */
function endOf(stream) {
  if (stream === null || stream.readableEnded || stream.readableFlowing !== true) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
    stream.once('error', resolve);
  });
}

async function pump(cp, s, stdio, spawned, onOutput) {
  for (;;) {
    let event;
    try {
      event = await new Promise((resolve, reject) => {
        s.next = op('subprocess.next', { id: s.id }, undefined, (ok, value) => (ok ? resolve(value) : reject(value)));
        if (!s.refd) op('timers.ref', { id: s.next, ref: false });
      });
      s.next = null;
    } catch (e) {
      s.next = null;
      event = { type: 'error', message: String(e?.message ?? e), code: e?.code };
      deliver(cp, s, event, stdio, spawned, onOutput);
      event = { type: 'close', code: null, signal: null };
    }
    if (event instanceof Uint8Array) {
      const fd = event[0];
      const chunk = Buffer.from(event.buffer, event.byteOffset + 1, event.byteLength - 1);
      onOutput?.(fd, chunk);
      const stream = fd === 1 ? cp.stdout : cp.stderr;
      const mode = stdio[fd];
      if (mode === 'inherit') (fd === 1 ? core.process.stdout : core.process.stderr).write(chunk);
      else if (stream !== null && !stream.destroyed && !stream.push(chunk)) {
        await new Promise((resolve) => { s.wake = resolve; });
      }
      continue;
    }
    if (event.type === 'close') {
      s.closed = true;
      spawned(s.didSpawn);
      cp.stdin?.destroy();
      cp.stdout?.push(null);
      cp.stderr?.push(null);
      await Promise.all([endOf(cp.stdout), endOf(cp.stderr)]);
      if (s.didSpawn) cp.emit('close', cp.exitCode ?? event.code, cp.signalCode ?? event.signal);
      else cp.emit('close', event.code, event.signal);
      return;
    }
    deliver(cp, s, event, stdio, spawned, onOutput);
  }
}

function deliver(cp, s, event, _stdio, spawned) {
  switch (event.type) {
    case 'spawn':
      cp.pid = event.pid;
      s.didSpawn = true;
      spawned(true);
      cp.emit('spawn');
      return;
    case 'exit':
      cp.exitCode = event.code;
      cp.signalCode = event.signal;
      cp.emit('exit', event.code, event.signal);
      return;
    case 'error': {
      const err = new Error(event.message);
      if (event.code !== undefined) err.code = event.code;
      if (event.errno !== undefined) err.errno = event.errno;
      if (event.syscall !== undefined) {
        err.syscall = event.syscall;
        err.path = cp.spawnfile;
        err.spawnargs = cp.spawnargs.slice(1);
      }
      if (!s.didSpawn) spawned(false);
      cp.emit('error', err);
      return;
    }
    default:
  }
}

function normalizeSpawn(file, args, options) {
  if (typeof file !== 'string') throw invalidArgType('file', 'of type string', file);
  if (file === '') throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', "The argument 'file' cannot be empty. Received ''");
  if (args !== undefined && args !== null && !Array.isArray(args) && typeof args === 'object') {
    options = args;
    args = undefined;
  }
  options ??= {};
  if (typeof options !== 'object') throw invalidArgType('options', 'of type object', options);
  let command = file;
  let argv = stringArgs(args, 'args');
  if (options.shell) {
    const line = [file, ...argv].join(' ');
    command = typeof options.shell === 'string' ? options.shell : '/bin/sh';
    argv = ['-c', line];
  }
  return { command, args: argv, options };
}

function request(operation, command, args, options) {
  const req = { operation, command, args };
  const cwd = cwdOf(options.cwd);
  if (cwd !== undefined) req.cwd = cwd;
  const env = envOf(options.env);
  if (env !== undefined) req.env = env;
  if (options.timeout !== undefined && options.timeout !== null && options.timeout !== 0) {
    if (!Number.isInteger(options.timeout) || options.timeout < 0) throw invalidArgType('options.timeout', 'a non-negative integer', options.timeout);
    req.timeoutMs = options.timeout;
  }
  if (options.killSignal !== undefined) req.killSignal = String(options.killSignal);
  return req;
}

function wireAbort(cp, signal, killSignal) {
  if (signal === undefined || signal === null) return;
  const onAbort = () => {
    cp.kill(killSignal ?? 'SIGTERM');
    const err = new Error('The operation was aborted');
    err.name = 'AbortError';
    err.code = 'ABORT_ERR';
    err.cause = signal.reason;
    cp.emit('error', err);
  };
  if (signal.aborted) queueMicrotask(onAbort);
  else {
    signal.addEventListener('abort', onAbort, { once: true });
    cp.once('close', () => signal.removeEventListener('abort', onAbort));
  }
}

export function spawn(file, args, options) {
  const n = normalizeSpawn(file, args, options);
  const cp = new ChildProcess();
  start(cp, request('spawn', n.command, n.args, n.options), stdioOf(n.options.stdio));
  wireAbort(cp, n.options.signal, n.options.killSignal);
  return cp;
}

/** exec / execFile: the output collected, then `callback(err, stdout, stderr)`. */
function collect(operation, command, args, options, callback, shown) {
  const encoding = options.encoding ?? 'utf8';
  const maxBuffer = options.maxBuffer ?? DEFAULT_MAX_BUFFER;
  const cp = new ChildProcess();
  const chunks = { 1: [], 2: [] };
  const sizes = { 1: 0, 2: 0 };
  let failure = null;
  start(cp, request(operation, command, args, options), ['pipe', 'pipe', 'pipe'], (fd, chunk) => {
    if (failure !== null) return;
    sizes[fd] += chunk.byteLength;
    chunks[fd].push(chunk);
    if (sizes[fd] > maxBuffer) {
      failure = nodeError(RangeError, 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER', `${fd === 1 ? 'stdout' : 'stderr'} maxBuffer length exceeded`);
      cp.kill(options.killSignal ?? 'SIGTERM');
    }
  });
  // The streams are read here (in flowing mode they never hold the pump back).
  cp.stdout.resume();
  cp.stderr.resume();
  wireAbort(cp, options.signal, options.killSignal);
  const text = (fd) => {
    const all = Buffer.concat(chunks[fd]);
    return encoding === 'buffer' || encoding === null ? all : all.toString(encoding);
  };
  let spawnError = null;
  let done = false;
  cp.on('error', (e) => {
    spawnError ??= e;
    if (!cp._s.didSpawn && !done) {
      done = true;
      // Node's close still follows; the callback is called once, with the error.
      e.cmd = shown;
      callback?.(e, text(1), text(2));
    }
  });
  cp.on('close', (code, signal) => {
    if (done) return;
    done = true;
    const stdout = text(1);
    const stderr = text(2);
    let err = failure ?? spawnError;
    if (err === null && (code !== 0 || signal !== null)) {
      err = new Error(`Command failed: ${shown}\n${typeof stderr === 'string' ? stderr : stderr.toString()}`);
      err.code = code === null ? undefined : code;
      err.killed = cp.killed;
      err.signal = signal;
    }
    if (err !== null) {
      err.cmd = shown;
      callback?.(err, stdout, stderr);
    } else {
      callback?.(null, stdout, stderr);
    }
  });
  return cp;
}

function execArgs(options, callback) {
  if (typeof options === 'function') return { options: {}, callback: options };
  return { options: options ?? {}, callback };
}

export function exec(command, options, callback) {
  if (typeof command !== 'string') throw invalidArgType('command', 'of type string', command);
  const a = execArgs(options, callback);
  const shell = typeof a.options.shell === 'string' ? a.options.shell : '/bin/sh';
  return collect('exec', shell, ['-c', command], a.options, a.callback, command);
}

export function execFile(file, args, options, callback) {
  if (typeof args === 'function') {
    callback = args;
    args = undefined;
    options = undefined;
  } else if (args !== undefined && args !== null && !Array.isArray(args) && typeof args === 'object') {
    callback = options;
    options = args;
    args = undefined;
  }
  const a = execArgs(options, callback);
  const n = normalizeSpawn(file, args, a.options);
  return collect('spawn', n.command, n.args, a.options, a.callback, [file, ...stringArgs(args, 'args')].join(' '));
}

function promisified(fn) {
  return (...args) => {
    let child;
    const promise = new Promise((resolve, reject) => {
      child = fn(...args, (err, stdout, stderr) => {
        if (err !== null) {
          err.stdout = stdout;
          err.stderr = stderr;
          reject(err);
        } else {
          resolve({ stdout, stderr });
        }
      });
    });
    promise.child = child;
    return promise;
  };
}
Object.defineProperty(exec, kCustomPromisify, { value: promisified(exec), enumerable: false });
Object.defineProperty(execFile, kCustomPromisify, { value: promisified(execFile), enumerable: false });

export const execSync = () => unsupported('child_process.execSync');
export const execFileSync = () => unsupported('child_process.execFileSync');
export const spawnSync = () => unsupported('child_process.spawnSync');
export const fork = () => unsupported('child_process.fork');

const childProcess = { ChildProcess, spawn, exec, execFile, execSync, execFileSync, spawnSync, fork, _forkChild: undefined };
delete childProcess._forkChild;

/** Deno.Command: `output()` runs the command to its end; the sync and spawn forms throw. */
class Command {
  #command;
  #options;
  constructor(command, options = {}) {
    if (command instanceof URL) command = decodeURIComponent(command.pathname);
    if (typeof command !== 'string') throw new TypeError('Deno.Command: the command must be a string or a file URL');
    this.#command = command;
    this.#options = options ?? {};
  }

  output() {
    const o = this.#options;
    const req = request('command_output', this.#command, stringArgs(o.args, 'args'), { cwd: o.cwd, env: o.env });
    const cp = new ChildProcess();
    const chunks = { 1: [], 2: [] };
    start(cp, req, ['ignore', 'pipe', 'pipe'], (fd, chunk) => chunks[fd].push(chunk));
    cp.stdout.resume();
    cp.stderr.resume();
    if (o.signal !== undefined && o.signal !== null) wireAbort(cp, o.signal, 'SIGTERM');
    return new Promise((resolve, reject) => {
      let error = null;
      cp.on('error', (e) => {
        if (error !== null) return;
        error = e;
        if (e.code === 'ENOENT' && !cp._s.didSpawn) {
          error = new Error(`Failed to spawn '${this.#command}': No such file or directory (os error 2)`);
          error.name = 'NotFound';
          error.code = 'ENOENT';
        }
      });
      cp.on('close', (code, signal) => {
        if (error !== null || !cp._s.didSpawn) {
          reject(error ?? new Error(`Failed to spawn '${this.#command}'`));
          return;
        }
        const toBytes = (fd) => {
          const b = Buffer.concat(chunks[fd]);
          return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
        };
        const stdout = o.stdout === 'null' ? null : toBytes(1);
        const stderr = o.stderr === 'null' ? null : toBytes(2);
        resolve({ code: code ?? 1, success: code === 0, signal: signal ?? null, stdout, stderr });
      });
    });
  }

  outputSync() {
    unsupported('Deno.Command.outputSync');
  }

  spawn() {
    unsupported('Deno.Command.spawn');
  }
}
Object.defineProperty(Command.prototype, Symbol.toStringTag, { value: 'Deno.Command', configurable: true });

/**
 * A `Deno` namespace: `Command` (what runjs runs of Deno's API), plus `args` and a read-only empty
 * `env`, which libraries that detect Deno read first (supports-color reads `Deno.args`).
 */
const denoEnv = Object.freeze({ get: () => undefined, has: () => false, toObject: () => ({}), set() {}, delete() {} });
const Deno = Object.freeze({ Command, args: Object.freeze([]), env: denoEnv });

export const modules = { child_process: childProcess };
export const globals = { Deno };
