// node:test's tests, suites and hooks, run as Node 24 runs one file: top-level tests and suites
// queue on a root and start once the main body's synchronous part is over (a timer, which also
// keeps the run alive until they are done); each runs after the previous one; a suite's body runs
// when `describe` is called and collects its tests; a test awaits its `t.test` subtests. When the
// root is done it prints the summary and, when a test failed, fails the run (process.exitCode
// does not decide a run's outcome in runjs; docs/script-environment.md, "node:test").
import core from 'runjs:part/core';
import { MockTracker } from './mock.js';
import { Reporter } from './report.js';

const { invalidArgType, nodeError } = core.shared;
const { now } = core.host;
const timers = core.globals;

/** What a hook or test function is called with: `fn(ctx)`, or `fn(ctx, done)` when it takes two. */
function callWithDone(fn, self, ctx) {
  if (fn.length < 2) return Reflect.apply(fn, self, [ctx]);
  return new Promise((resolve, reject) => {
    const done = (err) => (err === undefined || err === null ? resolve() : reject(err));
    const r = Reflect.apply(fn, self, [ctx, done]);
    if (r !== null && typeof r === 'object' && typeof r.then === 'function') {
      reject(nodeError(Error, 'ERR_INVALID_ARG_VALUE', 'passed a callback but also returned a Promise'));
    }
  });
}

function argsOf(name, options, fn) {
  if (typeof name === 'function') { fn = name; options = {}; name = fn.name || '<anonymous>'; }
  else if (name !== null && typeof name === 'object') { fn = options; options = name; name = typeof fn === 'function' && fn.name ? fn.name : '<anonymous>'; }
  else if (typeof options === 'function') { fn = options; options = {}; }
  if (options === undefined || options === null) options = {};
  if (typeof options !== 'object') throw invalidArgType('options', 'of type object', options);
  if (fn !== undefined && typeof fn !== 'function') throw invalidArgType('fn', 'of type function', fn);
  const timeout = options.timeout ?? Infinity;
  if (typeof timeout !== 'number' || timeout < 0) throw invalidArgType('options.timeout', 'of type number', timeout);
  return { name: name === undefined ? '<anonymous>' : String(name), options, fn: fn ?? (() => {}), timeout };
}

export class Runner {
  /** The suite whose body is running (its tests and hooks go there), or the root. */
  building;
  root;
  reporter;
  scheduled = false;
  active = [];
  assertions = new Map();

  constructor(assert) {
    this.assert = assert;
    this.reporter = new Reporter();
    this.newRoot();
  }

  newRoot() {
    this.root = new Node(this, null, { name: '<root>', options: {}, fn: () => {}, timeout: Infinity }, 'root');
    this.building = this.root;
    this.scheduled = false;
  }

  /** `test()`/`it()` (and their skip/todo/only forms) called outside `t.test`. */
  add(kind, args, extra) {
    const parsed = argsOf(...args);
    Object.assign(parsed.options = { ...parsed.options }, extra);
    const parent = this.building;
    const node = new Node(this, parent, parsed, kind);
    const done = parent.enqueue(node);
    if (parent === this.root) this.schedule();
    return done;
  }

  schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    const root = this.root;
    timers.setTimeout(() => { void this.runRoot(root); }, 0);
  }

  async runRoot(root) {
    const onUncaught = (err) => this.uncaught(err);
    const process = core.process;
    process.on('uncaughtException', onUncaught);
    const start = now();
    try {
      try {
        await root.runBefore();
      } catch (e) {
        root.blocked = { error: e }; // as Node: every top-level test fails with the hook's error
      }
      await root.drain();
      await root.runHooks('after', root.context());
    } catch (e) {
      root.fail(e);
    } finally {
      process.removeListener('uncaughtException', onUncaught);
    }
    if (this.root === root) this.newRoot();
    const counts = this.reporter.summary(now() - start);
    const failed = counts.fail + counts.cancelled;
    if (failed > 0) {
      process.exitCode = 1;
      core.host.op('run.settle', { ok: false, error: `Error: ${failed} of ${counts.tests} tests failed` });
    }
  }

  /** An error nothing caught while tests run fails the test that started last and is still running. */
  uncaught(err) {
    const test = this.active[this.active.length - 1];
    if (test === undefined) core.host.failRunNow(err);
    else test.interrupt(err);
  }
}

/** A test, a suite, or the root. */
class Node {
  error = undefined;
  skip = undefined;
  todo = undefined;
  diagnostics = [];
  children = [];
  hooks = { before: [], after: [], beforeEach: [], afterEach: [] };
  // Children start only once their parent runs them (drain, or a test's function starting).
  #open;
  queue = new Promise((resolve) => { this.#open = resolve; });
  failedChildren = 0;
  headerPrinted = false;
  planned = undefined;
  cancelled = false;
  filtered = false;
  /** Set when this suite or root failed before running its tests: `{ cancel: true }` or `{ error }`. */
  blocked = undefined;
  #before;
  asserted = 0;
  duration = 0;
  #context;
  #controller;
  #mock;
  #interrupt;

  constructor(runner, parent, { name, options, fn, timeout }, kind) {
    this.runner = runner;
    this.parent = parent;
    this.name = name;
    this.fn = fn;
    this.timeout = timeout;
    this.kind = kind; // 'root' | 'test' | 'suite'
    this.nesting = parent === null ? -1 : parent.nesting + 1;
    if (options.skip !== undefined && options.skip !== false) this.skip = options.skip;
    if (options.todo !== undefined && options.todo !== false) this.todo = options.todo;
    this.only = options.only === true;
    if (kind === 'suite' && this.skip === undefined) this.build();
  }

  get fullName() {
    return this.parent === null || this.parent.kind === 'root' ? this.name : `${this.parent.fullName} > ${this.name}`;
  }

  get signal() {
    this.#controller ??= new timers.AbortController();
    return this.#controller.signal;
  }

  get mock() {
    this.#mock ??= new MockTracker();
    return this.#mock;
  }

  context() {
    this.#context ??= this.kind === 'suite' ? new SuiteContext(this) : new TestContext(this);
    return this.#context;
  }

  /** Runs a suite's body now, with its tests and hooks going to it. */
  build() {
    const runner = this.runner;
    const previous = runner.building;
    runner.building = this;
    try {
      const r = Reflect.apply(this.fn, undefined, [this.context()]);
      if (r !== null && typeof r === 'object' && typeof r.then === 'function') this.built = Promise.resolve(r).catch((e) => { this.fail(e); });
    } catch (e) {
      this.fail(e);
    } finally {
      runner.building = previous;
    }
  }

  /** Queues `child` after the tests queued before it; the promise settles once it is done. */
  enqueue(child) {
    this.children.push(child);
    const done = this.queue.then(() => child.run());
    this.queue = done;
    return done;
  }

  /** Waits for the queued children, including those they queue while running. */
  async drain() {
    // Node 24 runs only the `only` tests of a root or suite that has some (no --test-only needed
    // for a file run directly); the others are neither run nor reported.
    if (this.kind !== 'test' && this.children.some((c) => c.only)) {
      for (const c of this.children) if (!c.only) c.filtered = true;
    }
    this.#open();
    let seen;
    do {
      seen = this.queue;
      await seen;
    } while (seen !== this.queue);
  }

  fail(e) {
    if (this.error === undefined) this.error = { value: e };
  }

  /** Fails the running test with `e` (an uncaught error or a timeout) without waiting for its function. */
  interrupt(e) {
    this.fail(e);
    this.#interrupt?.(e);
  }

  /** The `before` hooks, once: a test's run before its first subtest starts. */
  runBefore() {
    this.#before ??= this.runHooks('before', this.context());
    return this.#before;
  }

  async runHooks(kind, ctx) {
    for (const hook of this.hooks[kind]) await this.withTimeout(callWithDone(hook.fn, undefined, ctx), hook.timeout);
  }

  /** beforeEach of every ancestor, outermost first; afterEach innermost first (as Node). */
  async runEachHooks(kind) {
    const chain = [];
    for (let p = this.parent; p !== null; p = p.parent) chain.push(p);
    if (kind === 'beforeEach') chain.reverse();
    const ctx = this.context();
    for (const p of chain) await p.runHooks(kind, ctx);
  }

  withTimeout(value, ms) {
    const interruptible = new Promise((resolve, reject) => {
      this.#interrupt = reject;
      Promise.resolve(value).then(resolve, reject);
    });
    if (ms === Infinity) return interruptible;
    let timer;
    const limit = new Promise((_, reject) => {
      // As Node: a timed-out test is cancelled (counted so), its error the bare message.
      timer = timers.setTimeout(() => { this.cancelled = true; reject(`test timed out after ${ms}ms`); }, ms);
    });
    return Promise.race([interruptible, limit]).finally(() => timers.clearTimeout(timer));
  }

  async run() {
    if (this.filtered) return;
    if (this.parent.blocked !== undefined) {
      await this.runBlocked(this.parent.blocked);
      return;
    }
    const start = now();
    const runner = this.runner;
    if (this.skip !== undefined) {
      this.finish(start);
      return;
    }
    runner.active.push(this);
    try {
      if (this.parent.kind === 'test') await this.parent.runBefore();
      if (this.kind === 'suite') await this.runSuite();
      else await this.runTest();
    } catch (e) {
      this.fail(e);
    } finally {
      const i = runner.active.lastIndexOf(this);
      if (i !== -1) runner.active.splice(i, 1);
      this.#controller?.abort();
      this.#mock?.reset();
    }
    this.finish(start);
  }

  async runSuite() {
    if (this.built !== undefined) await this.built;
    if (this.error === undefined) {
      try {
        await this.runBefore();
      } catch (e) {
        this.fail(e);
      }
    }
    if (this.error !== undefined) {
      // As Node: a suite whose body or `before` hook failed cancels the tests it holds (they
      // still settle, so a script awaiting one goes on).
      this.blocked = { cancel: true };
      await this.drain();
      return;
    }
    await this.drain();
    await this.runHooks('after', this.context());
  }

  async runTest() {
    await this.runEachHooks('beforeEach');
    this.#open();
    try {
      await this.withTimeout(callWithDone(this.fn, this.context(), this.context()), this.timeout);
      await this.drain();
      if (this.planned !== undefined && this.planned !== this.asserted) {
        this.fail(`plan expected ${this.planned} assertions but received ${this.asserted}`);
      }
    } catch (e) {
      this.fail(e);
    }
    try {
      await this.runEachHooks('afterEach');
    } catch (e) {
      this.fail(e);
    }
    await this.runHooks('after', this.context()); // after the afterEach hooks, as Node
  }

  /** A test whose parent failed before running it: cancelled (suites) or failed with the root hook's error. */
  async runBlocked(blocked) {
    if (this.kind === 'suite') {
      this.blocked = { cancel: true }; // its tests are cancelled, as Node reports them
      await this.drain();
    }
    if (blocked.cancel) {
      this.cancelled = true;
      this.error = { value: 'test did not finish before its parent and was cancelled' };
      this.finish(undefined);
    } else {
      this.fail(blocked.error);
      this.finish(now());
    }
  }

  /** Counts and reports the test; `start` undefined: it never ran, and shows no duration (as Node). */
  finish(start) {
    this.duration = start === undefined ? undefined : now() - start;
    if (this.error === undefined && this.failedChildren > 0) {
      const n = this.failedChildren;
      this.error = { value: new Error(`${n} subtest${n === 1 ? '' : 's'} failed`), subtests: true };
    }
    if (this.error !== undefined && this.todo === undefined && this.parent !== null) this.parent.failedChildren++;
    this.runner.reporter.complete(this);
  }
}

/** The `t` of a test function (Node's TestContext). */
class TestContext {
  #node;
  #assert;
  constructor(node) { this.#node = node; }
  get name() { return this.#node.name; }
  get fullName() { return this.#node.fullName; }
  get filePath() { return '/main.js'; }
  get signal() { return this.#node.signal; }
  get mock() { return this.#node.mock; }

  get assert() {
    this.#assert ??= boundAssert(this.#node);
    return this.#assert;
  }

  diagnostic(message) { this.#node.diagnostics.push(String(message)); }

  /** Calls `condition` every `interval` ms until it returns (its value) or `timeout` ms have passed. */
  async waitFor(condition, options = {}) {
    if (typeof condition !== 'function') throw invalidArgType('condition', 'of type function', condition);
    if (options === null || typeof options !== 'object') throw invalidArgType('options', 'of type object', options);
    const { interval = 50, timeout = 1000 } = options;
    const deadline = now() + timeout;
    let last;
    for (;;) {
      try {
        return await condition();
      } catch (e) {
        last = e;
      }
      if (now() >= deadline) throw new Error('waitFor() timed out', { cause: last });
      await new Promise((resolve) => { timers.setTimeout(resolve, interval); });
    }
  }
  skip(message = true) { this.#node.skip = message; }
  todo(message = true) { this.#node.todo = message; }
  runOnly() {}

  plan(count) {
    if (!Number.isInteger(count) || count < 0) throw nodeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "count" is out of range. It must be >= 0 && an integer. Received ${count}`);
    if (this.#node.planned !== undefined) throw nodeError(Error, 'ERR_TEST_FAILURE', 'cannot set plan more than once');
    this.#node.planned = count;
  }

  test(...args) {
    const node = this.#node;
    node.asserted++;
    const parsed = argsOf(...args);
    return node.enqueue(new Node(node.runner, node, parsed, 'test')).then(() => undefined);
  }

  before(fn, options) { addHook(this.#node, 'before', fn, options); }
  after(fn, options) { addHook(this.#node, 'after', fn, options); }
  beforeEach(fn, options) { addHook(this.#node, 'beforeEach', fn, options); }
  afterEach(fn, options) { addHook(this.#node, 'afterEach', fn, options); }
}

/** What a suite's body is called with (Node's SuiteContext). */
class SuiteContext {
  #node;
  constructor(node) { this.#node = node; }
  get name() { return this.#node.name; }
  get fullName() { return this.#node.fullName; }
  get filePath() { return '/main.js'; }
  get signal() { return this.#node.signal; }
}

export function addHook(node, kind, fn, options) {
  if (typeof fn !== 'function') throw invalidArgType('fn', 'of type function', fn);
  const timeout = options?.timeout ?? Infinity;
  node.hooks[kind].push({ fn, timeout });
}

const ASSERTIONS = ['deepEqual', 'deepStrictEqual', 'doesNotMatch', 'doesNotReject', 'doesNotThrow', 'equal', 'fail', 'ifError', 'match', 'notDeepEqual',
  'notDeepStrictEqual', 'notEqual', 'notStrictEqual', 'ok', 'partialDeepStrictEqual', 'rejects', 'strictEqual', 'throws'];

/** `t.assert`: node:assert's functions, each counted for `t.plan`, plus those `assert.register` added. */
function boundAssert(node) {
  const assert = node.runner.assert();
  const out = {};
  const count = (fn) => function (...args) { node.asserted++; return Reflect.apply(fn, this, args); };
  for (const name of ASSERTIONS) out[name] = count(assert[name]);
  for (const [name, fn] of node.runner.assertions) out[name] = count(fn);
  const unsupported = (what) => () => { throw nodeError(Error, 'ERR_UNSUPPORTED_OPERATION', `${what} is not supported in runjs's node:test`); };
  out.snapshot ??= unsupported('t.assert.snapshot()');
  out.fileSnapshot ??= unsupported('t.assert.fileSnapshot()');
  return out;
}
