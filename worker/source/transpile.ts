// TypeScript → JavaScript for guest sources, with esbuild's transform (loader `ts`, format `esm`).
// JSX is rejected because the `ts` loader does not parse it; the first diagnostic becomes the
// execution error `TypeScript parse error: <diagnostic>`.
//
// esbuild transforms in one long-lived service process per worker. A script must not be able to
// take that process down for the runs after it: sources are held to size, nesting and indentation
// limits before esbuild sees them (source-limits.ts), a service that died anyway (a shape the
// limits do not foresee, or a kill from outside) is restarted and the transform tried once more,
// and a transform still running when its run ends is stopped with the service, so a script's
// transpile never outlives it.
//
// Most scripts never reach esbuild: plain JavaScript that TypeScript reads the same way runs as
// written (plain-module.ts), and a transform's output is kept in a small per-worker cache keyed by
// the source, so a script sent again (an agent retrying, a heap step repeated) skips the round trip.
import { transform, stop, type TransformFailure } from 'esbuild';
import { EXECUTION_ERRORS } from '../../shared/errors.ts';
import { checkSourceLimits } from './source-limits.ts';
import { redactHostPaths } from '../../shared/host-paths.ts';
import { ByteLru } from '../../shared/image-lru.ts';
import { isPlainModule } from './plain-module.ts';
import { restoreFunctionNames } from './restore-names.ts';
import { parenthesizeNestedNew } from './nested-new.ts';

/**
 * Bounds of each worker's transform cache: the sources and outputs held, in UTF-16 bytes. Scripts
 * are small (a few KB); a large one that does not fit is simply not kept.
 */
export const TRANSFORM_CACHE_BYTES = 8 * 1024 * 1024;
export const TRANSFORM_CACHE_ENTRIES = 512;

export class TranspileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TranspileError';
  }
}

/** The run ended while its transform was in flight (the transform was stopped). */
export class TranspileAbortedError extends Error {
  constructor() {
    super('runjs: the transform was stopped because its run ended');
    this.name = 'TranspileAbortedError';
  }
}

/** What the run sees when the service dies on its script twice (it is restarted again for the next run). */
export const TRANSPILER_DIED = 'the transpiler stopped while reading this script, twice; its nesting is likely too deep (see the limits in docs/script-environment.md)';

/** esbuild's texts for a transform whose service died before or while it ran. */
const SERVICE_DIED = /^The service (?:is no longer running|was stopped)/;

function isTransformFailure(e: unknown): e is TransformFailure {
  return typeof e === 'object' && e !== null && Array.isArray((e as { errors?: unknown }).errors);
}

function serviceDied(e: unknown): boolean {
  if (e instanceof ServiceRestarted) return true;
  const message = e instanceof Error ? e.message : String(e);
  return SERVICE_DIED.test(message) || (isTransformFailure(e) && e.errors.some((m) => SERVICE_DIED.test(m.text)));
}

/** A transform whose service was restarted under it (esbuild itself would leave it pending forever). */
class ServiceRestarted extends Error {}

export interface TranspiledModule {
  readonly code: string;
  /** esbuild's source map (JSON) when asked for ('' when not); null when `code` is the source itself (positions are its own). */
  readonly map: string | null;
}

/**
 * The worker's use of esbuild's service. esbuild keeps one service per process, so a worker has
 * one Transpiler (WorkerHost owns it); its state is which service generation is current and what
 * is in flight on it.
 */
export class Transpiler {
  #generation = 0;
  /** Rejecters of the transforms in flight on the current service. */
  readonly #inFlight = new Set<(e: Error) => void>();
  /**
   * esbuild's outputs by what determines them (the options are constants here). Shared by every
   * run of the worker, whoever sent it: the output is a function of the source alone. What a hit
   * can reveal is timing only — a run ≈ 1 ms sooner because the same source ran on this worker
   * recently (docs/benchmarks.md, "Transforms").
   */
  readonly #cache: ByteLru<TranspiledModule>;
  /** Transforms served by the plain-module check, by the cache and by esbuild (tests and benchmarks). */
  readonly stats = { plain: 0, cached: 0, transformed: 0 };

  /** `cache` bounds the transform cache (tests use small ones). */
  constructor(cache: { readonly bytes: number; readonly entries: number } = { bytes: TRANSFORM_CACHE_BYTES, entries: TRANSFORM_CACHE_ENTRIES }) {
    this.#cache = new ByteLru<TranspiledModule>(cache.bytes, cache.entries);
  }

  /**
   * The transpiled module, and with `withMap` esbuild's source map (JSON) of it: esbuild reformats
   * the code, so positions in error stacks are mapped back through it (worker/source/positions.ts).
   * A plain module (plain-module.ts) comes back as written, with a null map.
   * Fails with TranspileError for a script that breaks a limit or does not parse, and with
   * TranspileAbortedError when `signal` aborts first.
   */
  async transpileModule(source: string, filename: string, withMap: boolean, signal?: AbortSignal): Promise<TranspiledModule> {
    const violation = checkSourceLimits(source);
    if (violation) {
      const loc = violation.line === undefined ? '' : `${violation.line}:${violation.column}: `;
      throw new TranspileError(`${EXECUTION_ERRORS.TYPESCRIPT_PREFIX}${loc}${violation.message}`);
    }
    if (isPlainModule(source)) {
      this.stats.plain++;
      return { code: parenthesizeNestedNew(source), map: null };
    }
    // The file name is part of the key: esbuild writes it into the map and into its diagnostics.
    const key = `${withMap ? 'm' : 'c'}${filename}\0${source}`;
    const hit = this.#cache.get(key);
    if (hit !== undefined) {
      this.stats.cached++;
      return hit;
    }
    const out = await this.#transform(source, filename, withMap, signal);
    this.stats.transformed++;
    this.#cache.set(key, out, 2 * (key.length + out.code.length + (out.map?.length ?? 0)));
    return out;
  }

  async #transform(source: string, filename: string, withMap: boolean, signal: AbortSignal | undefined): Promise<TranspiledModule> {
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw new TranspileAbortedError();
      const generation = this.#generation;
      try {
        return await this.#transformOnce(source, filename, withMap, signal);
      } catch (e) {
        if (signal?.aborted) throw new TranspileAbortedError();
        if (!serviceDied(e)) throw toTranspileError(e);
        // The first to see this service dead restarts it; the others just try again on the new one.
        if (generation === this.#generation) this.restart();
        if (attempt === 0) continue;
        throw new TranspileError(`${EXECUTION_ERRORS.TYPESCRIPT_PREFIX}${TRANSPILER_DIED}`);
      }
    }
  }

  /**
   * Stops esbuild's service (the next transform starts a new one). Transforms in flight on it are
   * failed over: esbuild leaves them pending forever once its service is stopped.
   */
  restart(): void {
    this.#generation++;
    const pending = [...this.#inFlight];
    this.#inFlight.clear();
    void stop();
    for (const reject of pending) reject(new ServiceRestarted('runjs: the transpiler was restarted'));
  }

  #transformOnce(source: string, filename: string, withMap: boolean, signal: AbortSignal | undefined): Promise<TranspiledModule> {
    return new Promise<TranspiledModule>((resolve, reject) => {
      const settle = (): void => {
        this.#inFlight.delete(reject);
        signal?.removeEventListener('abort', onAbort);
      };
      // The run ended: its transform must not go on working for nobody (a pathological script
      // can keep esbuild busy for seconds); the service goes with it, and a new one serves the next.
      const onAbort = (): void => { if (this.#inFlight.has(reject)) this.restart(); };
      this.#inFlight.add(reject);
      signal?.addEventListener('abort', onAbort, { once: true });
      // `export {}` makes every script an ES module for esbuild: without an import/export it would
      // wrap a file that mentions `module`, `exports`, top-level `this` or `return` in a CommonJS
      // shim (results like "{}"), where Node and the spec evaluate the script as a module.
      transform(`${source}\nexport {};`, {
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
      }).then(
        // esbuild's renames of shadowing function/class names are undone (restore-names.ts).
        (out) => { settle(); resolve({ code: parenthesizeNestedNew(restoreFunctionNames(source, out.code)), map: out.map }); },
        (e: unknown) => { settle(); reject(e); },
      );
    });
  }
}

function toTranspileError(e: unknown): TranspileError {
  if (isTransformFailure(e)) {
    const first = e.errors[0];
    if (first) {
      const loc = first.location ? `${first.location.line}:${first.location.column + 1}: ` : '';
      return new TranspileError(`${EXECUTION_ERRORS.TYPESCRIPT_PREFIX}${loc}${first.text}`);
    }
  }
  // Not a diagnostic: esbuild itself failed (its binary missing, a spawn error naming its path).
  return new TranspileError(`${EXECUTION_ERRORS.TYPESCRIPT_PREFIX}${redactHostPaths(e instanceof Error ? e.message : String(e))}`);
}

/** Transpiles with a Transpiler of its own (benchmarks and tools; a worker uses its WorkerHost's). */
export async function transpile(source: string, filename: string): Promise<string> {
  return (await new Transpiler().transpileModule(source, filename, false)).code;
}
