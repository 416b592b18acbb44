// External modules (docs/packages.md): what importing a cached mid-size package costs a run.
// `diff` (≈ 1 MB unpacked, a ≈ 60 KB bundle) is packed from node_modules and served by a registry
// on 127.0.0.1; the first import resolves, downloads and bundles it, after which every run gets
// the bundle from the supervisor's memory. Measured round by round through a real worker (V8):
// `import { diffChars } from 'npm:diff'` plus a trivial call, against the same trivial run without
// the import. `modules.cached_import_ms` is the median per-round difference (target ≤ 5 ms);
// `modules.builtin_import_ms`, the same difference for `import { join } from 'node:path'`, is what
// any import costs a run today (the engine's module-linking path), for comparison.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, roundFigure, type BenchOptions, type Metric } from './bench-kit.ts';
import { PoolRunner } from '../../test/helpers/pool-runner.ts';
import { startNpmRegistry } from '../../test/helpers/npm-registry.ts';
import { ModuleService } from '../../supervisor/modules/module-service.ts';
import { OpRouter } from '../../supervisor/pool/op-router.ts';

export const metricPrefixes = ['modules.'];

function packageFiles(dir: string, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) Object.assign(out, packageFiles(full, `${prefix}${name}/`));
    else if (name !== 'package.json' || prefix !== '') out[`${prefix}${name}`] = readFileSync(full, 'utf8');
  }
  return out;
}

export async function run(opts: BenchOptions): Promise<Metric[]> {
  if (!opts.wants('modules.cached_import_ms') && !opts.wants('modules.builtin_import_ms')) return [];
  const pkgDir = fileURLToPath(new URL('../../node_modules/diff/', import.meta.url));
  const manifest = JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as Record<string, unknown>;
  const registry = await startNpmRegistry();
  const { name: _n, version, ...rest } = manifest;
  registry.publish('diff', String(version), { files: packageFiles(pkgDir), manifest: rest });
  const cacheDir = mkdtempSync(path.join(tmpdir(), 'runjs-bench-modules-'));
  const service = new ModuleService({ cacheDir, registry: { registry: `${registry.url}/`, scopes: new Map(), tokens: new Map() } });
  const runner = new PoolRunner(1, 100, 200, new OpRouter([service.routes()], () => {}), { externalModules: true, warmEngines: ['v8'] });
  try {
    await runner.pool.ready();
    const withImport = "import { diffChars } from 'npm:diff'; diffChars('kitten', 'sitting').length";
    const without = "'kitten'.length";
    const builtin = "import { join } from 'node:path'; join('kit', 'ten').length";
    const first = await runner.run(withImport, { timeoutMs: 60_000 });
    if (first.outcome.status !== 'completed') throw new Error(`modules bench: the first import failed: ${JSON.stringify(first.outcome)}`);
    opts.log(`modules: first import (resolve, download, bundle) ${Math.round(first.ms)} ms; bundle ${(await service.load('npm:diff')).source.length} chars`);
    const rounds = opts.count(200, 5);
    const warmup = opts.count(20, 2);
    const a: number[] = [];
    const b: number[] = [];
    const c: number[] = [];
    for (let i = 0; i < warmup + rounds; i++) {
      const x = await runner.run(withImport);
      const y = await runner.run(without);
      const z = await runner.run(builtin);
      if (x.outcome.status !== 'completed' || y.outcome.status !== 'completed' || z.outcome.status !== 'completed') throw new Error('modules bench: a run failed');
      if (i >= warmup) { a.push(x.ms); b.push(y.ms); c.push(z.ms); }
    }
    const diffs = a.map((v, i) => v - b[i]!);
    const builtinDiffs = c.map((v, i) => v - b[i]!);
    opts.log(`modules: with import ${roundFigure(median(a))} ms, with node:path ${roundFigure(median(c))} ms, without ${roundFigure(median(b))} ms`);
    const peer = { name: 'run without the import (ms)', median: roundFigure(median(b)) };
    return [
      { name: 'modules.cached_import_ms', median: roundFigure(median(diffs)), unit: 'ms', runs: diffs.length, peer },
      { name: 'modules.builtin_import_ms', median: roundFigure(median(builtinDiffs)), unit: 'ms', runs: builtinDiffs.length, peer },
    ].filter((m) => opts.wants(m.name));
  } finally {
    await runner.close();
    await registry.close();
    rmSync(cacheDir, { recursive: true, force: true });
  }
}
