// Dynamic import() and import.meta behave the same on both engines (worker/source/module-syntax.ts):
// built-in modules resolve; everything else rejects with the text a static import fails with.
import assert from 'node:assert/strict';
import { guestSuite } from '../helpers/both-engines.ts';

const NPM_TEXT = "External module imports are disabled. Cannot import npm package 'npm:lodash'. Start the server with --allow-external-modules to enable.";

guestSuite('dynamic import()', (g) => {
  g.test('a built-in module resolves to a namespace with its exports and default', async (ctx) => {
    assert.deepEqual((await ctx.run("(await import('node:path')).join('a', 'b')")).outcome, { status: 'completed', result: '"a/b"' });
    const code = "const m = await import('path'); [m.default.sep, typeof m.join, Object.prototype.toString.call(m), Object.isFrozen(m), m === await import('node:path')]";
    assert.deepEqual((await ctx.run(code)).outcome, { status: 'completed', result: '["/","function","[object Module]",true,true]' });
  });

  g.test('the specifier may be computed, and .then works', async (ctx) => {
    assert.deepEqual((await ctx.run("const n = 'pa' + 'th'; import(`node:${n}`).then((m) => m.basename('/a/b.txt'))")).outcome, { status: 'completed', result: '"b.txt"' });
  });

  g.test('npm: rejects with the static-import text; uncaught, it fails the run', async (ctx) => {
    assert.deepEqual((await ctx.run("await import('npm:lodash').catch((e) => [e instanceof Error, e.message, e.code])")).outcome,
      { status: 'completed', result: JSON.stringify([true, NPM_TEXT, 'ERR_MODULE_NOT_FOUND']) });
    const { outcome } = await ctx.run("await import('npm:lodash')");
    assert.equal(outcome.status, 'failed');
    assert.match('error' in outcome ? outcome.error : '', new RegExp(`^Uncaught Error: ${NPM_TEXT.replace(/[.()]/g, '\\$&')}\\n    at file:///main\\.js:\\d+:\\d+$`));
  });

  g.test('the same text as a static import for npm:, unknown built-ins and relative paths', async (ctx) => {
    for (const specifier of ['npm:lodash', 'node:nope', './x.js', 'https://example.com/m.js']) {
      const staticRun = await ctx.run(`import x from '${specifier}'; x`);
      const dynamicRun = await ctx.run(`await import('${specifier}').catch((e) => e.message)`);
      assert.equal(staticRun.outcome.status, 'failed');
      assert.deepEqual(dynamicRun.outcome, { status: 'completed', result: JSON.stringify('error' in staticRun.outcome ? staticRun.outcome.error : '') });
    }
  });

  g.test('import.meta describes the script as /main.js', async (ctx) => {
    assert.deepEqual((await ctx.run('[import.meta.url, import.meta.filename, import.meta.dirname]')).outcome,
      { status: 'completed', result: '["file:///main.js","/main.js","/"]' });
  });
});
