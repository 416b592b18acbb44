// The V8 engine on isolated-vm: a fresh isolate per realm with `memoryLimit` from
// heap_memory_max_mb, the prelude compiled once and reused from V8's code cache, and guest code
// run asynchronously on the isolate's own thread so the worker's main thread stays free to
// receive cancellations and to stream console output.
import ivm from 'isolated-vm';
import { EngineError, type Engine, type GuestRealm, type HostCall, type ModuleSourceLoader, type RealmOptions } from '../../engine.ts';
import { PRELUDE_FILENAME, PRELUDE_SOURCE } from '../../guest/prelude-source.ts';
import { MAIN_EXPORT } from '../../source/wrap-main.ts';

const MEMORY_LIMIT_TEXT = 'memory limit';

function classify(e: unknown, interrupted: boolean): EngineError {
  const message = e instanceof Error ? e.message : String(e);
  if (message.includes(MEMORY_LIMIT_TEXT)) return new EngineError('out-of-memory', message);
  if (interrupted || message.includes('Isolate was disposed') || message.includes('Isolate is disposed')) {
    return new EngineError('interrupted', message);
  }
  return new EngineError('internal', message);
}

class V8Realm implements GuestRealm {
  readonly #isolate: ivm.Isolate;
  readonly #context: ivm.Context;
  readonly #complete: ivm.Reference<(...args: unknown[]) => void>;
  readonly #track: ivm.Reference<(p: unknown) => void>;
  #interrupted = false;

  constructor(isolate: ivm.Isolate, context: ivm.Context, complete: ivm.Reference<(...args: unknown[]) => void>, track: ivm.Reference<(p: unknown) => void>) {
    this.#isolate = isolate;
    this.#context = context;
    this.#complete = complete;
    this.#track = track;
  }

  async runMain(source: string, filename: string, loadModule: ModuleSourceLoader): Promise<void> {
    try {
      const main = await this.#isolate.compileModule(source, { filename });
      const cache = new Map<string, ivm.Module>();
      await main.instantiate(this.#context, async (specifier) => {
        let mod = cache.get(specifier);
        if (!mod) {
          mod = await this.#isolate.compileModule(loadModule(specifier), { filename: specifier });
          cache.set(specifier, mod);
        }
        return mod;
      });
      await main.evaluate();
      const body = await main.namespace.get(MAIN_EXPORT, { reference: true });
      await this.#track.apply(undefined, [body.derefInto()]);
    } catch (e) {
      if (e instanceof EngineError) throw e;
      if (e instanceof Error && !this.#interrupted && !this.#isolate.isDisposed && !e.message.includes(MEMORY_LIMIT_TEXT)) {
        // A guest-side failure during module linking (e.g. a SyntaxError in a builtin module).
        throw new EngineError('internal', e.message);
      }
      throw classify(e, this.#interrupted);
    }
  }

  async complete(id: number, ok: boolean, json: string | null, bytes: Uint8Array | undefined): Promise<void> {
    if (this.#interrupted || this.#isolate.isDisposed) throw new EngineError('interrupted', 'realm interrupted');
    try {
      const args: unknown[] = [id, ok, json];
      if (bytes !== undefined) args.push(new ivm.ExternalCopy(bytes).copyInto({ release: true }));
      await this.#complete.apply(undefined, args, { arguments: { copy: true } });
    } catch (e) {
      throw classify(e, this.#interrupted);
    }
  }

  interrupt(): void {
    this.#interrupted = true;
    if (!this.#isolate.isDisposed) this.#isolate.dispose();
  }

  dispose(): void {
    if (!this.#isolate.isDisposed) this.#isolate.dispose();
  }
}

export class V8Engine implements Engine {
  readonly name = 'v8' as const;
  #cachedData: ivm.ExternalCopy<ArrayBuffer> | undefined;

  async createRealm(options: RealmOptions): Promise<GuestRealm> {
    const isolate = new ivm.Isolate({ memoryLimit: Math.max(8, options.memoryLimitMb) });
    try {
      const context = await isolate.createContext();
      const hostCall: HostCall = options.hostCall;
      await context.global.set('__runjs_host', new ivm.Callback((op: unknown, argsJson: unknown, bytes: unknown) =>
        toGuest(hostCall(String(op), String(argsJson), bytes instanceof Uint8Array ? bytes : undefined))));
      const script = await isolate.compileScript(PRELUDE_SOURCE, {
        filename: PRELUDE_FILENAME,
        ...(this.#cachedData ? { cachedData: this.#cachedData } : { produceCachedData: true }),
      });
      const produced = (script as ivm.Script & ivm.CachedDataResult).cachedData;
      if (!this.#cachedData && produced) this.#cachedData = produced;
      const internal = await script.run(context, { reference: true }) as ivm.Reference<Record<string, unknown>>;
      const complete = await internal.get('complete', { reference: true }) as ivm.Reference<(...args: unknown[]) => void>;
      const track = await internal.get('track', { reference: true }) as ivm.Reference<(p: unknown) => void>;
      return new V8Realm(isolate, context, complete, track);
    } catch (e) {
      isolate.dispose();
      throw e;
    }
  }
}

/** Bytes cross into the isolate as a copy; strings cross as they are. */
function toGuest(value: string | Uint8Array): unknown {
  return typeof value === 'string' ? value : new ivm.ExternalCopy(value).copyInto({ release: true });
}
