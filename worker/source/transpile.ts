// TypeScript → JavaScript for guest sources, with esbuild's transform (loader `ts`, format `esm`).
// JSX is rejected because the `ts` loader does not parse it; the first diagnostic becomes the
// execution error `TypeScript parse error: <diagnostic>`.
import { transform, type TransformFailure } from 'esbuild';
import { EXECUTION_ERRORS } from '../../shared/errors.ts';

export class TranspileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TranspileError';
  }
}

function isTransformFailure(e: unknown): e is TransformFailure {
  return typeof e === 'object' && e !== null && Array.isArray((e as { errors?: unknown }).errors);
}

export async function transpile(source: string, filename: string): Promise<string> {
  return (await transpileModule(source, filename, false)).code;
}

/**
 * The transpiled module, and with `withMap` esbuild's source map (JSON) of it: esbuild reformats
 * the code, so positions in error stacks are mapped back through it (worker/source/positions.ts).
 */
export async function transpileModule(source: string, filename: string, withMap: boolean): Promise<{ code: string; map: string }> {
  try {
    // `export {}` makes every script an ES module for esbuild: without an import/export it would
    // wrap a file that mentions `module`, `exports`, top-level `this` or `return` in a CommonJS
    // shim (results like "{}"), where Node and the spec evaluate the script as a module.
    const out = await transform(`${source}\nexport {};`, {
      loader: 'ts',
      format: 'esm',
      target: 'es2023',
      sourcefile: filename,
      // Keep the script's own names (stack traces, Function.name) and its top-level layout.
      minify: false,
      keepNames: false,
      legalComments: 'none',
      ...(withMap ? { sourcemap: 'external' as const, sourcesContent: false } : {}),
      // Imports stay as written (only `import type` is erased), so an unavailable module fails
      // the run instead of being silently dropped as unused.
      tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true, preserveValueImports: false, useDefineForClassFields: true } },
    });
    return { code: out.code, map: out.map };
  } catch (e) {
    if (isTransformFailure(e)) {
      const first = e.errors[0];
      if (first) {
        const loc = first.location ? `${first.location.line}:${first.location.column + 1}: ` : '';
        throw new TranspileError(`${EXECUTION_ERRORS.TYPESCRIPT_PREFIX}${loc}${first.text}`);
      }
    }
    throw new TranspileError(`${EXECUTION_ERRORS.TYPESCRIPT_PREFIX}${e instanceof Error ? e.message : String(e)}`);
  }
}
