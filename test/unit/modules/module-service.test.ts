import assert from 'node:assert/strict';
import { describe, test, before, after } from 'node:test';
import { mkdtempSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { ModuleService, type LoadedModule } from '../../../supervisor/modules/module-service.ts';
import { loadRegistryConfig, authFor, registryFor } from '../../../supervisor/modules/registry-config.ts';
import { startNpmRegistry, type NpmRegistry } from '../../helpers/npm-registry.ts';
import { publishFixtures } from '../../helpers/npm-fixtures.ts';

const require = createRequire(import.meta.url);
(globalThis as Record<symbol, unknown>)[Symbol.for('runjs.builtin')] = (name: string) => require(name);

/** Evaluates a bundle in this process (its builtins are Node's own here). */
async function evaluate(m: LoadedModule): Promise<Record<string, unknown>> {
  return await import(`data:text/javascript;base64,${Buffer.from(m.source).toString('base64')}`) as Record<string, unknown>;
}

describe('ModuleService', () => {
  let registry: NpmRegistry;
  let dir: string;
  const service = (): ModuleService => new ModuleService({ cacheDir: path.join(dir, 'modules'), registry: { registry: `${registry.url}/`, scopes: new Map([['@jsr', `${registry.url}/`]]), tokens: new Map() } });

  before(async () => {
    registry = await startNpmRegistry();
    publishFixtures(registry);
    dir = mkdtempSync(path.join(tmpdir(), 'runjs-modules-'));
  });
  after(() => registry.close());

  test('a dependency chain with a version conflict resolves like npm (nested node_modules)', async () => {
    const s = service();
    const r = await s.resolve('npm:app');
    assert.deepEqual(r, { specifier: 'npm:app', type: 'npm', resolvedUrl: `${registry.url}/app/-/app-1.0.0.tgz` });
    const m = await evaluate(await s.load('npm:app'));
    assert.deepEqual(m['default'], { leaf: '1.4.0', mid: '1.2.0', leafOfMid: '2.1.5' });
    const lock = JSON.parse(readFileSync(path.join(dir, 'modules', 'lock.json'), 'utf8')) as Record<string, { packages: { path: string; version: string }[] }>;
    assert.deepEqual(lock['npm:app']!.packages.map((p) => `${p.path}@${p.version}`),
      ['node_modules/app@1.0.0', 'node_modules/leaf@1.4.0', 'node_modules/mid@1.2.0', 'node_modules/mid/node_modules/leaf@2.1.5']);
  });

  test('ranges, dist-tags, exports conditions and subpaths, scoped and jsr: packages, CommonJS', async () => {
    const s = service();
    assert.deepEqual({ ...await evaluate(await s.load('npm:leaf@old')) }, { version: '2.1.5' });
    assert.deepEqual({ ...await evaluate(await s.load('npm:leaf@>=1 <2.2')) }, { version: '2.1.5' });
    assert.deepEqual({ ...await evaluate(await s.load('npm:cond')) }, { how: 'import' });
    assert.deepEqual({ ...await evaluate(await s.load('npm:cond@1/feature')) }, { feature: 'on' });
    assert.deepEqual({ ...await evaluate(await s.load('npm:@acme/tool@^0.3')) }, { tool: 'acme' });
    // A peer dependency is installed (the optional one is not).
    assert.deepEqual({ ...await evaluate(await s.load('npm:plugin')) }, { host: '2.2.0' });
    assert.equal((await evaluate(await s.load('jsr:@std/hello@1')) as { hello(n: string): string }).hello('jsr'), 'hello jsr');
    assert.equal((await s.load('npm:cjs-pkg')).commonjs, true);
    assert.equal((await s.load('npm:cond')).commonjs, false);
    const cjs = (await evaluate(await s.load('npm:cjs-pkg'))) as { default: { add(a: number, b: number): number; joined: string } };
    assert.equal(cjs.default.add(2, 3), 5);
    assert.equal(cjs.default.joined, 'a/b');
  });

  test('errors name the specifier and the reason', async () => {
    const s = service();
    await assert.rejects(s.resolve('npm:leaf@^9'), { message: "Cannot import 'npm:leaf@^9': no version of leaf matches '^9' (latest versions: 1.0.0, 1.4.0, 2.1.0, 2.1.5, 2.2.0)", code: 'ERR_MODULE_NOT_FOUND' });
    await assert.rejects(s.resolve('npm:nope'), { message: `Cannot import 'npm:nope': GET ${registry.url}/nope answered HTTP 404` });
    await assert.rejects(s.resolve('jsr:nope'), /is not a valid jsr: specifier/);
    await assert.rejects(s.resolve('file:///etc/passwd'), { message: "Cannot import 'file:///etc/passwd': only https/http modules are supported" });
    registry.publish('sneaky', '1.0.0', { files: { 'index.js': '' }, manifest: { dependencies: { '../../../escape': '1' } } });
    await assert.rejects(s.resolve('npm:sneaky'), { message: "Cannot import 'npm:sneaky': sneaky@1.0.0 depends on '../../../escape', which is not a valid package name" });
    await assert.rejects(s.load('npm:cond/missing'), /Cannot import 'npm:cond\/missing': bundling failed: .*missing/);
  });

  test('an integrity mismatch is a clear error, and nothing is cached or locked', async () => {
    const s = service();
    const blobs = (): number => (existsSync(path.join(dir, 'modules', 'blobs')) ? readdirSync(path.join(dir, 'modules', 'blobs')).length : 0);
    const before = blobs();
    await assert.rejects(s.load('npm:tampered'), (e: Error) => {
      assert.match(e.message, new RegExp(`^Cannot import 'npm:tampered': integrity check failed for tampered@1\\.0\\.0 \\(${registry.url.replace(/\./g, '\\.')}/tampered/-/tampered-1\\.0\\.0\\.tgz\\): expected sha512-\\S+, got sha512-\\S+$`));
      return true;
    });
    assert.equal(blobs(), before);
    const lock = JSON.parse(readFileSync(path.join(dir, 'modules', 'lock.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(lock['npm:tampered'], undefined);
  });

  test('URL modules: relative imports resolve against the referrer, .ts is type-stripped, bodies are pinned', async () => {
    const s = service();
    assert.deepEqual({ ...await evaluate(await s.load(`${registry.url}/mods/main.ts`)) }, { answer: 42 });
    // Relative imports of a redirected module resolve against where it was found.
    assert.deepEqual({ ...await evaluate(await s.load(`${registry.url}/latest/entry.js`)) }, { version: 'v2' });
    const lock = JSON.parse(readFileSync(path.join(dir, 'modules', 'lock.json'), 'utf8')) as Record<string, { urls: { url: string }[] }>;
    assert.deepEqual(lock[`${registry.url}/mods/main.ts`]!.urls.map((u) => u.url), [`${registry.url}/mods/lib/twice.ts`, `${registry.url}/mods/main.ts`]);
  });

  test('a second server sharing the cache needs no network: the lock pins what was resolved', async () => {
    const seen = registry.seen.length;
    // New versions published since do not change a locked resolution.
    registry.publish('leaf', '1.9.0', { files: { 'index.js': "export const version = '1.9.0';" }, manifest: { type: 'module', main: 'index.js' } });
    registry.file('/mods/lib/twice.ts', 'export function twice(n: number): number { return n * 3; }');
    await registry.close();
    const s = service();
    assert.deepEqual((await evaluate(await s.load('npm:app')))['default'], { leaf: '1.4.0', mid: '1.2.0', leafOfMid: '2.1.5' });
    assert.deepEqual({ ...await evaluate(await s.load(`${registry.url}/mods/main.ts`)) }, { answer: 42 });
    assert.deepEqual(await s.resolve('npm:cjs-pkg'), { specifier: 'npm:cjs-pkg', type: 'npm', resolvedUrl: `${registry.url}/cjs-pkg/-/cjs-pkg-3.0.0.tgz` });
    // Without the bundles, the tarballs in the blob store are enough.
    const fresh = new ModuleService({ cacheDir: path.join(dir, 'modules'), registry: { registry: `${registry.url}/`, scopes: new Map(), tokens: new Map() } });
    rmSync(path.join(dir, 'modules', 'bundles'), { recursive: true });
    assert.deepEqual({ ...await evaluate(await fresh.load('npm:app')) }, { default: { leaf: '1.4.0', mid: '1.2.0', leafOfMid: '2.1.5' } });
    assert.deepEqual({ ...await evaluate(await fresh.load(`${registry.url}/mods/main.ts`)) }, { answer: 42 });
    assert.deepEqual({ ...await evaluate(await fresh.load(`${registry.url}/latest/entry.js`)) }, { version: 'v2' });
    assert.equal(registry.seen.length, seen);
  });
});

describe('registry configuration', () => {
  test('npm_config_registry, then the project .npmrc, then ~/.npmrc; scopes and tokens', () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'runjs-npmrc-'));
    const home = mkdtempSync(path.join(tmpdir(), 'runjs-home-'));
    writeFileSync(path.join(home, '.npmrc'), 'registry=https://home.example/npm/\n//mirror.example/npm/:_authToken=${TOKEN}\n');
    writeFileSync(path.join(cwd, '.npmrc'), '# company mirror\nregistry = https://mirror.example/npm\n@acme:registry=https://acme.example/\n');
    const c = loadRegistryConfig({ TOKEN: 's3cret' }, cwd, home);
    assert.equal(c.registry, 'https://mirror.example/npm/');
    assert.equal(registryFor(c, '@acme/x'), 'https://acme.example/');
    assert.equal(registryFor(c, '@jsr/std__fs'), 'https://npm.jsr.io/');
    assert.equal(registryFor(c, 'zod'), 'https://mirror.example/npm/');
    assert.equal(authFor(c, 'https://mirror.example/npm/zod'), 'Bearer s3cret');
    assert.equal(authFor(c, 'https://other.example/zod'), undefined);
    assert.equal(loadRegistryConfig({ NPM_CONFIG_REGISTRY: 'http://127.0.0.1:4873' }, cwd, home).registry, 'http://127.0.0.1:4873/');
    assert.equal(loadRegistryConfig({}, home, path.join(home, 'none')).registry, 'https://home.example/npm/');
  });
});
