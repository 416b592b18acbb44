// Builds dist/, the JavaScript the npm package runs (`npm pack` and `npm publish` run this as
// `prepack`): Node does not strip types of files under node_modules, so an installed runjs must
// not depend on type stripping. dist/ is laid out like the checkout's root, so every path a module
// finds relative to itself (the worker entry, the guest bundle, bridge.js, package.json) is the
// same in both:
//   dist/{supervisor,worker,shared}/**/*.js  compiled by tsc (tsconfig.build.json): types erased,
//                                           relative `.ts` imports rewritten to `.js`, nothing
//                                           downlevelled (target esnext), no type check (that is
//                                           `npm run typecheck`'s job)
//   dist/{supervisor,worker,shared}/**       every other file copied as is (guest bundle, bridge.js,
//                                           module-exports.json, the guest prelude)
//   dist/package.json                       name, version and module type of the package
// Run by hand: node scripts/build-package.ts
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIST = join(ROOT, 'dist');
const SOURCE_DIRS = ['supervisor', 'worker', 'shared'];

function* filesOf(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesOf(full);
    else yield full;
  }
}

rmSync(DIST, { recursive: true, force: true });

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--noCheck'], { stdio: 'inherit' });
if (compiled.status !== 0) {
  process.stderr.write(`build-package: tsc failed (status ${compiled.status ?? compiled.signal})\n`);
  process.exit(1);
}

let assets = 0;
for (const dir of SOURCE_DIRS) {
  for (const file of filesOf(join(ROOT, dir))) {
    if (file.endsWith('.ts')) continue;
    const target = join(DIST, file.slice(ROOT.length));
    mkdirSync(dirname(target), { recursive: true });
    cpSync(file, target);
    assets++;
  }
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string; type: string };
writeFileSync(join(DIST, 'package.json'), `${JSON.stringify({ name: pkg.name, version: pkg.version, type: pkg.type }, null, 2)}\n`);

const modules = [...filesOf(DIST)].length - assets - 1;
process.stderr.write(`build-package: dist/ holds ${modules} compiled modules and ${assets} copied files\n`);
