// The packages the external-module tests publish to their registry (test/helpers/npm-registry.ts):
// a dependency chain with a version conflict (nested node_modules), a CommonJS package that
// requires a builtin, a package with `exports` conditions and a subpath, a scoped package, a JSR
// package (as JSR's npm registry names it) and one whose published integrity is wrong.
import type { NpmRegistry } from './npm-registry.ts';

export function publishFixtures(r: NpmRegistry): void {
  for (const v of ['1.0.0', '1.4.0']) r.publish('leaf', v, { files: { 'index.js': `export const version = '${v}';` }, manifest: { type: 'module', main: 'index.js' } });
  for (const v of ['2.1.0', '2.1.5', '2.2.0']) r.publish('leaf', v, { files: { 'index.js': `export const version = '${v}';` }, manifest: { type: 'module', main: 'index.js' } }, v === '2.2.0' ? 'latest' : 'old');
  for (const v of ['1.0.0', '1.2.0', '2.0.0']) {
    r.publish('mid', v, { files: { 'index.js': `import { version } from 'leaf'; export const mid = '${v}'; export const leafOfMid = version;` }, manifest: { type: 'module', main: 'index.js', dependencies: { leaf: '~2.1' } } });
  }
  r.publish('app', '1.0.0', {
    files: { 'index.js': "import { version } from 'leaf'; import { mid, leafOfMid } from 'mid'; export default { leaf: version, mid, leafOfMid };" },
    manifest: { type: 'module', main: 'index.js', dependencies: { leaf: '^1.0.0', mid: '^1' } },
  });
  r.publish('cjs-pkg', '3.0.0', {
    files: {
      'index.js': "const util = require('./util'); const path = require('path'); exports.add = util.add; exports.joined = path.join('a', 'b');",
      'util.js': 'module.exports = { add: (a, b) => a + b };',
    },
    manifest: { main: 'index.js' },
  });
  r.publish('cond', '1.0.0', {
    files: { 'esm.mjs': "export const how = 'import';", 'cjs.cjs': "exports.how = 'require';", 'feature.mjs': "export const feature = 'on';" },
    manifest: { exports: { '.': { import: './esm.mjs', require: './cjs.cjs' }, './feature': { import: './feature.mjs' } } },
  });
  r.publish('plugin', '1.0.0', {
    files: { 'index.js': "import { version } from 'leaf'; export const host = version;" },
    manifest: { type: 'module', main: 'index.js', peerDependencies: { leaf: '^2', absent: '^1' }, peerDependenciesMeta: { absent: { optional: true } } },
  });
  r.publish('@acme/tool', '0.3.1', { files: { 'index.js': "export const tool = 'acme';" }, manifest: { type: 'module', main: 'index.js' } });
  r.publish('@jsr/std__hello', '1.0.0', { files: { 'mod.js': "export function hello(n) { return `hello ${n}`; }" }, manifest: { type: 'module', exports: { '.': './mod.js' } } });
  r.publish('tampered', '1.0.0', { files: { 'index.js': 'export const x = 1;' }, manifest: { type: 'module', main: 'index.js' }, badIntegrity: true });
  r.file('/mods/main.ts', "import { twice } from './lib/twice.ts'; export const answer: number = twice(21);");
  r.redirect('/latest/entry.js', '/v2/entry.js');
  r.file('/v2/entry.js', "export { version } from './version.js';");
  r.file('/v2/version.js', "export const version = 'v2';");
  r.file('/mods/lib/twice.ts', 'export function twice(n: number): number { return n * 2; }');
}
