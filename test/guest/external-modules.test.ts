// External modules (--allow-external-modules) through real workers on both engines: the
// supervisor's ModuleService resolves against a registry this test serves on 127.0.0.1, the
// `modules` policy decides in the worker, and a second run needs no network.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { guestSuite } from '../helpers/both-engines.ts';
import { OpRouter } from '../../supervisor/pool/op-router.ts';
import { ModuleService } from '../../supervisor/modules/module-service.ts';
import { startNpmRegistry, type NpmRegistry } from '../helpers/npm-registry.ts';
import { publishFixtures } from '../helpers/npm-fixtures.ts';
import { parsePolicyConfig } from '../../supervisor/config/policy-config.ts';

let registry: NpmRegistry;
const dir = mkdtempSync(path.join(tmpdir(), 'runjs-ext-modules-'));
const hook = path.join(dir, 'modules-hook.js');
writeFileSync(hook, "export default function (input) { return input.specifier.includes('denied') ? { allow: false, reason: `no ${input.specifier_type} ${input.specifier} (${input.url_parsed.host})` } : undefined; }\n");
const policies = parsePolicyConfig({ modules: { mode: 'all', policies: [{ url: `file://${hook}` }] } });

before(async () => {
  registry = await startNpmRegistry();
  publishFixtures(registry);
  registry.publish('denied-pkg', '1.0.0', { files: { 'index.js': 'export const x = 1;' }, manifest: { type: 'module', main: 'index.js' } });
  registry.publish('ticker', '1.0.0', {
    files: { 'index.js': 'export function ticks(n) { return new Promise((resolve) => { let i = 0; const t = setInterval((step) => { i += step; if (i === n) { clearInterval(t); resolve([i, typeof t.unref]); } }, 1, 1); }); }' },
    manifest: { type: 'module', main: 'index.js' },
  });
  registry.publish('own-interval', '1.0.0', { files: { 'index.js': "function setInterval() { return 'mine'; } export const own = setInterval();" }, manifest: { type: 'module', main: 'index.js' } });
});
after(() => registry?.close());

// The registry starts in before(); the service reads its URL at each request.
const service = new ModuleService({
  cacheDir: path.join(dir, 'modules'),
  registry: { get registry() { return `${registry.url}/`; }, get scopes() { return new Map([['@jsr', `${registry.url}/`]]); }, tokens: new Map() },
});

guestSuite('external modules', (g) => {
  g.test('npm: packages — a dependency chain, CommonJS, exports conditions, scoped and jsr:', async (ctx) => {
    const code = `import app from 'npm:app@1';
import cjs from 'npm:cjs-pkg@^3';
import { how } from 'npm:cond';
import { feature } from 'npm:cond/feature';
import { tool } from 'npm:@acme/tool';
import { hello } from 'jsr:@std/hello';
[app, cjs.add(1, 2), cjs.joined, how, feature, tool, hello('x')]`;
    assert.deepEqual((await ctx.run(code)).outcome,
      { status: 'completed', result: JSON.stringify([{ leaf: '1.4.0', mid: '1.2.0', leafOfMid: '2.1.5' }, 3, 'a/b', 'import', 'on', 'acme', 'hello x']) });
  });

  g.test('a package may use setInterval (module-local, on node:timers); the script still has none; a package\'s own setInterval is its own', async (ctx) => {
    const code = "import { ticks } from 'npm:ticker'; import { own } from 'npm:own-interval'; [await ticks(3), own, typeof setInterval]";
    assert.deepEqual((await ctx.run(code)).outcome, { status: 'completed', result: JSON.stringify([[3, 'function'], 'mine', 'undefined']) });
  });

  g.test('a CommonJS package gives its default and the names a script imports', async (ctx) => {
    const code = "import cjs, { add, joined, missing } from 'npm:cjs-pkg@3'; import * as ns from 'npm:cjs-pkg@3'; [add(2, 2), joined, missing === undefined, cjs.add === add, Object.keys(ns).sort()]";
    assert.deepEqual((await ctx.run(code)).outcome, { status: 'completed', result: JSON.stringify([4, 'a/b', true, true, ['add', 'default', 'joined', 'missing']]) });
  });

  g.test('import() with a literal specifier loads before the script starts; a computed one says why it cannot', async (ctx) => {
    const code = "const m = await import('npm:@acme/tool'); const again = await import('npm:@acme/tool'); const n = 'npm:' + 'leaf'; [m.tool, m === again, await import(n).catch((e) => [e.message, e.code])]";
    assert.deepEqual((await ctx.run(code)).outcome, { status: 'completed', result: JSON.stringify(['acme', true,
      ["Cannot import 'npm:leaf': import() of an external module needs a string-literal specifier (external modules load before the script starts)", 'ERR_MODULE_NOT_FOUND']]) });
    assert.deepEqual((await ctx.run("(await import('node:path')).join('a', 'b')")).outcome, { status: 'completed', result: '"a/b"' });
  });

  g.test('URL modules: relative imports and TypeScript', async (ctx) => {
    assert.deepEqual((await ctx.run(`import { answer } from '${registry.url}/mods/main.ts'; answer`)).outcome, { status: 'completed', result: '42' });
  });

  g.test('failures: an unknown version, an integrity mismatch, a policy denial', async (ctx) => {
    assert.deepEqual((await ctx.run("import x from 'npm:leaf@^7'; x")).outcome,
      { status: 'failed', error: "Cannot import 'npm:leaf@^7': no version of leaf matches '^7' (latest versions: 1.0.0, 1.4.0, 2.1.0, 2.1.5, 2.2.0)" });
    const tampered = await ctx.run("import { x } from 'npm:tampered'; x");
    assert.equal(tampered.outcome.status, 'failed');
    assert.match('error' in tampered.outcome ? tampered.outcome.error : '', /^Cannot import 'npm:tampered': integrity check failed for tampered@1\.0\.0 \(http:\/\/127\.0\.0\.1:\d+\/tampered\/-\/tampered-1\.0\.0\.tgz\): expected sha512-\S+, got sha512-\S+$/);
    assert.deepEqual((await ctx.run("import { x } from 'npm:denied-pkg'; x")).outcome,
      { status: 'failed', error: 'modules denied by policy: no npm npm:denied-pkg (127.0.0.1)' });
    const denied = await ctx.run("import { x } from 'npm:denied-pkg'; x");
    assert.equal(denied.decisions?.entries.at(-1)?.category, 'modules');
  });

  g.test('the modules policy sees the specifier, its type and the resolved URL', async (ctx) => {
    const res = await ctx.run("import { tool } from 'npm:@acme/tool'; tool");
    const entry = res.decisions?.entries.find((e) => e.category === 'modules');
    assert.deepEqual(entry?.input, { specifier: 'npm:@acme/tool', specifier_type: 'npm', resolved_url: `${registry.url}/@acme/tool/-/tool-0.3.1.tgz`, url_parsed: { scheme: 'http', host: '127.0.0.1', port: Number(new URL(registry.url).port), path: '/@acme/tool/-/tool-0.3.1.tgz', query: '' } });
  });

  g.test('with the registry down, a second run is served from the cache', async (ctx) => {
    registry.down = true;
    try {
      const seen = registry.seen.length;
      const res = await ctx.run(`import app from 'npm:app@1'; import { tool } from 'npm:@acme/tool'; import { answer } from '${registry.url}/mods/main.ts'; [app.mid, tool, answer]`);
      assert.deepEqual(res.outcome, { status: 'completed', result: '["1.2.0","acme",42]' });
      assert.equal(registry.seen.length, seen);
    } finally {
      registry.down = false;
    }
  });
}, { ops: new OpRouter([service.routes()], () => {}), pool: { externalModules: true, policies } });
