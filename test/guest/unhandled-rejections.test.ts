// Unhandled promise rejections (docs/script-environment.md "Unhandled rejections"). On V8 they are
// fatal as in Node: the run fails with `Uncaught <Name>: <message>` and the guest stack. The
// QuickJS build exposes no promise-rejection tracker, so there the run goes on; both halves are
// pinned here so a change on either engine is noticed.
import assert from 'node:assert/strict';
import { guestSuite } from '../helpers/both-engines.ts';

guestSuite('unhandled rejections', (g) => {
  g.test('an Error rejection nothing handles', async (ctx) => {
    const { outcome } = await ctx.run("Promise.reject(new TypeError('unhandled')); 1");
    if (ctx.engine === 'quickjs') { assert.deepEqual(outcome, { status: 'completed', result: '1' }); return; }
    assert.equal(outcome.status, 'failed');
    assert.match('error' in outcome ? outcome.error : '', /^Uncaught TypeError: unhandled\n    at file:\/\/\/main\.js:\d+:\d+$/);
  });

  g.test('an async function that throws and is never awaited', async (ctx) => {
    const { outcome } = await ctx.run("async function f() { throw new RangeError('boom') }\nf(); 2");
    if (ctx.engine === 'quickjs') { assert.deepEqual(outcome, { status: 'completed', result: '2' }); return; }
    assert.equal(outcome.status, 'failed');
    assert.match('error' in outcome ? outcome.error : '', /^Uncaught RangeError: boom\n    at f \(file:\/\/\/main\.js:\d+:\d+\)\n    at file:\/\/\/main\.js:\d+:\d+$/);
  });

  g.test('a rejection in a timer callback', async (ctx) => {
    const { outcome } = await ctx.run("setTimeout(() => { Promise.reject(new Error('later')) }, 1); 1");
    if (ctx.engine === 'quickjs') { assert.deepEqual(outcome, { status: 'completed', result: '1' }); return; }
    assert.equal(outcome.status, 'failed');
    assert.match('error' in outcome ? outcome.error : '', /^Uncaught Error: later\n    at /);
  });

  g.test('non-Error reasons', async (ctx) => {
    const expected = (text: string, result: string) => (ctx.engine === 'quickjs' ? { status: 'completed', result } : { status: 'failed', error: text });
    assert.deepEqual((await ctx.run('Promise.reject(42); 1')).outcome, expected('Uncaught 42', '1'));
    assert.deepEqual((await ctx.run("Promise.reject('text'); 1")).outcome, expected('Uncaught text', '1'));
    assert.deepEqual((await ctx.run('Promise.reject({ a: 1 }); 1')).outcome, expected('Uncaught (in promise) a non-Error object: a promise was rejected with an object that is not an Error, and nothing handled the rejection', '1'));
  });

  g.test('a rejection handled within the same turn is not fatal', async (ctx) => {
    assert.deepEqual((await ctx.run("const p = Promise.reject(new Error('x')); await null; p.catch(() => {}); 'ok'")).outcome, { status: 'completed', result: '"ok"' });
    assert.deepEqual((await ctx.run("await Promise.reject(new Error('x')).catch((e) => e.message)")).outcome, { status: 'completed', result: '"x"' });
  });
});
