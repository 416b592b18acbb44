// The result and the error text a run sends back are capped in the worker
// (shared/outcome-limits.ts): a result over 1 MiB of JSON fails the run, an error text
// over 64 Ki characters is cut with a notice — on both engines.
import assert from 'node:assert/strict';
import { guestSuite } from '../helpers/both-engines.ts';

guestSuite('outcome limits', (g) => {
  g.test('a result of exactly 1 MiB of JSON is returned whole', async (ctx) => {
    const { outcome } = await ctx.run("'x'.repeat(1024 * 1024 - 2)", { heapMemoryMaxMb: 64 });
    assert.deepEqual(outcome, { status: 'completed', result: `"${'x'.repeat(1024 * 1024 - 2)}"` });
  });

  g.test('a result one byte over 1 MiB fails the run with the size', async (ctx) => {
    const { outcome } = await ctx.run("'é'.repeat(512 * 1024)", { heapMemoryMaxMb: 64 });
    assert.deepEqual(outcome, {
      status: 'failed',
      error: "Result too large: the script's result is 1048578 bytes of JSON, more than the limit of 1048576 bytes (1 MiB). Return a smaller value; print large data with console.log or store it with artifact().",
    });
  });

  g.test('an error text over 64 Ki characters is cut with a notice', async (ctx) => {
    const { outcome } = await ctx.run("throw new Error('x'.repeat(3e6))", { heapMemoryMaxMb: 64 });
    assert.equal(outcome.status, 'failed');
    const error = 'error' in outcome ? outcome.error : '';
    const head = `Uncaught Error: ${'x'.repeat(65536 - 'Uncaught Error: '.length)}`;
    assert.ok(error.startsWith(`${head}… [runjs] error text truncated: `), error.slice(65500, 65700));
    assert.match(error.slice(head.length), /^… \[runjs\] error text truncated: \d+ more characters$/);
    assert.ok(Number(/(\d+) more/.exec(error)![1]) > 3e6 - 65536);
  });
});
