// The small node: modules: os, querystring, url, timers, timers/promises, console, perf_hooks,
// module, async_hooks, worker_threads, tty, readline, readline/promises.
import { os } from './node/os.js';
import { qs } from './node/querystring.js';
import { url } from './node/url.js';
import { timers, promises } from './node/timers.js';
import core from 'runjs:part/core';
import { perfHooks, moduleModule, asyncHooks, workerThreads } from './node/small-modules.js';
import { makeReadline } from './node/readline.js';
import { tty } from './node/tty.js';

const console = core.globals.console;

/** node:console's Console: writes util.format()ted lines to the streams it is given. */
class Console {
  constructor(stdout, stderr = undefined) {
    const opts = stdout !== null && typeof stdout === 'object' && typeof stdout.write !== 'function' ? stdout : { stdout, stderr };
    const out = opts.stdout;
    const err = opts.stderr ?? out;
    if (typeof out?.write !== 'function') throw new TypeError('The "stdout" argument must be a writable stream');
    const format = (...args) => `${core.shared.requirePart('util').format(...args)}\n`;
    for (const m of ['log', 'info', 'debug', 'dir', 'dirxml']) this[m] = (...args) => out.write(format(...args));
    for (const m of ['warn', 'error', 'trace']) this[m] = (...args) => err.write(format(...args));
    this.assert = (cond, ...args) => { if (!cond) err.write(format('Assertion failed', ...args)); };
    this.group = this.groupCollapsed = (...args) => { if (args.length > 0) out.write(format(...args)); };
    this.groupEnd = () => {};
    this.table = (data) => out.write(format(data));
  }
}
Object.defineProperty(console, 'Console', { value: Console, writable: true, configurable: true });

let readline;
export const modules = {
  os,
  querystring: qs,
  url,
  timers,
  'timers/promises': promises,
  console,
  perf_hooks: perfHooks,
  module: moduleModule,
  async_hooks: asyncHooks,
  worker_threads: workerThreads,
  tty,
  // Made on first require (it loads the events and buffer parts).
  get readline() { return (readline ??= makeReadline()); },
  get 'readline/promises'() { return this.readline.promises; },
};
export const globals = {};
