// node:test in the guest (docs/script-environment.md "node:test"): scripts with passing, failing,
// skipped and todo tests, nested suites, subtests, hooks and mocks run in a child Node 24 too
// (the oracle), and runjs must print Node's spec report line for line once durations, stack
// frames and Node's `test at <file>` lines are masked. A run with failing tests fails.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { guestSuite } from '../helpers/both-engines.ts';

const node = new URL('../../node_modules/.bin/node', import.meta.url).pathname;

/** Node's stdout and exit code for the module `code`. */
async function inNode(code: string): Promise<NodeRun> {
  try {
    const { stdout } = await promisify(execFile)(node, ['--input-type=module', '--no-warnings', '-e', code], { cwd: '/', env: { PATH: process.env.PATH ?? '' } });
    return { stdout, code: 0 };
  } catch (e) {
    const err = e as { stdout: string; code: number };
    return { stdout: err.stdout, code: err.code };
  }
}

/**
 * Durations vary and stack frames are each engine's own: both are masked (on QuickJS an error's
 * stack ends with a newline, so the `{` that opens its inspected properties stands on its own line).
 */
function masked(text: string): string {
  return text.split('\n')
    .filter((l) => !/^\s+at /.test(l) && !/^test at /.test(l) && !/^\s+\{$/.test(l))
    .map((l) => l.replace(/\(\d+(\.\d+)?ms\)/, '(Nms)').replace(/^ℹ duration_ms .*$/, 'ℹ duration_ms N').trimEnd())
    .join('\n');
}

/**
 * Node writes its report through a stream, so where a script's own `console.log` lines fall among
 * the report's varies from run to run; runjs prints both in order. Scripts prefix their own lines
 * with `> `, and the two sequences are compared apart.
 */
function apart(text: string): { script: string[]; report: string[] } {
  const lines = masked(text).split('\n');
  return { script: lines.filter((l) => l.startsWith('> ')), report: lines.filter((l) => !l.startsWith('> ')) };
}

const REPORT = `import test, { describe, it } from 'node:test';
import assert from 'node:assert';
test('passes', () => {});
test('fails', () => { throw new Error('boom'); });
test('skipped', { skip: true }, () => {});
test('skip with a message', { skip: 'not here' }, () => {});
test('todo', { todo: true }, () => {});
test('todo that fails', { todo: 'later' }, () => { throw new Error('not yet'); });
test.skip('test.skip', () => {});
test('async with subtests', async (t) => {
  await new Promise((r) => setTimeout(r, 2));
  await t.test('sub one', () => {});
  await t.test('sub skipped', (t) => { t.skip('why'); });
  await t.test('sub fails', () => { assert.ok(false, 'sub assertion'); });
  t.diagnostic('a diagnostic');
});
describe('outer', () => {
  it('one', () => {});
  describe('inner', () => {
    it('two', async () => {});
    it.todo('three');
  });
});
describe('throwing suite', () => { it('never runs', () => {}); throw new Error('suite body'); });
describe.skip('skipped suite', () => { it('inner', () => {}); });
test('done callback', (t, done) => { setTimeout(done, 1); });
test('plan', (t) => { t.plan(2); t.assert.ok(true); t.assert.strictEqual(1, 1); });
test('plan missed', (t) => { t.plan(2); t.assert.ok(true); });
test('a mocked console.log does not hide the report', (t) => {
  const log = t.mock.method(console, 'log', () => {});
  console.log('hidden');
  t.assert.strictEqual(log.mock.callCount(), 1);
});
`;

const HOOKS_AND_MOCKS = `import { test, mock, before, after, beforeEach, afterEach, describe, it } from 'node:test';
import assert from 'node:assert';
const order = [];
before(() => order.push('root before'));
beforeEach((t) => order.push('root beforeEach ' + t.name));
afterEach((t) => order.push('root afterEach ' + t.name));
after(() => { order.push('root after'); console.log(order.map((l) => '> ' + l).join('\\n')); });
test('mock.fn', () => {
  const sum = mock.fn((a, b) => a + b);
  assert.strictEqual(sum(1, 2), 3);
  sum.mock.mockImplementationOnce(() => 10);
  assert.deepStrictEqual([sum(1, 2), sum(2, 2), sum.mock.callCount()], [10, 4, 3]);
  const c = sum.mock.calls[0];
  assert.deepStrictEqual(Object.keys(c), ['arguments', 'error', 'result', 'stack', 'target', 'this']);
  assert.deepStrictEqual([c.arguments, c.result, c.error, c.this, c.target], [[1, 2], 3, undefined, undefined, undefined]);
  const thrower = mock.fn(() => { throw new Error('no'); });
  assert.throws(() => thrower());
  assert.strictEqual(thrower.mock.calls[0].error.message, 'no');
  sum.mock.resetCalls();
  assert.strictEqual(sum.mock.callCount(), 0);
  const named = mock.fn(function add(a, b) { return a + b; });
  assert.deepStrictEqual([named.name, named.length], ['add', 2]);
  named.mock.mockImplementation(() => 'x');
  assert.strictEqual(named(), 'x');
  named.mock.restore();
  assert.strictEqual(named(1, 1), 2);
  const once = mock.fn(() => 1, () => 2, { times: 1 });
  assert.deepStrictEqual([once(), once()], [2, 1]);
  class Point { constructor(x) { this.x = x; } }
  const P = mock.fn(Point);
  const p = new P(3);
  assert.deepStrictEqual([p instanceof Point, P.mock.calls[0].target === Point, P.mock.calls[0].this === p], [true, true, true]);
});
test('mock.method, getter, restoreAll, reset', (t) => {
  const obj = { value: 5, get() { return this.value; } };
  const m = t.mock.method(obj, 'get', function () { return this.value * 2; });
  assert.strictEqual(obj.get(), 10);
  assert.strictEqual(m.mock.calls[0].this, obj);
  m.mock.restore();
  assert.strictEqual(obj.get(), 5);
  mock.method(obj, 'get', () => 7);
  assert.strictEqual(obj.get(), 7);
  mock.restoreAll();
  assert.strictEqual(obj.get(), 5);
  const o2 = { get v() { return 1; } };
  mock.getter(o2, 'v', () => 3);
  assert.strictEqual(o2.v, 3);
  mock.reset();
  assert.strictEqual(o2.v, 1);
  t.assert.deepStrictEqual([t.name, t.fullName, t.signal.aborted], ['mock.method, getter, restoreAll, reset', 'mock.method, getter, restoreAll, reset', false]);
});
describe('hooks', () => {
  before(() => order.push('suite before'));
  after(() => order.push('suite after'));
  beforeEach(() => order.push('suite beforeEach'));
  afterEach(() => order.push('suite afterEach'));
  it('a', () => order.push('a'));
  it('b', async () => { await new Promise((r) => setTimeout(r, 2)); order.push('b'); });
});
test('t.before and friends', async (t) => {
  t.before(() => order.push('t before'));
  t.beforeEach(() => order.push('t beforeEach'));
  t.after(() => order.push('t after'));
  await t.test('x', () => order.push('x'));
  await t.test('y', () => order.push('y'));
});
test('t.waitFor', async (t) => {
  let n = 0;
  const v = await t.waitFor(() => { n++; if (n < 3) throw new Error('not yet'); return 'ready'; }, { interval: 1 });
  assert.deepStrictEqual([v, n], ['ready', 3]);
  await assert.rejects(t.waitFor(() => { throw new Error('never'); }, { interval: 1, timeout: 5 }), (e) => e.message === 'waitFor() timed out' && e.cause.message === 'never');
});
test('an uncaught error fails the test, not the run', () => { setTimeout(() => { throw new Error('later'); }, 1); return new Promise(() => {}); });
test('timeout', { timeout: 5 }, () => new Promise(() => {}));
test('after the failures', () => {});
`;

const PASSING = `import { test } from 'node:test';
const t1 = test('first', async () => { await new Promise((r) => setTimeout(r, 5)); });
console.log('> main body', t1 instanceof Promise);
await t1;
console.log('> awaited');
test('second', () => {});
`;

const ONLY = `import { test, describe, it } from 'node:test';
test('not only', () => {});
test.only('only', () => {});
test('only by option', { only: true }, async (t) => { await t.test('its subtest', () => {}); });
describe.only('suite', () => { it('filtered', () => {}); it.only('kept', () => {}); });
`;

const HOOK_FAILURES = `import { test, describe, it, before } from 'node:test';
before(() => { throw new Error('root before'); });
describe('suite', () => {
  before(() => { throw new Error('suite before'); });
  it('a', () => {});
  describe('inner', () => { it('b', () => {}); });
});
test('top', () => {});
`;

interface NodeRun { stdout: string; code: number }
interface NodeRuns { report: NodeRun; hooks: NodeRun; passing: NodeRun; only: NodeRun; hookFailures: NodeRun }
let oracle: Promise<NodeRuns> | undefined;
/** Node's output for every script, run once per file. */
function nodeOutputs(): Promise<NodeRuns> {
  oracle ??= (async () => {
    const [report, hooks, passing, only, hookFailures] = await Promise.all([inNode(REPORT), inNode(HOOKS_AND_MOCKS), inNode(PASSING), inNode(ONLY), inNode(HOOK_FAILURES)]);
    return { report, hooks, passing, only, hookFailures };
  })();
  return oracle;
}

guestSuite('node:test', (g) => {
  g.test('the spec report of passing, failing, skipped, todo tests, suites, subtests, done callbacks and plans is Node\'s; the run fails', async (ctx) => {
    const host = (await nodeOutputs()).report;
    assert.equal(host.code, 1);
    const res = await ctx.run(REPORT);
    assert.deepEqual(res.outcome, { status: 'failed', error: 'Error: 5 of 19 tests failed' });
    assert.equal(masked(res.output), masked(host.stdout));
    assert.match(res.output, /^ℹ duration_ms \d+(\.\d+)?$/m);
  });

  g.test('hooks run in Node\'s order; mock.fn, mock.method and mock.getter; t.waitFor; a timeout and an uncaught error fail their test only', async (ctx) => {
    const host = (await nodeOutputs()).hooks;
    assert.equal(host.code, 1);
    const res = await ctx.run(HOOKS_AND_MOCKS);
    assert.deepEqual(res.outcome, { status: 'failed', error: 'Error: 2 of 11 tests failed' });
    assert.deepEqual(apart(res.output), apart(host.stdout));
    assert.equal(apart(res.output).script.length, 38);
    assert.match(res.output, /^✖ timeout \(\d+(\.\d+)?ms\)\n  'test timed out after 5ms'$/m);
  });

  g.test('tests start after the main body, test() returns a promise, and a passing run completes', async (ctx) => {
    const host = (await nodeOutputs()).passing;
    assert.equal(host.code, 0);
    const res = await ctx.run(PASSING);
    assert.equal(res.outcome.status, 'completed');
    assert.deepEqual(apart(res.output), apart(host.stdout));
    assert.equal(masked(res.output), '> main body true\n✔ first (Nms)\n> awaited\n✔ second (Nms)\nℹ tests 2\nℹ suites 0\nℹ pass 2\nℹ fail 0\nℹ cancelled 0\nℹ skipped 0\nℹ todo 0\nℹ duration_ms N\n');
  });

  g.test('a failing top-level `before` hook fails every top-level test; a suite\'s cancels its tests; the last test() a script evaluates still settles', async (ctx) => {
    const host = (await nodeOutputs()).hookFailures;
    assert.equal(host.code, 1);
    const res = await ctx.run(HOOK_FAILURES);
    assert.equal(masked(res.output), masked(host.stdout));
    assert.deepEqual(res.outcome, { status: 'failed', error: 'Error: 3 of 3 tests failed' });
  });

  g.test('as in Node 24, a root or suite with `only` tests runs only those', async (ctx) => {
    const host = (await nodeOutputs()).only;
    const out = await ctx.output(ONLY);
    assert.equal(masked(out), masked(host.stdout));
    assert.equal(masked(out).split('\n').slice(0, 7).join('\n'), '✔ only (Nms)\n▶ only by option\n  ✔ its subtest (Nms)\n✔ only by option (Nms)\n▶ suite\n  ✔ kept (Nms)\n✔ suite (Nms)');
  });

  g.test('the builtin is node:test only; what runjs leaves out throws ERR_UNSUPPORTED_OPERATION', async (ctx) => {
    assert.equal(await ctx.output([
      'const m = require("node:test");',
      'const { isBuiltin, builtinModules } = require("node:module");',
      'console.log(typeof m, m.test === m, typeof m.describe, typeof m.mock.fn, isBuiltin("node:test"), isBuiltin("test"), builtinModules.includes("node:test"), builtinModules.includes("test"));',
      'for (const f of [() => require("test"), () => m.run(), () => m.mock.timers, () => m.mock.module("x")]) {',
      '  try { f(); } catch (e) { console.log(e.code, e.code === "MODULE_NOT_FOUND" ? e.message.slice(0, 40) : e.message); }',
      '}',
    ].join('\n')), [
      'function true function function true false true false',
      "MODULE_NOT_FOUND Module 'test' is not available in runjs.",
      "ERR_UNSUPPORTED_OPERATION run() is not supported in runjs's node:test",
      "ERR_UNSUPPORTED_OPERATION mock.timers is not supported in runjs's node:test",
      "ERR_UNSUPPORTED_OPERATION mock.module() is not supported in runjs's node:test",
      '',
    ].join('\n'));
    assert.equal(await ctx.output([
      'const ns = await import("node:test");',
      'try { await import("test"); } catch (e) { console.log(e.code, e.message.slice(0, 40)); }',
      'console.log(ns.default === (await import("node:test")).default, typeof ns.it);',
    ].join('\n')), "ERR_UNKNOWN_BUILTIN_MODULE Module 'test' is not available in runjs.\ntrue function\n");
    const bare = await ctx.run('import test from "test";\ntest("x", () => {});');
    assert.equal(bare.outcome.status, 'failed');
    assert.match(bare.outcome.status === 'failed' ? bare.outcome.error : '', /^Module 'test' is not available in runjs\. Available built-in modules: .*node:test, /);
  });
});
