// A guest realm on QuickJS: one VM whose memory holds a booted (base or restored) image. Guest
// code runs synchronously inside each call, so limits are enforced from the interrupt handler:
// the memory cap (a refused heap growth), the run's InterruptPoll (deadline, side-channel
// cancel) and interrupt(). A failed realm is never reused — dispose() hands the VM back to the
// engine, which restores the base image over it (or throws the VM away after a trap).
import {
  EngineError, type GuestRealm, type HostCall, type InterruptPoll, type InterruptReason, type ModuleSourceLoader,
} from '../../engine.ts';
import type { HeapImage, ImageHandles } from '../../../shared/heap-image.ts';
import { captureImage } from './memory-image.ts';
import { EVAL_MODULE } from './raw-ffi.ts';
import { SCRATCH_ARGV, SCRATCH_CTX_OUT, SCRATCH_VALUES } from './base-image.ts';
import { VmOutOfMemory, type VmHooks, type WasmVm } from './wasm-vm.ts';

/** Bridge dispatch codes (bridge.js). */
const RUN_MAIN = 0;
const COMPLETE = 1;
const RESEED = 2;

/** JSValue tags for values written inline into the scratch block. */
const TAG_INT = 0;
const TAG_BOOL = 1;
const TAG_NULL = 2;
const TAG_UNDEFINED = 3;

export interface RealmOwner {
  readonly build: string;
  readonly prelude: string;
  release(realm: QuickJSRealm, vm: WasmVm): void;
}

const STACK_OVERFLOW = 'Uncaught RangeError: Maximum call stack size exceeded';

export class QuickJSRealm implements GuestRealm {
  readonly #vm: WasmVm;
  readonly #h: ImageHandles;
  readonly #hostCall: HostCall;
  readonly #owner: RealmOwner;
  readonly #generation: number;
  #poll: InterruptPoll | undefined;
  #interrupted = false;
  #reason: InterruptReason | undefined;
  /** The realm's state can no longer be trusted (failure, trap): never snapshot or reuse it. */
  #failed = false;
  #disposed = false;
  #loader: ModuleSourceLoader | undefined;

  constructor(vm: WasmVm, handles: ImageHandles, generation: number, hostCall: HostCall, owner: RealmOwner) {
    this.#vm = vm;
    this.#h = handles;
    this.#generation = generation;
    this.#hostCall = hostCall;
    this.#owner = owner;
    vm.growFailed = false;
    vm.hooks = this.#hooks;
  }

  readonly #hooks: VmHooks = {
    callFunction: (ctx, argc, argv) => this.#callHost(ctx, argc, argv),
    shouldInterrupt: () => {
      if (this.#interrupted || this.#vm.growFailed) return true;
      const reason = this.#poll?.();
      if (reason === undefined) return false;
      this.#reason = reason;
      this.#interrupted = true;
      return true;
    },
    loadModuleSource: (name) => {
      if (!this.#loader) return undefined;
      return this.#loader(name);
    },
  };

  /** Reseeds Math.random: every boot and restore gets its own sequence. */
  reseed(words: Uint32Array): void {
    this.#invoke([this.#int(0, RESEED), this.#int(1, words[0]! | 0), this.#int(2, words[1]! | 0), this.#int(3, words[2]! | 0), this.#int(4, words[3]! | 0)], []);
  }

  setInterruptPoll(poll: InterruptPoll): void {
    this.#poll = poll;
  }

  async runMain(source: string, filename: string, loadModule: ModuleSourceLoader): Promise<void> {
    this.#usable();
    this.#loader = loadModule;
    const vm = this.#vm;
    const ctx = this.#h.ctx;
    const ns = this.#enter(() => vm.evaluate(ctx, source, filename, EVAL_MODULE));
    if (vm.isException(ns)) throw this.#failure(this.#takeException(ns));
    try {
      this.#invoke([this.#int(0, RUN_MAIN), this.#h.internal, ns], []);
    } finally {
      vm.ffi.QTS_FreeValuePointer(ctx, ns);
    }
  }

  async complete(id: number, ok: boolean, json: string | null, bytes: Uint8Array | undefined): Promise<void> {
    this.#usable();
    const vm = this.#vm;
    const ctx = this.#h.ctx;
    const owned: number[] = [];
    try {
      const jsonArg = json === null ? this.#constant(3, TAG_NULL) : this.#own(owned, vm.newString(ctx, json));
      const bytesArg = bytes === undefined ? this.#constant(4, TAG_UNDEFINED) : this.#own(owned, vm.newArrayBuffer(ctx, bytes));
      this.#invoke([this.#int(0, COMPLETE), this.#h.internal, this.#int(1, id), this.#constant(2, TAG_BOOL, ok ? 1 : 0), jsonArg, bytesArg], owned);
    } catch (e) {
      if (e instanceof VmOutOfMemory) throw new EngineError('out-of-memory', 'QuickJS heap is full');
      throw e;
    }
  }

  interrupt(): void {
    this.#interrupted = true;
  }

  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#poll = undefined;
    if (this.#vm.hooks === this.#hooks) this.#vm.hooks = undefined;
    this.#owner.release(this, this.#vm);
  }

  snapshot(buffer?: (bytes: number) => Uint8Array): HeapImage {
    if (this.#disposed || this.#failed || this.#interrupted) throw new Error('QuickJS: cannot snapshot a realm that failed, was interrupted or disposed');
    const vm = this.#vm;
    if (vm.ffi.QTS_IsJobPending(this.#h.rt) !== 0) throw new Error('QuickJS: cannot snapshot with promise jobs pending');
    return captureImage(vm, { build: this.#owner.build, prelude: this.#owner.prelude, handles: this.#h, generation: this.#generation + 1 }, buffer);
  }

  /** True once the realm failed or was interrupted: the engine must restore before reuse. */
  get dirty(): boolean {
    return this.#failed || this.#interrupted;
  }

  // --- calls into the VM ---

  /**
   * Calls the bridge dispatcher with `args` (JSValueConst* each), frees `owned`, runs the job
   * queue dry, and turns anything abnormal into an EngineError.
   */
  #invoke(args: number[], owned: number[]): void {
    const vm = this.#vm;
    const { ctx, rt, scratch, bridge } = this.#h;
    let result = 0;
    try {
      result = this.#enter(() => vm.call(ctx, scratch + SCRATCH_ARGV, bridge, vm.ffi.QTS_GetUndefined(), args));
    } finally {
      for (const p of owned) vm.ffi.QTS_FreeValuePointer(ctx, p);
    }
    if (vm.isException(result)) throw this.#failure(this.#takeException(result));
    vm.ffi.QTS_FreeValuePointer(ctx, result);
    const stopped = this.#stopped();
    if (stopped) throw stopped;
    const jobError = this.#enter(() => vm.drainJobs(rt, ctx, scratch + SCRATCH_CTX_OUT));
    if (jobError !== 0) throw this.#failure(this.#describe(jobError));
    const stop = this.#stopped();
    if (stop) throw stop;
  }

  /** Runs one FFI call; a host exception unwinding through wasm frames breaks the VM for good. */
  #enter<T>(fn: () => T): T {
    try {
      return fn();
    } catch (e) {
      this.#failed = true;
      this.#vm.broken = true;
      const stop = this.#stopped();
      if (stop) throw stop;
      if (e instanceof VmOutOfMemory) throw new EngineError('out-of-memory', e.message);
      if (e instanceof RangeError && /call stack/i.test(e.message)) throw new EngineError('internal', STACK_OVERFLOW);
      throw new EngineError('internal', `runjs internal error: QuickJS failed (${e instanceof Error ? e.message : String(e)})`);
    }
  }

  /** The EngineError for a limit that stopped guest code, if one did. */
  #stopped(): EngineError | undefined {
    if (this.#vm.growFailed) {
      this.#failed = true;
      return new EngineError('out-of-memory', 'QuickJS memory cap reached');
    }
    if (this.#interrupted) {
      this.#failed = true;
      return new EngineError('interrupted', 'QuickJS guest code interrupted', this.#reason);
    }
    return undefined;
  }

  #failure(text: string): EngineError {
    this.#failed = true;
    const stop = this.#stopped();
    if (stop) return stop;
    return new EngineError('internal', `Uncaught ${text}`);
  }

  /** The pending exception of an exception result, as text; frees both values. */
  #takeException(resultPtr: number): string {
    const vm = this.#vm;
    const ctx = this.#h.ctx;
    const ex = vm.ffi.QTS_ResolveException(ctx, resultPtr);
    vm.ffi.QTS_FreeValuePointer(ctx, resultPtr);
    return ex === 0 ? 'unknown error' : this.#describe(ex);
  }

  #describe(valuePtr: number): string {
    const vm = this.#vm;
    const ctx = this.#h.ctx;
    try {
      // Skip guest code when a limit already explains the failure (it would be interrupted anyway).
      return this.#stopped() ? '' : vm.getString(ctx, valuePtr) || 'unknown error';
    } catch {
      return 'unknown error';
    } finally {
      try { vm.ffi.QTS_FreeValuePointer(ctx, valuePtr); } catch { /* broken VM */ }
    }
  }

  #callHost(ctx: number, argc: number, argv: number): number {
    const vm = this.#vm;
    // No arguments: the bridge's deadline poll before a heavy native call (bridge.js pollHeavy).
    // 1 tells it to spin, so QuickJS's own interrupt check fires and stops it uncatchably.
    if (argc === 0) return this.#hooks.shouldInterrupt() ? vm.ffi.QTS_NewFloat64(ctx, 1) : 0;
    // Once a limit stopped the run, guest code that still runs (rejection handlers of the
    // interrupted main, as uncatchable errors unwind) must not reach the host: it would settle
    // the run as an ordinary failure before the engine reports the stop.
    if (this.#interrupted || vm.growFailed) {
      return vm.newString(ctx, `e${JSON.stringify({ name: 'Error', message: 'runjs: the run was stopped' })}`);
    }
    try {
      // argv is an array of 8-byte JSValues (NaN-boxed on wasm32).
      // Four arguments: the bridge's promiseDetails (bridge.js) — the state of argv[1], or its result.
      if (argc === 4) {
        const wantResult = vm.i32[(argv + 16) >> 2] === 1;
        return wantResult ? vm.ffi.QTS_PromiseResult(ctx, argv + 8) : vm.ffi.QTS_NewFloat64(ctx, vm.ffi.QTS_PromiseState(ctx, argv + 8));
      }
      const op = vm.getString(ctx, argv);
      const argsJson = argc > 1 ? vm.getString(ctx, argv + 8) : 'null';
      const bytes = argc > 2 ? vm.getArrayBuffer(ctx, argv + 16) : undefined;
      const r = this.#hostCall(op, argsJson, bytes);
      return typeof r === 'string' ? vm.newString(ctx, r) : vm.newArrayBuffer(ctx, r);
    } catch (e) {
      if (e instanceof VmOutOfMemory) { vm.growFailed = true; return 0; }
      // Never throw into C (engine-study 2.6): report as an op error the prelude rethrows.
      const message = `runjs internal error: ${e instanceof Error ? e.message : String(e)}`;
      try { return vm.newString(ctx, `e${JSON.stringify({ name: 'Error', message })}`); } catch { return 0; }
    }
  }

  // --- argument values written into the scratch block (no allocation) ---
  #int(slot: number, n: number): number {
    return this.#constant(slot, TAG_INT, n);
  }

  #constant(slot: number, tag: number, payload = 0): number {
    const p = this.#h.scratch + SCRATCH_VALUES + slot * 8;
    const i32 = this.#vm.i32;
    i32[p >> 2] = payload;
    i32[(p >> 2) + 1] = tag;
    return p;
  }

  #own(list: number[], valuePtr: number): number {
    list.push(valuePtr);
    return valuePtr;
  }

  #usable(): void {
    if (this.#disposed) throw new EngineError('internal', 'QuickJS realm used after dispose');
    const stop = this.#stopped();
    if (stop) throw stop;
    if (this.#failed) throw new EngineError('internal', 'QuickJS realm used after a failure');
  }
}
