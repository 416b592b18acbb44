// node:test (only as `node:test`, as in Node): test/it, describe/suite, the module-level hooks,
// `mock`, and `assert.register`, on Node 24's documented behaviour. What runjs leaves out throws
// ERR_UNSUPPORTED_OPERATION: run(), snapshots, mock.timers, mock.module (docs/script-environment.md,
// "node:test"). The runner itself is in test/runner.js, the spec reporter in test/report.js.
import core from 'runjs:part/core';
import { Runner, addHook } from './test/runner.js';
import { MockTracker } from './test/mock.js';

const { invalidArgType, nodeError } = core.shared;

let runner;
/** One runner per realm, made on first use (a realm is one run). */
const runnerOf = () => {
  runner ??= new Runner(() => core.host.requirePart('assert').modules.assert);
  return runner;
};

const unsupported = (what) => nodeError(Error, 'ERR_UNSUPPORTED_OPERATION', `${what} is not supported in runjs's node:test`);

/** `test`/`it` and `describe`/`suite` with their skip/todo/only forms. */
function entry(kind, name) {
  const fn = { [name]: (...args) => runnerOf().add(kind, args, {}) }[name];
  fn.skip = (...args) => runnerOf().add(kind, args, { skip: true });
  fn.todo = (...args) => runnerOf().add(kind, args, { todo: true });
  fn.only = (...args) => runnerOf().add(kind, args, { only: true });
  return fn;
}

const test = entry('test', 'test');
const it = entry('test', 'it');
const describe = entry('suite', 'describe');
const suite = entry('suite', 'suite');

const hook = (kind) => ({
  [kind](fn, options) {
    const r = runnerOf();
    addHook(r.building, kind, fn, options);
  },
}[kind]);

const mock = new MockTracker();

const assert = {
  register(name, fn) {
    if (typeof name !== 'string') throw invalidArgType('name', 'of type string', name);
    if (typeof fn !== 'function') throw invalidArgType('fn', 'of type function', fn);
    runnerOf().assertions.set(name, fn);
  },
};

const snapshot = {
  setDefaultSnapshotSerializers() { throw unsupported('snapshot.setDefaultSnapshotSerializers()'); },
  setResolveSnapshotPath() { throw unsupported('snapshot.setResolveSnapshotPath()'); },
};

function run() {
  throw unsupported('run()');
}

Object.assign(test, {
  test,
  it,
  describe,
  suite,
  before: hook('before'),
  after: hook('after'),
  beforeEach: hook('beforeEach'),
  afterEach: hook('afterEach'),
  mock,
  assert,
  snapshot,
  run,
  skip: test.skip,
  todo: test.todo,
  only: test.only,
});

export const modules = { test };
export const globals = {};
