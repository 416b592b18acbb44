// process's run events (docs/script-environment.md "Process events"): 'uncaughtException',
// 'unhandledRejection' (V8: QuickJS has no rejection tracker), 'beforeExit' and 'exit' in Node's
// order. Scripts that print their events are run in a child Node 24 too (the oracle), and the
// output must be Node's; what only runjs can say (its failure texts) is asserted as it is.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { guestSuite } from '../helpers/both-engines.ts';

const node = new URL('../../node_modules/.bin/node', import.meta.url).pathname;

/**
 * Node's stdout for `code` run in `/`, as a module or (`cjs`: how Node runs its own test files, whose
 * main body's ticks run before its promise jobs) as CommonJS; its exit code too.
 */
async function inNode(code: string, cjs = false): Promise<{ stdout: string; code: number }> {
  try {
    const { stdout } = await promisify(execFile)(node, [`--input-type=${cjs ? 'commonjs' : 'module'}`, '--no-warnings', '-e', code], { cwd: '/', env: { PATH: process.env.PATH ?? '' } });
    return { stdout, code: 0 };
  } catch (e) {
    const err = e as { stdout: string; code: number };
    return { stdout: err.stdout, code: err.code };
  }
}

const DIFFERENTIAL: Record<string, string> = {
  'a timer callback throws: the listener gets it and the run goes on':
    "process.on('uncaughtException', (e, origin) => console.log('caught', e.message, origin));\n"
    + "setTimeout(() => { throw new RangeError('t1') }, 1);\nsetTimeout(() => console.log('after'), 5);",
  'a microtask throws':
    "process.on('uncaughtException', (e) => console.log('caught', e.message));\n"
    + "queueMicrotask(() => { throw new Error('microtask') });\n"
    + "setTimeout(() => console.log('timer'), 1);",
  'EventTarget listeners throw or reject: uncaught exceptions after the dispatch, the other listeners run':
    "process.on('uncaughtException', (e, origin) => console.log('caught', e.message, origin));\nsetTimeout(() => {\n"
    + "  const et = new EventTarget();\n  et.addEventListener('x', () => { throw new Error('thrown') });\n"
    + "  et.addEventListener('x', async () => { throw new Error('rejected') });\n  et.addEventListener('x', () => console.log('third listener'));\n"
    + "  et.dispatchEvent(new Event('x'));\n  console.log('dispatched');\n}, 1);",
  "'beforeExit' and 'exit', with the exit code":
    "process.on('exit', (code) => console.log('exit', code, process.exitCode));\n"
    + "process.on('beforeExit', (code) => console.log('beforeExit', code));\n"
    + "setTimeout(() => { console.log('timer'); process.exitCode = 3 }, 1);\nconsole.log('main');",
  "'beforeExit' listeners that start more work are called again":
    "let n = 0;\nprocess.on('beforeExit', () => { console.log('beforeExit', n); if (n++ < 2) setTimeout(() => console.log('timer', n), 1) });\n"
    + "process.on('exit', (code) => console.log('exit', code, n));",
  "once listeners and the monitor":
    "process.once('beforeExit', () => console.log('once'));\nprocess.on('exit', () => console.log('exit', process.listenerCount('beforeExit')));\n"
    + "process.on('uncaughtExceptionMonitor', (e, origin) => console.log('monitor', e.message, origin));\n"
    + "process.on('uncaughtException', () => console.log('handled'));\nsetTimeout(() => { throw new Error('m') }, 1);",
  'the capture callback takes precedence over listeners':
    "process.on('uncaughtException', () => console.log('listener'));\n"
    + "process.setUncaughtExceptionCaptureCallback((e) => console.log('captured', e.message));\n"
    + "console.log(process.hasUncaughtExceptionCaptureCallback());\n"
    + "try { process.setUncaughtExceptionCaptureCallback(() => {}) } catch (e) { console.log(e.name, e.code, e.message) }\n"
    + "try { process.setUncaughtExceptionCaptureCallback(1) } catch (e) { console.log(e.name, e.code, e.message) }\n"
    + "setTimeout(() => { throw new Error('c1'); }, 1);\nsetTimeout(() => { process.setUncaughtExceptionCaptureCallback(null); console.log(process.hasUncaughtExceptionCaptureCallback()) }, 5);",
  'a promise a platform callback returns rejects: listeners get the reason itself':
    "const { EventEmitter } = await import('node:events');\nconst timers = await import('node:timers');\n"
    + "const errors = ['timeout', 'immediate', 'microtask', 'nextTick', 'emitter', 'node:timers'].map((m) => new Error(m));\n"
    + "const steps = [\n  () => setTimeout(async () => { throw errors[0] }, 1),\n  () => setImmediate(async () => { throw errors[1] }),\n"
    + "  () => queueMicrotask(async () => { throw errors[2] }),\n  () => process.nextTick(async () => { throw errors[3] }),\n"
    + "  () => { const ee = new EventEmitter(); ee.on('x', async () => { throw errors[4] }); ee.emit('x') },\n"
    + "  () => timers.setTimeout(async () => { throw errors[5] }, 1),\n];\nlet i = 0;\n"
    + "process.on('unhandledRejection', (r, p) => { console.log('unhandled', r.message, r === errors[i], p instanceof Promise); i++; if (i < steps.length) setTimeout(steps[i], 1) });\n"
    + "steps[0]();",
  "process's listener API":
    "const f = () => console.log('f');\nprocess.on('beforeExit', f);\nprocess.prependListener('beforeExit', () => console.log('g'));\n"
    + "process.prependOnceListener('beforeExit', () => console.log('once'));\n"
    + "console.log(process.listenerCount('beforeExit'), process.eventNames().includes('beforeExit'), process.listeners('beforeExit').includes(f), process.rawListeners('beforeExit').length);\n"
    + "try { process.on('x', 1) } catch (e) { console.log(e.name, e.code, e.message) }",
  'nextTick in callbacks: ticks run after the callback, before its promise jobs':
    "const log = (m) => () => console.log(m);\nsetTimeout(() => {\n"
    + "  Promise.resolve().then(log('promise 1'));\n  process.nextTick(log('tick 1'));\n  queueMicrotask(log('microtask 1'));\n"
    + "  process.nextTick(() => { console.log('tick 2'); process.nextTick(log('tick 3')); Promise.resolve().then(log('promise 2')) });\n"
    + "  console.log('timer');\n}, 1);\n"
    + "setTimeout(() => { Promise.resolve().then(log('promise 3')); process.nextTick(log('tick 4')) }, 2);\n"
    + "setTimeout(() => { try { process.nextTick(1) } catch (e) { console.log(e.code, e.message) } }, 3);",
  "a fatal error still emits 'exit' with code 1":
    "process.on('exit', (code) => console.log('exit', code));\nsetTimeout(() => { throw new Error('fatal') }, 1);",
};

/**
 * Rejections the main body leaves unhandled: as Node on V8; QuickJS has no rejection tracker, so
 * there only those of promises a platform callback returned are seen (`quickjs`, its output).
 */
const REJECTIONS: Record<string, { code: string; quickjs: string }> = {
  "'unhandledRejection' gets the reason and a promise": {
    code: "process.on('unhandledRejection', (reason, promise) => console.log('unhandled', reason instanceof TypeError, reason.message, promise instanceof Promise));\n"
      + "Promise.reject(new TypeError('rejected'));\nsetTimeout(() => console.log('later'), 2);",
    quickjs: 'later\n',
  },
  "without 'unhandledRejection' listeners, a rejection is an uncaught exception": {
    code: "process.on('uncaughtException', (e, origin) => console.log('caught', e.message, origin));\n"
      + "(async () => { await null; throw new Error('async') })();\nsetTimeout(() => console.log('later'), 2);",
    quickjs: 'later\n',
  },
  'primitive reasons arrive as they are': {
    code: "process.on('unhandledRejection', (r) => console.log(typeof r, String(r), Object.is(r, -0)));\n"
      + "Promise.reject(-0);\nsetTimeout(() => Promise.reject(7n), 1);\nsetTimeout(() => Promise.reject('text'), 2);",
    quickjs: 'bigint 7 false\nstring text false\n',
  },
};

guestSuite('process events', (g) => {
  for (const [title, code] of Object.entries(DIFFERENTIAL)) {
    g.test(title, async (ctx) => {
      const [{ outcome, output }, expected] = await Promise.all([ctx.run(code), inNode(code)]);
      assert.equal(output, expected.stdout);
      // Node's exit code 1 is a fatal error (the run fails); process.exitCode does not fail a run.
      assert.equal(outcome.status, expected.code === 1 ? 'failed' : 'completed');
    });
  }

  for (const [title, { code, quickjs }] of Object.entries(REJECTIONS)) {
    g.test(title, async (ctx) => {
      const [{ outcome, output }, expected] = await Promise.all([ctx.run(code), inNode(code)]);
      assert.equal(outcome.status, 'completed');
      assert.equal(output, ctx.engine === 'v8' ? expected.stdout : quickjs);
    });
  }

  g.test("nextTick: the main body's ticks run before its promise jobs, as in a CommonJS main", async (ctx) => {
    const code = "const log = (m) => () => console.log(m);\nPromise.resolve().then(log('promise'));\nprocess.nextTick(log('tick'));\nconsole.log('sync');";
    const [{ outcome, output }, expected] = await Promise.all([ctx.run(code), inNode(code, true)]);
    assert.equal(outcome.status, 'completed');
    assert.equal(output, expected.stdout);
    assert.equal(output, 'sync\ntick\npromise\n');
  });

  g.test("assert.CallTracker refuses new tracked functions in an 'exit' listener, as Node's", async (ctx) => {
    const code = "const { CallTracker } = require('node:assert');\nconst t = new CallTracker();\nt.calls(() => {})();\nprocess.on('exit', () => { try { t.calls(() => {}); console.log('no error'); } catch (e) { console.log(e.name, e.code, e.message); } });";
    const [{ outcome, output }, expected] = await Promise.all([ctx.run(code), inNode(code, true)]);
    assert.equal(outcome.status, 'completed');
    assert.equal(output.replace(/^\[WARN\].*\n/m, ''), expected.stdout);
    assert.equal(expected.stdout, 'Error ERR_UNAVAILABLE_DURING_EXIT Cannot call function in process exit handler\n');
  });

  g.test('the main body throws: a listener takes it and the run completes with no result', async (ctx) => {
    const { outcome, output } = await ctx.run("process.on('uncaughtException', (e) => console.log('caught', e.message));\nawait null;\nthrow new Error('main')");
    assert.deepEqual(outcome, { status: 'completed', result: '' });
    assert.equal(output, 'caught main\n');
  });

  g.test('a listener that throws fails the run with what it threw', async (ctx) => {
    const { outcome } = await ctx.run("process.on('uncaughtException', (e) => { throw new TypeError('again: ' + e.message) });\nsetTimeout(() => { throw new Error('t1') }, 1)");
    assert.equal(outcome.status, 'failed');
    const first = ('error' in outcome ? outcome.error : '').split('\n')[0];
    assert.equal(first, 'Uncaught TypeError: again: t1');
  });

  g.test("an 'unhandledRejection' listener that throws: to 'uncaughtException', else the run fails", async (ctx) => {
    const code = "process.on('unhandledRejection', (r) => { throw new Error('from listener: ' + r.message) });\nPromise.reject(new Error('r1'));\nsetTimeout(() => {}, 5)";
    const { outcome } = await ctx.run(code);
    if (ctx.engine === 'quickjs') { assert.deepEqual(outcome, { status: 'completed', result: '1' }); return; }
    assert.equal(outcome.status, 'failed');
    assert.equal(('error' in outcome ? outcome.error : '').split('\n')[0], 'Uncaught Error: from listener: r1');
  });

  g.test('listeners removed before the rejection: the run fails with the text it always had', async (ctx) => {
    const code = "const f = () => {};\nprocess.on('unhandledRejection', f);\nprocess.off('unhandledRejection', f);\nPromise.reject(new RangeError('late')); 1";
    const { outcome } = await ctx.run(code);
    if (ctx.engine === 'quickjs') { assert.deepEqual(outcome, { status: 'completed', result: '1' }); return; }
    assert.equal(outcome.status, 'failed');
    assert.match('error' in outcome ? outcome.error : '', /^Uncaught RangeError: late\n    at file:\/\/\/main\.js:4:\d+$/);
  });

  g.test("a fatal rejection emits 'exit' with code 1 and fails the run with the text it always had", async (ctx) => {
    const { outcome, output } = await ctx.run("process.on('exit', (code) => console.log('exit', code));\nPromise.reject(new RangeError('fatal')); 1");
    if (ctx.engine === 'quickjs') { assert.deepEqual({ outcome, output }, { outcome: { status: 'completed', result: '1' }, output: 'exit 0\n' }); return; }
    assert.equal(output, 'exit 1\n');
    assert.match('error' in outcome ? outcome.error : '', /^Uncaught RangeError: fatal\n    at file:\/\/\/main\.js:2:\d+$/);
  });

  g.test("what an 'exit' listener throws is an uncaught exception, as in Node (it was lost)", async (ctx) => {
    const exitThrows = "process.on('exit', (code) => { console.log('exit', code); throw new TypeError('in exit') });\n5";
    const failed = await ctx.run(exitThrows);
    assert.equal(failed.output, 'exit 0\n');
    assert.equal(failed.outcome.status, 'failed');
    assert.match('error' in failed.outcome ? failed.outcome.error : '', /^Uncaught TypeError: in exit\n    at /);
    const caught = await ctx.run(`process.on('uncaughtException', (e, origin) => console.log('caught', e.message, origin));\n${exitThrows}`);
    assert.deepEqual(caught, { ...caught, outcome: { status: 'completed', result: '5' }, output: 'exit 0\ncaught in exit uncaughtException\n' });
  });

  g.test("'exit' listeners: work they start is not waited for, and the result stays the main's", async (ctx) => {
    const { outcome, output } = await ctx.run("process.on('exit', () => { console.log('exit'); setTimeout(() => console.log('never'), 1) });\n42");
    assert.deepEqual(outcome, { status: 'completed', result: '42' });
    assert.equal(output, 'exit\n');
  });
});
