// Platform parts (worker/guest/generated/parts/) compiled for V8 realms with a code cache. Each
// run has its own isolate, so a part the guest evaluated with `new Function(source)` was parsed
// and compiled again in every run that used it (fetch alone: web, streams and fetch, a few ms).
// Here the first compile of a part produces V8's code cache and later ones consume it; the
// guest's loader (core/parts.js) receives the part's factory function itself, compiled in its
// own context — the same code it would have built from the source.
import ivm from 'isolated-vm';

/**
 * A part's source by name, or undefined for a name that is not a part (the worker's platform ops
 * read them, and they alone decide what a valid part name is).
 */
export type PartSource = (name: string) => string | undefined;

export class PartCompiler {
  readonly #source: PartSource;
  /** Code cache per part, made by the first compile in this process. */
  readonly #cache = new Map<string, ivm.ExternalCopy<ArrayBuffer>>();
  readonly #sources = new Map<string, string>();
  /** Parts whose cache was made after a run used them (see warm); a cache made anew is not. */
  readonly #warmed = new Set<string>();
  /** The parts each live isolate compiled while their cache was not warm yet. */
  readonly #cold = new WeakMap<ivm.Isolate, string[]>();

  constructor(source: PartSource) {
    this.#source = source;
  }

  /**
   * `isolate` (idle, its run over) compiled parts whose cache holds only what V8 compiles up front:
   * the part's top level, not the functions it calls later, which every run then compiled again
   * lazily. Compiled again here, a part's source hits the isolate's compilation cache, whose
   * functions the run has compiled meanwhile, and the cache made from it holds them too. Once per
   * part (until a cache is rejected and made anew).
   */
  warm(isolate: ivm.Isolate): void {
    const names = this.#cold.get(isolate);
    if (names === undefined) return;
    this.#cold.delete(isolate);
    for (const name of names) {
      const body = this.#sources.get(name);
      if (this.#warmed.has(name) || body === undefined) continue;
      try {
        const script = isolate.compileScriptSync(body, { filename: `runjs:prelude/${name}`, produceCachedData: true });
        const produced = (script as ivm.Script & ivm.CachedDataResult).cachedData;
        script.release();
        if (produced === undefined) continue;
        this.#cache.set(name, produced);
        this.#warmed.add(name);
      } catch {
        // An isolate at its memory limit: the next run that uses the part warms it.
      }
    }
  }

  /** The code cache kept for a part (tests: a new one means the last was rejected or missing). */
  cacheOf(name: string): ivm.ExternalCopy<ArrayBuffer> | undefined {
    return this.#cache.get(name);
  }

  #body(name: string): string | undefined {
    let body = this.#sources.get(name);
    if (body === undefined) {
      const source = this.#source(name);
      if (source === undefined) return undefined;
      body = `(function (__runjs_P, __runjs_require) {\n${source}\n})`;
      this.#sources.set(name, body);
    }
    return body;
  }

  /** Keeps the cache V8 made (if it made one) and notes `isolate` as cold for `name` unless the cache is warm. */
  #compiled(isolate: ivm.Isolate, name: string, script: ivm.Script): void {
    // A cache made in an isolate without the prelude snapshot (a realm booted before the snapshot
    // was built) is rejected by every isolate booted from it: V8 then makes a new one, kept instead.
    const produced = (script as ivm.Script & ivm.CachedDataResult).cachedData;
    if (produced !== undefined) { this.#cache.set(name, produced); this.#warmed.delete(name); }
    if (!this.#warmed.has(name)) {
      const cold = this.#cold.get(isolate);
      if (cold === undefined) this.#cold.set(isolate, [name]);
      else cold.push(name);
    }
  }

  #options(name: string): ivm.ScriptOrigin & ivm.CachedDataOptions {
    const cachedData = this.#cache.get(name);
    // The file name keeps the part's frames out of user-facing stacks (they contain "runjs:prelude").
    // Both cache options set: isolated-vm produces a new cache only when there was none or V8 rejected it.
    return { filename: `runjs:prelude/${name}`, ...(cachedData ? { cachedData } : {}), produceCachedData: true };
  }

  /**
   * The part's factory in `context`, as a value the host callback hands back (derefInto), or
   * undefined (unknown part, or a compile that failed: the guest then evaluates the source).
   */
  compile(isolate: ivm.Isolate, context: ivm.Context, name: unknown): unknown {
    if (typeof name !== 'string') return undefined;
    const body = this.#body(name);
    if (body === undefined) return undefined;
    try {
      const script = isolate.compileScriptSync(body, this.#options(name));
      this.#compiled(isolate, name, script);
      const fn = script.runSync(context, { reference: true }) as ivm.Reference<unknown>;
      script.release();
      return fn.derefInto({ release: true });
    } catch {
      return undefined;
    }
  }

  /**
   * The part compiled off this thread (isolated-vm compiles on the isolate's thread), with the same
   * code cache: for a spare realm booted ahead of its run (part-preload.ts), which must not hold up
   * the run going on. Running the script gives the part's factory (it runs none of the part).
   * Rejects for an unknown part or a failed compile.
   */
  async compileAhead(isolate: ivm.Isolate, name: string): Promise<ivm.Script> {
    const body = this.#body(name);
    if (body === undefined) throw new Error(`runjs: '${name}' is not a platform part`);
    const script = await isolate.compileScript(body, this.#options(name));
    this.#compiled(isolate, name, script);
    return script;
  }
}
