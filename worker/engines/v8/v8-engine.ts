// The V8 engine on isolated-vm: a fresh isolate per realm with `memoryLimit` from
// heap_memory_max_mb, the prelude booted once into a startup snapshot, and guest code
// run asynchronously on the isolate's own thread so the worker's main thread stays free to
// receive cancellations and to stream console output. Steps that run no guest code (booting the
// prelude, linking an import-free main module) use isolated-vm's synchronous calls: each async
// call is a round trip between threads, which dominates a trivial run (docs/benchmarks.md).
//
// Realms start from a V8 startup snapshot of the booted prelude, made once per process, so a new
// realm deserialises the prelude's heap instead of running it (the prelude performs no op while it
// boots, so nothing of a run is baked in; what the snapshot holds: prelude-snapshot.ts). The
// host-call primitive cannot live in a snapshot: the prelude captures a guest-side stub that the
// engine binds to the real callback when it creates the realm. The snapshot is built once the worker is idle (not at start, where it would delay
// the worker's first `ready`); until then, and should it fail, realms boot the prelude from
// source (with V8's code cache).
import ivm from 'isolated-vm';
import v8 from 'node:v8';
import { EngineError, UnhandledRejectionError, type Engine, type GuestRealm, type HostCall, type ModuleSourceLoader, type RealmOptions } from '../../engine.ts';
import { PRELUDE_FILENAME, PRELUDE_SOURCE } from '../../guest/prelude-source.ts';
import { PartCompiler, type PartSource } from './part-compiler.ts';
import { PartUsage } from './part-preload.ts';
import { partsNamedIn } from './named-parts.ts';
import { HostOpsGate } from './host-ops-gate.ts';
import { MAIN_EXPORT } from '../../source/wrap-main.ts';
import { unhandledRejectionReason, unhandledRejectionText } from './unhandled-rejection.ts';
import { BIND_GLOBAL, buildPreludeSnapshot, INTERNAL_GLOBAL } from './prelude-snapshot.ts';

const MEMORY_LIMIT_TEXT = 'memory limit';
/** The engine's minimum (and the default) heap_memory_max_mb. */
const MIN_MEMORY_LIMIT_MB = 8;
/**
 * The limit the worker keeps a warm realm for (worker/main.ts, the default heap). The engine keeps
 * one more realm of it booted, so a run that arrives right after another (its worker has just
 * taken the warm realm) does not wait for a whole boot.
 */
const SPARE_MEMORY_LIMIT_MB = 8;
/** Main modules up to this size are compiled synchronously; bigger ones off the main thread. */
const SYNC_COMPILE_MAX_CHARS = 256 * 1024;

/**
 * The largest young-generation semi-space an isolate gets, in MB (with it, the compute suite's
 * allocation-heavy benches ran about as fast as in a plain Node isolate). isolated-vm sizes the
 * young generation from memoryLimit alone and caps it at 16 MB in all (≈ 5 MB semi-spaces, 1 MB
 * at the default 8 MB), so allocation-heavy code scavenges several times as often as in plain
 * V8: string building ran 1.6×, regexes 1.8× slower than in Node's own isolate
 * (docs/benchmarks.md). Isolates with a large limit get semi-spaces of limit/16 up to
 * this; their young generation (3 semi-spaces, grown only as needed) can then hold up to ~19 % of
 * the limit on top of it, as isolated-vm's own young generation already does at smaller scale.
 */
const MAX_SEMI_SPACE_MB = 32;
/** Limits below this keep isolated-vm's young generation (small scripts need no more). */
const SEMI_SPACE_FROM_LIMIT_MB = 64;

/** A new isolate; V8 reads --max-semi-space-size when it configures the heap, so it is set around the constructor. */
function newIsolate(memoryLimitMb: number, snapshot: ivm.ExternalCopy<ArrayBuffer> | undefined): ivm.Isolate {
  const options = { memoryLimit: memoryLimitMb, ...(snapshot ? { snapshot } : {}) };
  if (memoryLimitMb < SEMI_SPACE_FROM_LIMIT_MB) return new ivm.Isolate(options);
  v8.setFlagsFromString(`--max-semi-space-size=${Math.min(MAX_SEMI_SPACE_MB, Math.floor(memoryLimitMb / 16))}`);
  try {
    return new ivm.Isolate(options);
  } finally {
    v8.setFlagsFromString('--max-semi-space-size=0'); // 0: V8's default again for every later heap
  }
}

/**
 * At most this long, each step of a spare realm's boot waits for the running realm's host ops to be
 * answered (host-ops-gate.ts): a local fetch's host side takes 1–4 ms, a remote one leaves the CPU idle.
 */
const SPARE_WAIT_MAX_MS = 10;

/** How long after the first realm boot the snapshot is built, if no run is going on then. */
const SNAPSHOT_DELAY_MS = 200;
/** After this many postponements (runs kept going), the snapshot is built anyway (one ~50 ms stall). */
const SNAPSHOT_MAX_POSTPONE = 10;

/** What a realm tells its engine: a run started in it, it is ending, and it was disposed. */
interface RealmUse {
  started(): void;
  /**
   * The realm's isolate is idle (no guest code runs or is queued) and about to be disposed, after
   * a run; `usedParts` are the platform parts the run's code asked for.
   */
  ending(isolate: ivm.Isolate, usedParts: readonly unknown[]): void;
  disposed(): void;
  /** The realm's guest started an async host op, or `n` of them were answered or ended with the realm. */
  opened(): void;
  settled(n: number): void;
}

/** A realm's async host ops not answered yet (counted for the spare's gate, see host-ops-gate.ts). */
interface OpenOps {
  count: number;
}

function classify(e: unknown, interrupted: boolean): EngineError {
  const message = e instanceof Error ? e.message : String(e);
  if (message.includes(MEMORY_LIMIT_TEXT)) return new EngineError('out-of-memory', message);
  if (interrupted || message.includes('Isolate was disposed') || message.includes('Isolate is disposed')) {
    return new EngineError('interrupted', message);
  }
  return new EngineError('internal', message);
}

/**
 * A throw out of the prelude's `track`/`complete`: the memory limit or an interrupt, else an
 * unhandled promise rejection (those functions catch every guest exception themselves).
 */
function classifyTask(e: unknown, interrupted: boolean): EngineError {
  const error = classify(e, interrupted);
  if (error.kind !== 'internal') return error;
  return new UnhandledRejectionError(unhandledRejectionText(e), unhandledRejectionReason(e));
}

class V8Realm implements GuestRealm {
  readonly #isolate: ivm.Isolate;
  readonly #context: ivm.Context;
  readonly #complete: ivm.Reference<(...args: unknown[]) => void>;
  readonly #track: ivm.Reference<(p: unknown, parts?: string[]) => void>;
  readonly #usedParts: ivm.Reference<() => string[]>;
  readonly #use: RealmUse;
  /** The platform parts loaded into this realm before its run (part-preload.ts), in load order. */
  readonly preloaded: readonly string[];
  /** Whether the realm was restored from the prelude's startup snapshot (else booted from source). */
  readonly fromSnapshot: boolean;
  #interrupted = false;
  #started = false;
  /** Guest calls running on the isolate's thread (runMain, complete): while any is, the isolate is not idle. */
  #busy = 0;
  readonly #ops: OpenOps;

  constructor(isolate: ivm.Isolate, context: ivm.Context, internal: ivm.Reference<Record<string, unknown>>, use: RealmUse, preloaded: readonly string[], fromSnapshot: boolean, ops: OpenOps) {
    this.#isolate = isolate;
    this.#ops = ops;
    this.preloaded = preloaded;
    this.fromSnapshot = fromSnapshot;
    this.#context = context;
    this.#complete = internal.getSync('complete', { reference: true }) as ivm.Reference<(...args: unknown[]) => void>;
    this.#track = internal.getSync('track', { reference: true }) as ivm.Reference<(p: unknown, parts?: string[]) => void>;
    this.#usedParts = internal.getSync('usedParts', { reference: true }) as ivm.Reference<() => string[]>;
    this.#use = use;
  }

  readonly lineOffsets = true;

  async runMain(source: string, filename: string, loadModule: ModuleSourceLoader, lineOffset = 0): Promise<void> {
    if (!this.#started) { this.#started = true; this.#use.started(); }
    this.#busy++;
    try {
      const origin = { filename, lineOffset };
      const main = source.length <= SYNC_COMPILE_MAX_CHARS
        ? this.#isolate.compileModuleSync(source, origin)
        : await this.#isolate.compileModule(source, origin);
      let body: ivm.Reference<unknown>;
      if (main.dependencySpecifiers.length === 0) {
        // Nothing to link, and evaluating the wrapped module runs no guest code (it only defines
        // the main function, see worker/source/wrap-main.ts): no need to leave this thread.
        main.instantiateSync(this.#context, () => { throw new Error('runjs: the main module has no imports'); });
        main.evaluateSync();
        body = main.namespace.getSync(MAIN_EXPORT, { reference: true }) as ivm.Reference<unknown>;
      } else {
        // The whole import graph is compiled first (synchronously where small), so linking is one
        // synchronous call; only evaluation, which runs the imported modules' code, leaves this thread.
        const modules = await this.#compileImports(main, loadModule);
        main.instantiateSync(this.#context, (specifier) => {
          const mod = modules.get(specifier);
          if (mod === undefined) throw new Error(`runjs: module '${specifier}' was not compiled`);
          return mod;
        });
        await main.evaluate();
        body = main.namespace.getSync(MAIN_EXPORT, { reference: true }) as ivm.Reference<unknown>;
      }
      // Guest code runs here, on the isolate's thread.
      try {
        // The parts of the lazy globals the main module names load before any of the script's
        // code: a part compiled on the host mid-run would drain the script's pending promise jobs
        // (named-parts.ts). The scan is the host's; the guest only loads what it lists.
        const named = partsNamedIn(source);
        await this.#track.apply(undefined, named.length > 0 ? [body.derefInto(), new ivm.ExternalCopy(named).copyInto({ release: true })] : [body.derefInto()]);
      } catch (e) {
        throw classifyTask(e, this.#interrupted);
      }
    } catch (e) {
      if (e instanceof EngineError) throw e;
      if (e instanceof Error && !this.#interrupted && !this.#isolate.isDisposed && !e.message.includes(MEMORY_LIMIT_TEXT)) {
        // A guest-side failure during module linking (e.g. a SyntaxError in a builtin module).
        throw new EngineError('internal', e.message);
      }
      throw classify(e, this.#interrupted);
    } finally {
      this.#busy--;
    }
  }

  /**
   * Every module `main` imports, directly or not, compiled and keyed by specifier (a specifier
   * names one module wherever it is imported from, as the module loader resolves them).
   */
  async #compileImports(main: ivm.Module, loadModule: ModuleSourceLoader): Promise<Map<string, ivm.Module>> {
    const modules = new Map<string, ivm.Module>();
    const pending = [...main.dependencySpecifiers];
    for (let specifier = pending.pop(); specifier !== undefined; specifier = pending.pop()) {
      if (modules.has(specifier)) continue;
      const source = loadModule(specifier);
      const mod = source.length <= SYNC_COMPILE_MAX_CHARS
        ? this.#isolate.compileModuleSync(source, { filename: specifier })
        : await this.#isolate.compileModule(source, { filename: specifier });
      modules.set(specifier, mod);
      pending.push(...mod.dependencySpecifiers);
    }
    return modules;
  }

  async complete(id: number, ok: boolean, json: string | null, bytes: Uint8Array | undefined): Promise<void> {
    if (this.#interrupted || this.#isolate.isDisposed) throw new EngineError('interrupted', 'realm interrupted');
    // The host's work for this op is done: a spare's boot may go on (host-ops-gate.ts).
    if (this.#ops.count > 0) { this.#ops.count--; this.#use.settled(1); }
    this.#busy++;
    try {
      const args: unknown[] = [id, ok, json];
      if (bytes !== undefined) args.push(new ivm.ExternalCopy(bytes).copyInto({ release: true }));
      await this.#complete.apply(undefined, args, { arguments: { copy: true } });
    } catch (e) {
      throw classifyTask(e, this.#interrupted);
    } finally {
      this.#busy--;
    }
  }

  #partsUsed(): readonly unknown[] {
    try {
      const names: unknown = this.#usedParts.applySync(undefined, [], { result: { copy: true } });
      return Array.isArray(names) ? names : [];
    } catch {
      return []; // an isolate at its memory limit: the run counts as one that used no part
    }
  }

  /** Ops the run leaves unanswered (cancelled, or pending at its end) no longer hold a spare back. */
  #settleOpen(): void {
    if (this.#ops.count === 0) return;
    this.#use.settled(this.#ops.count);
    this.#ops.count = 0;
  }

  interrupt(): void {
    this.#settleOpen();
    this.#interrupted = true;
    if (!this.#isolate.isDisposed) this.#isolate.dispose();
  }

  dispose(): void {
    this.#settleOpen();
    // Only an idle isolate is handed on: a synchronous call into a busy one would wait for it.
    if (!this.#isolate.isDisposed && !this.#interrupted && this.#busy === 0 && this.#started) this.#use.ending(this.#isolate, this.#partsUsed());
    if (!this.#isolate.isDisposed) this.#isolate.dispose();
    if (this.#started) { this.#started = false; this.#use.disposed(); }
  }
}

export interface V8EngineOptions {
  /** Platform part sources: parts are then compiled on the host with a code cache (part-compiler.ts). */
  readonly partSource?: PartSource;
  /** The worker's WebAssembly modules (names; the bytes stay on the host until a run asks): installed into every realm. */
  readonly wasm?: readonly { readonly name: string; readonly bind: boolean }[];
  /** How long a spare's boot step waits at most for the running realm's host ops (default SPARE_WAIT_MAX_MS). */
  readonly spareWaitMaxMs?: number;
}

export class V8Engine implements Engine {
  readonly name = 'v8' as const;
  readonly images = false;
  #cachedData: ivm.ExternalCopy<ArrayBuffer> | undefined;
  /** The modules installWasm gets (JSON), or undefined when the worker has none. */
  readonly #wasmJson: string | undefined;
  readonly #parts: PartCompiler | undefined;
  /** Which parts the spare realm loads ahead of its run (part-preload.ts). */
  readonly #usage = new PartUsage();
  /** Holds a spare's boot steps back while the running realm's host ops are in flight. */
  readonly #gate: HostOpsGate;

  constructor(options: V8EngineOptions = {}) {
    this.#gate = new HostOpsGate(options.spareWaitMaxMs ?? SPARE_WAIT_MAX_MS);
    this.#parts = options.partSource !== undefined ? new PartCompiler(options.partSource) : undefined;
    this.#wasmJson = options.wasm !== undefined && options.wasm.length > 0 ? JSON.stringify(options.wasm.map(({ name, bind }) => ({ name, bind }))) : undefined;
  }

  /** One booted, never used realm of SPARE_MEMORY_LIMIT_MB for this host call (see createRealm). */
  #spare: { readonly hostCall: HostCall; readonly realm: Promise<V8Realm> } | undefined;

  createRealm(options: RealmOptions): Promise<GuestRealm> {
    const limit = Math.max(MIN_MEMORY_LIMIT_MB, options.memoryLimitMb);
    const { hostCall } = options;
    if (limit !== SPARE_MEMORY_LIMIT_MB) return this.#boot(limit, hostCall, true);
    const spare = this.#spare?.hostCall === hostCall ? this.#spare : undefined;
    if (spare) this.#spare = undefined;
    const realm = spare ? spare.realm.catch(() => this.#boot(limit, hostCall, true)) : this.#boot(limit, hostCall, true);
    // Boot the next spare now, even while the realm handed out is still loading its parts. The
    // worker asks at the end of a run, for the next one: the isolate (made synchronously on this
    // thread) is then made while the supervisor answers, instead of at the start of the run that
    // waited for `realm` (docs/benchmarks.md, "Fourth round"). Its parts wait for `realm`'s.
    this.#refill(limit, hostCall, realm);
    return realm;
  }

  #refill(limit: number, hostCall: HostCall, before: Promise<unknown>): void {
    if (this.#spare !== undefined) return;
    const realm = this.#boot(limit, hostCall, false, before);
    this.#spare = { hostCall, realm };
    realm.catch(() => { if (this.#spare?.realm === realm) this.#spare = undefined; });
  }

  /** The prelude's startup snapshot: undefined until built (see #scheduleSnapshot); null if it cannot be. */
  #snapshot: ivm.ExternalCopy<ArrayBuffer> | null | undefined;
  #snapshotTimer: NodeJS.Timeout | undefined;
  #snapshotPostponed = 0;
  /** Realms a run has started in and that are not disposed yet. */
  #running = 0;
  readonly #use: RealmUse = {
    started: () => { this.#running++; },
    ending: (isolate, usedParts) => {
      this.#parts?.warm(isolate);
      this.#usage.record(usedParts);
    },
    disposed: () => { this.#running--; },
    opened: () => { this.#gate.opened(); },
    settled: (n) => { this.#gate.settled(n); },
  };

  /** Whether a spare's boot is waiting for the running realm's host ops now (diagnostics and tests). */
  get spareWaiting(): boolean {
    return this.#gate.waiting > 0;
  }

  /** Builds the snapshot soon, at a moment no run is going on (building blocks this thread ~50 ms). */
  #scheduleSnapshot(): void {
    if (this.#snapshot !== undefined || this.#snapshotTimer !== undefined) return;
    this.#snapshotTimer = setTimeout(() => {
      this.#snapshotTimer = undefined;
      if (this.#running > 0 && this.#snapshotPostponed++ < SNAPSHOT_MAX_POSTPONE) { this.#scheduleSnapshot(); return; }
      this.#snapshot = buildPreludeSnapshot() ?? null;
    }, SNAPSHOT_DELAY_MS);
    this.#snapshotTimer.unref();
  }

  /**
   * Loads the parts recent runs used into a realm no run has started in: compiled and evaluated on
   * the isolate's thread, so the run going on meanwhile keeps this thread. A failure rejects (the
   * caller boots another realm): a part left half loaded would fail every later use of it.
   */
  async #preload(context: ivm.Context, internal: ivm.Reference<Record<string, unknown>>, names: readonly string[], compiling: Promise<ivm.Script[]>, before: Promise<unknown>): Promise<readonly string[]> {
    if (names.length === 0) return names;
    // Every part was compiled at once, queued with the context (each compile is a task on the
    // isolate's thread: one wait for all); their factories are made here (no guest code runs), and
    // all evaluated by one guest call, the step that takes most CPU. It waits for the realm booted
    // before this one (the next run waits for that one), then for the running realm's ops.
    const scripts = await compiling;
    await before.then(() => {}, () => {});
    await this.#gate.quiet();
    const load = internal.getSync('preloadCompiled', { reference: true }) as ivm.Reference<(...pairs: unknown[]) => void>;
    const pairs: NonNullable<Parameters<typeof load.apply>[1]> = [];
    scripts.forEach((script, i) => {
      pairs.push(names[i], (script.runSync(context, { reference: true }) as ivm.Reference<unknown>).derefInto({ release: true }));
      script.release();
    });
    await load.apply(undefined, pairs);
    load.release();
    return names;
  }

  /**
   * A fresh isolate with the prelude booted. `sync` builds it on this thread (fastest, for a
   * caller that waits for it); otherwise the context is created on the isolate's thread.
   */
  async #boot(memoryLimitMb: number, hostCall: HostCall, sync: boolean, before: Promise<unknown> = Promise.resolve()): Promise<V8Realm> {
    if (!sync) {
      // The caller (the worker ending a run) sends its answer first; then the isolate is made here.
      await new Promise<void>((resolve) => setImmediate(resolve));
      await this.#gate.quiet();
    }
    const snapshot = this.#snapshot ?? undefined;
    if (this.#snapshot === undefined) this.#scheduleSnapshot();
    const isolate = newIsolate(memoryLimitMb, snapshot);
    const parts = this.#parts;
    const ops: OpenOps = { count: 0 };
    const use = this.#use;
    try {
      const creating = sync ? undefined : isolate.createContext();
      // A spare loads the parts recent runs used: their compiles are queued right behind the
      // context's creation on the isolate's thread (no hop back to this thread in between).
      const names = !sync && parts !== undefined ? this.#usage.wanted() : [];
      const compiling = Promise.all(names.map((name) => parts !== undefined ? parts.compileAhead(isolate, name) : Promise.reject(new Error('runjs: no part source'))));
      compiling.catch(() => {}); // awaited by #preload; a failed context creation rejects first
      const context = creating === undefined ? isolate.createContextSync() : await creating;
      const callback = new ivm.Callback((op: unknown, argsJson: unknown, bytes: unknown) => {
        // A part's factory is a function, not data: compiled here, in this realm (part-compiler.ts).
        if (op === 'platform.compile' && parts !== undefined) return parts.compile(isolate, context, parseName(argsJson));
        const answer = hostCall(String(op), String(argsJson), bytes instanceof Uint8Array ? bytes : undefined);
        // `a<id>`: an async op started; its answer comes back through complete().
        if (typeof answer === 'string' && answer.charCodeAt(0) === 0x61) { ops.count++; use.opened(); }
        return toGuest(answer);
      });
      let internal: ivm.Reference<Record<string, unknown>>;
      if (snapshot) {
        const bind = context.global.getSync(BIND_GLOBAL, { reference: true }) as ivm.Reference<(fn: unknown) => void>;
        bind.applySync(undefined, [callback]);
        internal = context.global.getSync(INTERNAL_GLOBAL, { reference: true }) as ivm.Reference<Record<string, unknown>>;
        context.global.deleteSync(INTERNAL_GLOBAL);
      } else {
        context.global.setSync('__runjs_host', callback);
        const info = { filename: PRELUDE_FILENAME, ...(this.#cachedData ? { cachedData: this.#cachedData } : { produceCachedData: true }) };
        const script = sync ? isolate.compileScriptSync(PRELUDE_SOURCE, info) : await isolate.compileScript(PRELUDE_SOURCE, info);
        const produced = (script as ivm.Script & ivm.CachedDataResult).cachedData;
        if (!this.#cachedData && produced) this.#cachedData = produced;
        internal = (sync ? script.runSync(context, { reference: true }) : await script.run(context, { reference: true })) as ivm.Reference<Record<string, unknown>>;
      }
      if (this.#wasmJson !== undefined) (internal.getSync('installWasm', { reference: true }) as ivm.Reference<(json: string) => void>).applySync(undefined, [this.#wasmJson]);
      // A spare (booted while the worker serves or awaits a run) loads the parts recent runs used.
      const preloaded = await this.#preload(context, internal, names, compiling, before);
      return new V8Realm(isolate, context, internal, use, preloaded, snapshot !== undefined, ops);
    } catch (e) {
      isolate.dispose();
      throw e;
    }
  }
}

/** Bytes cross into the isolate as a copy; strings cross as they are. */
function parseName(json: unknown): unknown {
  try {
    return JSON.parse(String(json));
  } catch {
    return undefined;
  }
}

function toGuest(value: string | Uint8Array): unknown {
  return typeof value === 'string' ? value : new ivm.ExternalCopy(value).copyInto({ release: true });
}
