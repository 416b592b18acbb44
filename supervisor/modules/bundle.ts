// esbuild, as external modules use it: one import (an npm package in a node_modules tree on disk,
// or a URL module through a plugin) bundled into one self-contained ES module. Node builtins
// become the guest's own modules; a CommonJS entry is marked, so the guest can give it named
// exports (worker/source/external-modules.ts).
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { ModuleError, describe } from './module-error.ts';

/** A bundled import: the module source, and whether its entry is CommonJS (only a default export). */
export interface LoadedModule {
  readonly source: string;
  /** The guest gives it the named exports a script imports from it (as properties of `module.exports`). */
  readonly commonjs: boolean;
  /** A CommonJS entry's export names found by reading it (as Node's cjs-module-lexer finds them): a namespace import has them too. */
  readonly names?: readonly string[];
}

/** How a CommonJS bundle is marked in the bundle cache: `/* runjs:commonjs a,b *\/` then a newline. */
const COMMONJS_MARK = /^\/\* runjs:commonjs((?: [\w$,]*)?) \*\/\n/;

export function loaded(text: string): LoadedModule {
  const m = COMMONJS_MARK.exec(text);
  if (m === null) return { source: text, commonjs: false };
  const names = m[1]!.trim().split(',').filter((n) => n !== '');
  return { source: text.slice(m[0].length), commonjs: true, ...(names.length > 0 ? { names } : {}) };
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * The names a CommonJS file assigns on `exports` (`exports.x =`, `module.exports.x =`,
 * `Object.defineProperty(exports, 'x', …)`: what TypeScript and Babel emit), the way Node's
 * cjs-module-lexer finds a CommonJS module's named exports for ESM importers. Re-exports
 * (`__exportStar(require('./x'))`) are not followed. A name found but never set reads undefined.
 */
export function commonjsNames(source: string): string[] {
  const names = new Set<string>();
  for (const m of source.matchAll(/\b(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=(?!=)/g)) names.add(m[1]!);
  for (const m of source.matchAll(/Object\.defineProperty\(\s*(?:module\.)?exports\s*,\s*["']([A-Za-z_$][\w$]*)["']/g)) names.add(m[1]!);
  names.delete('__esModule');
  names.delete('default');
  return [...names].filter((n) => IDENTIFIER.test(n)).sort();
}

const BUILTINS = new Set(builtinModules.filter((n) => !n.startsWith('_')));
export const BUILTIN_NS = 'runjs-builtin';
export const URL_NS = 'runjs-url';

export function builtinName(p: string): string | undefined {
  const name = p.startsWith('node:') ? p.slice(5) : p;
  return p.startsWith('node:') || BUILTINS.has(name) ? name : undefined;
}

/** Node builtins become the guest's own modules, taken at first use (a `require` of one the guest lacks throws then, not at load). */
export const builtinPlugin: esbuild.Plugin = {
  name: 'runjs-builtins',
  setup(build) {
    build.onResolve({ filter: /^(node:)?[a-z_][a-z0-9_/]*$/ }, (a) => {
      const name = builtinName(a.path);
      return name === undefined ? undefined : { path: name, namespace: BUILTIN_NS };
    });
    build.onLoad({ filter: /.*/, namespace: BUILTIN_NS }, (a) => ({
      contents: `module.exports = globalThis[Symbol.for('runjs.builtin')](${JSON.stringify(a.path)});`,
      loader: 'js',
    }));
  },
};

export const LOADERS: Record<string, esbuild.Loader> = { '.ts': 'ts', '.mts': 'ts', '.cts': 'ts', '.tsx': 'tsx', '.jsx': 'jsx', '.json': 'json' };

/**
 * The interface spec gives scripts no `setInterval`, but packages use it (gRPC's channels keep a
 * ref'd interval while calls are pending). A bundle that names it as a global gets a module-local
 * one (esbuild's `define` renames only free references) built on node:timers' `setTimeout`: each
 * tick arms the next before calling back, and the handle's `ref`/`unref` carry over as in Node.
 * The script's own global stays absent.
 */
const INTERVAL_SHIM = [
  "var __runjsSetInterval = function setInterval(fn, ms, ...args) { const timers = globalThis[Symbol.for('runjs.builtin')]('timers');",
  ' const h = { timeout: null, refd: true, ref() { this.refd = true; this.timeout?.ref(); return this; }, unref() { this.refd = false; this.timeout?.unref(); return this; }, hasRef() { return this.refd; } };',
  ' const arm = () => { h.timeout = timers.setTimeout(() => { arm(); fn(...args); }, ms); if (!h.refd) h.timeout.unref(); };',
  ' arm(); return h; };',
  "\nvar __runjsClearInterval = function clearInterval(h) { if (h?.timeout) globalThis[Symbol.for('runjs.builtin')]('timers').clearTimeout(h.timeout); };\n",
].join('');

/** Bundles; a CommonJS entry's bundle comes back marked (COMMONJS_MARK). */
export async function bundle(opts: Pick<esbuild.BuildOptions, 'entryPoints' | 'absWorkingDir' | 'plugins'>): Promise<string> {
  let result: esbuild.BuildResult<{ write: false; metafile: true }>;
  try {
    result = await esbuild.build({
      ...opts,
      bundle: true, write: false, format: 'esm', platform: 'neutral', target: 'es2022',
      mainFields: ['module', 'main'], conditions: ['module'], resolveExtensions: ['.mjs', '.js', '.cjs', '.json', '.ts', '.mts', '.tsx'],
      // Only free (global) references are replaced: a package's own `setInterval` binding stays its own.
      define: { 'process.env.NODE_ENV': '"production"', setInterval: '__runjsSetInterval', clearInterval: '__runjsClearInterval' }, logLevel: 'silent', legalComments: 'none', charset: 'utf8', metafile: true,
    });
  } catch (e) {
    const failure = e as { errors?: esbuild.Message[] };
    // A ModuleError thrown inside a plugin (a failed download) is the reason itself.
    const inner = failure.errors?.map((m) => m.detail).find((d) => d instanceof ModuleError);
    if (inner instanceof ModuleError) throw new ModuleError(inner.message);
    const texts = failure.errors?.slice(0, 3).map((m) => (m.location ? `${m.location.file.replace(/^.*?node_modules\//, '')}:${m.location.line}: ${m.text}` : m.text));
    throw new ModuleError(`bundling failed: ${texts?.join('; ') ?? describe(e)}`);
  }
  const built = result.outputFiles[0]!.text;
  const text = /\b__runjs(Set|Clear)Interval\b/.test(built) ? `${INTERVAL_SHIM}${built}` : built;
  const output = Object.values(result.metafile.outputs)[0];
  const entry = output?.entryPoint === undefined ? undefined : result.metafile.inputs[output.entryPoint];
  const commonjs = entry?.format === 'cjs' && output?.exports.length === 1 && output.exports[0] === 'default';
  if (!commonjs) return text;
  let names: string[] = [];
  // An entry on disk (an npm package; URL modules live in a plugin namespace) is read for its names.
  if (opts.absWorkingDir !== undefined && output?.entryPoint !== undefined && !output.entryPoint.includes(':')) {
    try {
      names = commonjsNames(readFileSync(path.join(opts.absWorkingDir, output.entryPoint), 'utf8'));
    } catch {
      names = [];
    }
  }
  return `/* runjs:commonjs ${names.join(',')} */\n${text}`;
}
