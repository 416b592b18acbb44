// Publishes packages installed in this repository's node_modules to a test registry
// (npm-registry.ts): a package and its whole `dependencies` closure, each found the way Node finds
// it from the package that needs it, packed from its installed files as npm would pack them. The
// packuments carry the real manifests (so the resolver sees the real ranges) and dist.integrity
// of the tarballs built here. Type declarations, source maps and docs are left out: nothing a
// bundle reads, and they would make the tarballs several times larger.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { NpmRegistry } from './npm-registry.ts';

const PACKED = /\.(js|cjs|mjs|json|proto)$/;
const LEFT_OUT = /\.d\.(ts|cts|mts)$|\.map$/;

function packageFiles(dir: string, at = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(path.join(dir, at), { withFileTypes: true })) {
    const rel = at === '' ? e.name : `${at}/${e.name}`;
    if (e.name === 'node_modules' || LEFT_OUT.test(e.name)) continue;
    if (e.isDirectory()) Object.assign(out, packageFiles(dir, rel));
    else if (e.isFile() && PACKED.test(e.name) && rel !== 'package.json') out[rel] = readFileSync(path.join(dir, rel), 'utf8');
  }
  return out;
}

/** Where `name` is installed, seen from the package directory `from`. */
function packageDir(name: string, from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`${name} is not installed (looked from ${from})`);
  }
}

/** Publishes `name` and its dependency closure; returns `name@version` of each, sorted. */
export function publishInstalled(registry: NpmRegistry, name: string, root = process.cwd()): string[] {
  const published = new Set<string>();
  const queue = [packageDir(name, root)];
  while (queue.length > 0) {
    const dir = queue.shift()!;
    const { name: pkgName, version, ...manifest } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown> & { name: string; version: string };
    if (published.has(`${pkgName}@${version}`)) continue;
    published.add(`${pkgName}@${version}`);
    registry.publish(pkgName, version, { files: packageFiles(dir), manifest });
    const deps = (manifest['dependencies'] ?? {}) as Record<string, string>;
    for (const dep of Object.keys(deps)) queue.push(packageDir(dep, dir));
  }
  return [...published].sort();
}
