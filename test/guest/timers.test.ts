// Timers and the event loop behave the same on both engines: ordering against promises,
// clearTimeout, arguments, nesting, and awaiting timers at top level.
import assert from 'node:assert/strict';
import { guestSuite } from '../helpers/both-engines.ts';

guestSuite('timers', (g) => {
  g.test('microtasks run before timers; timers run by delay, then in order of creation', async (ctx) => {
    // 200 ms: the script is not paused that long between two statements, even on a loaded machine
    // (a timer is due from when it is set, as in Node, so a long pause would reorder them there too).
    assert.equal(await ctx.output([
      'setTimeout(() => console.log("t200"), 200);',
      'setTimeout((a, b) => console.log("t0", a, b), 0, "x", 2);',
      'setTimeout(() => console.log("t0 second"), 0);',
      'Promise.resolve().then(() => console.log("micro"));',
      'console.log("sync");',
    ].join('\n')), 'sync\nmicro\nt0 x 2\nt0 second\nt200\n');
  });

  g.test('clearTimeout cancels; nested timers and awaited sleeps complete before the run ends', async (ctx) => {
    assert.equal(await ctx.output([
      'const id = setTimeout(() => console.log("never"), 5); clearTimeout(id); clearTimeout(12345);',
      'const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));',
      // The nested timer is awaited: which of it and the sleep fires first depends on the machine's load.
      'const nested = new Promise((ok) => setTimeout(() => setTimeout(() => { console.log("nested"); ok(); }, 5), 5));',
      'const t0 = Date.now(); await sleep(30); const slept = Date.now() - t0 >= 25; await nested; console.log("slept", slept);',
    ].join('\n')), 'nested\nslept true\n');
  });

  g.test('Node\'s order: an immediate runs before timeouts set beside it, a 0 ms timeout is a 1 ms one, expired timers run by due time', async (ctx) => {
    assert.equal(await ctx.output([
      'const spin = (ms: number) => { const end = Date.now() + ms; while (Date.now() < end); };',
      // Set in a timer callback, with the timeout first and a slow stretch between: Node's check
      // phase runs the immediate before the next timers phase runs the timeout.
      'setTimeout(() => { setTimeout(() => console.log("timeout"), 0); spin(5); setImmediate(() => console.log("immediate")); }, 1);',
      'await new Promise((ok) => setTimeout(ok, 30));',
      // 0 and 1 ms are one duration: creation order.
      'setTimeout(() => console.log("one"), 1); setTimeout(() => console.log("zero"), 0);',
      'await new Promise((ok) => setTimeout(ok, 30));',
      // Both expired by the time the script yields: the earlier due runs first.
      'setTimeout(() => console.log("t100"), 100); spin(10); setTimeout(() => console.log("t2"), 2); spin(110);',
    ].join('\n')), 'immediate\ntimeout\none\nzero\nt2\nt100\n');
  });

  g.test('setInterval is absent; timer ids are positive integers', async (ctx) => {
    assert.equal(await ctx.output('const a = setTimeout(() => {}, 0), b = setTimeout(() => {}, 0); console.log(typeof setInterval, Number.isInteger(a) && a > 0, b > a)'), 'undefined true true\n');
  });

  g.test('a delay over 2^31-1 ms (or Infinity) overflows to 1 ms, as in Node', async (ctx) => {
    // With a 5 s run timeout, a delay kept at ~24.8 days would time the run out instead.
    const res = await ctx.run('await new Promise((ok) => setTimeout(ok, 2 ** 31)); await new Promise((ok) => setTimeout(ok, Infinity)); "fired"', { timeoutMs: 5000 });
    assert.deepEqual(res.outcome, { status: 'completed', result: '"fired"' });
  });

  g.test('node:timers setTimeout returns a Timeout (unref lets the run end, refresh, clear by object or id); util.promisify(setTimeout) works', async (ctx) => {
    assert.equal(await ctx.output([
      'const timers = require("timers"); const util = require("util");',
      'const t = timers.setTimeout(() => console.log("never"), 50000).unref(); console.log(typeof t.ref, t.hasRef(), typeof +t, +t < 0);',
      'const u = timers.setTimeout(() => console.log("fired", u.hasRef()), 5); console.log(u.hasRef());',
      'const c = timers.setTimeout(() => console.log("cleared?!"), 5); timers.clearTimeout(c);',
      'const d = timers.setTimeout(() => console.log("cleared by id?!"), 5); timers.clearTimeout(+d);',
      'console.log("promisified", await util.promisify(setTimeout)(5, "val"), await util.promisify(timers.setTimeout)(1, "v2"));',
      'await new Promise((r) => timers.setTimeout(r, 10).refresh());',
      'console.log("done", typeof setTimeout(() => {}, 0));',
    ].join('\n')), 'function false number true\ntrue\nfired true\npromisified val v2\ndone number\n');
  });
});
