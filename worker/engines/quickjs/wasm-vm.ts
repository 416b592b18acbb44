// One QuickJS wasm instance: its caller-supplied WasmMemory (whose `maximum` is the hard
// memory cap), the emscripten glue, and the few low-level operations the engine needs — strings
// in and out, calls, evaluation, the job queue, JSValue tags. It knows nothing about runs or
// images; the realm sets `hooks` to receive guest → host calls.
//
// Layout of linear memory (this build): static data, then the 5 MiB shadow stack growing down
// from `stackTop`, then the malloc heap from `stackTop` up to the break (`brk`). Between two
// top-level calls the stack pointer is back at `stackTop` and everything below it is dead.
import type { QuickJSBinary, EmscriptenInstance, Callbacks } from './quickjs-binary.ts';
import type { RawFFI } from './raw-ffi.ts';
import { Wasm, type WasmImports, type WasmInstance, type WasmMemory } from './wasm-api.ts';

export const PAGE_BYTES = 65536;
/** The wasm's memory import declares this minimum (16 MiB); a smaller Memory fails to link. */
export const MIN_PAGES = 256;
/**
 * The most memory a VM may have: the glue's own heap maximum (2 GiB; its resize never goes past
 * it), so larger caps are clamped here (the supervisor refuses heap_memory_max_mb above 2048 in
 * heap mode).
 */
export const MAX_PAGES = 32768;
/**
 * The glue grows memory by 20 %, 10 % or 5 % more than asked, but by at most this much, and gives
 * up when none of those sizes fits under the Memory's maximum (the cap) — though the request
 * itself may fit. hookResize then asks again for exactly the request (see exactGrowth).
 */
const OVERGROWTH_BOUND = 96 * 1024 * 1024;
/** STACK_SIZE the package is built with (engine-study 2.6); checked against the layout at start. */
const STACK_BYTES = 5 * 1024 * 1024;

/** JSValue tags of this build (quickjs.h, NaN-boxed on wasm32); checked when the base image is built. */
const TAG_FIRST = -9;
const TAG_INT = 0;
const TAG_EXCEPTION = 6;
const TAG_FLOAT64 = 8;

export interface VmHooks {
  /** The guest called the host function; returns an owned JSValue* (or 0 for undefined). Never throws. */
  callFunction(ctx: number, argc: number, argv: number): number;
  /** Asked every few thousand bytecodes: true stops guest code with an uncatchable error. */
  shouldInterrupt(): boolean;
  /** Source of an imported module, or undefined after recording why it is unavailable. */
  loadModuleSource(name: string): string | undefined;
}

interface VmExports {
  /** emscripten's stackSave (the only way to read __stack_pointer). */
  stackSave(): number;
}

export class WasmVm {
  readonly memory: WasmMemory;
  readonly maxPages: number;
  readonly ffi: RawFFI;
  readonly stackTop: number;
  /** Lowest address of the shadow stack, or stackTop when the layout check failed (nothing is treated as dead). */
  readonly stackLow: number;
  /** Set when the heap asked to grow past `maxPages`: the guest hit the memory cap. */
  growFailed = false;
  /** Set after a host exception unwound through wasm frames: the instance must be thrown away. */
  broken = false;
  hooks: VmHooks | undefined;

  readonly #mod: EmscriptenInstance;
  readonly #exports: VmExports;
  readonly #resize: (bytes: number) => boolean;
  readonly #encoder = new TextEncoder();
  #u8: Uint8Array;
  #i32: Int32Array;
  /** Highest heap size requested from the glue since the last `cleanTop` reset. */
  #requestedTop = 0;
  /** The build this instance runs (its brkAddress is found once per build). */
  readonly #binary: QuickJSBinary;

  private constructor(binary: QuickJSBinary, memory: WasmMemory, maxPages: number, mod: EmscriptenInstance, ffi: RawFFI, exports: VmExports, resize: (bytes: number) => boolean) {
    this.#binary = binary;
    this.memory = memory;
    this.maxPages = maxPages;
    this.#mod = mod;
    this.ffi = ffi;
    this.#exports = exports;
    this.#resize = resize;
    this.#u8 = new Uint8Array(memory.buffer);
    this.#i32 = new Int32Array(memory.buffer);
    this.stackTop = exports.stackSave();
    this.stackLow = this.stackTop;
  }

  static async create(binary: QuickJSBinary, maxPages: number): Promise<WasmVm> {
    const cap = Math.min(MAX_PAGES, Math.max(MIN_PAGES, maxPages));
    const memory = new Wasm.Memory({ initial: MIN_PAGES, maximum: cap });
    let vm: WasmVm | undefined;
    let exports: VmExports | undefined;
    let resize: ((bytes: number) => boolean) | undefined;
    const callbacks: Callbacks = {
      callFunction: (_a: unknown, ctx: number, _this: number, argc: number, argv: number) => {
        const h = vm?.hooks;
        return h ? h.callFunction(ctx, argc, argv) : 0;
      },
      shouldInterrupt: () => (vm?.hooks?.shouldInterrupt() ? 1 : 0),
      freeHostRef: () => { /* one host function with a fixed id, never freed */ },
      loadModuleSource: (_a: unknown, _rt: number, _ctx: number, name: string) => vm?.loadModule(name) ?? 0,
      normalizeModule: () => 0,
    };
    const mod = await binary.factory({
      wasmMemory: memory,
      callbacks,
      // The glue never reads the .wasm file: it instantiates the module compiled once per process.
      instantiateWasm(imports, onSuccess) {
        resize = hookResize(imports, memory, cap * PAGE_BYTES, () => { if (vm) vm.growFailed = true; }, (bytes) => { if (vm) vm.#requestedTop = Math.max(vm.#requestedTop, bytes); });
        const instance = new Wasm.Instance(binary.module, imports);
        exports = readExports(instance);
        onSuccess(instance, binary.module);
        return {};
      },
      print: () => {},
      printErr: () => {},
    });
    if (!exports || !resize) throw new Error('QuickJS: the emscripten glue did not instantiate the module');
    vm = new WasmVm(binary, memory, cap, mod, binary.newFFI(mod), exports, resize);
    vm.#checkLayout();
    if (binary.brkAddress === null) {
      // Finding the break allocates on this instance; detect once per build on a throwaway one.
      binary.brkAddress = findBrkAddress(vm);
      return WasmVm.create(binary, maxPages);
    }
    return vm;
  }

  // --- memory views (growth detaches the old buffer) ---
  get u8(): Uint8Array {
    if (this.#u8.buffer !== this.memory.buffer) this.#refresh();
    return this.#u8;
  }

  get i32(): Int32Array {
    if (this.#i32.buffer !== this.memory.buffer) this.#refresh();
    return this.#i32;
  }

  #refresh(): void {
    this.#u8 = new Uint8Array(this.memory.buffer);
    this.#i32 = new Int32Array(this.memory.buffer);
  }

  get pages(): number {
    return this.memory.buffer.byteLength / PAGE_BYTES;
  }

  /** Grows memory to at least `pages` through the glue, which refreshes its own views (never memory.grow directly). */
  growTo(pages: number): boolean {
    if (this.pages >= pages) return true;
    if (pages > this.maxPages) return false;
    return this.#resize(pages * PAGE_BYTES) && this.pages >= pages;
  }

  /** The allocator's break: memory above it is untouched since the last restore. Undefined if unknown. */
  get brk(): number | undefined {
    const at = this.#binary.brkAddress;
    return typeof at === 'number' ? this.i32[at >> 2]! >>> 0 : undefined;
  }

  /** Upper bound of heap bytes the guest may have written since the last restore. */
  get dirtyTop(): number {
    const brk = this.brk;
    return brk === undefined ? this.memory.buffer.byteLength : Math.min(this.memory.buffer.byteLength, Math.max(brk, this.#requestedTop));
  }

  resetDirtyTop(): void {
    this.#requestedTop = 0;
  }

  get stackPointer(): number {
    return this.#exports.stackSave();
  }

  // --- values ---
  tag(valuePtr: number): number {
    return this.i32[(valuePtr >> 2) + 1]!;
  }

  isException(valuePtr: number): boolean {
    return this.tag(valuePtr) === TAG_EXCEPTION;
  }

  isNumber(valuePtr: number): boolean {
    const tag = this.tag(valuePtr);
    return tag === TAG_INT || (tag - TAG_FIRST) >>> 0 >= TAG_FLOAT64 - TAG_FIRST;
  }

  malloc(bytes: number): number {
    const p = this.#mod._malloc(bytes);
    if (p === 0) throw new VmOutOfMemory();
    return p;
  }

  free(ptr: number): void {
    this.#mod._free(ptr);
  }

  /** A NUL-terminated UTF-8 copy of `s` on the heap; the caller frees it. Returns [ptr, byteLength]. */
  cString(s: string): [number, number] {
    const cap = s.length * 3 + 1;
    const p = this.malloc(cap);
    const { written } = this.#encoder.encodeInto(s, this.u8.subarray(p, p + cap - 1));
    this.u8[p + written] = 0;
    return [p, written];
  }

  readCString(ptr: number): string {
    return this.#mod.UTF8ToString(ptr);
  }

  newString(ctx: number, s: string): number {
    const [p] = this.cString(s);
    try {
      return this.ffi.QTS_NewString(ctx, p);
    } finally {
      this.free(p);
    }
  }

  /** ToString of a value (internal conversions only: callers pass strings or primitives). */
  getString(ctx: number, valuePtr: number): string {
    const p = this.ffi.QTS_GetString(ctx, valuePtr);
    if (p === 0) return '';
    try {
      return this.readCString(p);
    } finally {
      this.ffi.QTS_FreeCString(ctx, p);
    }
  }

  /** A copy of an ArrayBuffer argument, or undefined when the value is not one. */
  getArrayBuffer(ctx: number, valuePtr: number): Uint8Array | undefined {
    const length = this.ffi.QTS_GetArrayBufferLength(ctx, valuePtr);
    const p = this.ffi.QTS_GetArrayBuffer(ctx, valuePtr);
    if (p === 0) return new Uint8Array(0); // the bridge only passes ArrayBuffers; an empty one may have no block
    try {
      return this.u8.slice(p, p + length);
    } finally {
      this.free(p);
    }
  }

  /** A new guest ArrayBuffer holding a copy of `bytes` (QuickJS takes ownership of the block). */
  newArrayBuffer(ctx: number, bytes: Uint8Array): number {
    const p = this.malloc(Math.max(1, bytes.byteLength));
    this.u8.set(bytes, p);
    return this.ffi.QTS_NewArrayBuffer(ctx, p, bytes.byteLength);
  }

  /** Calls `fn` with `args` (JSValueConst* each) through the argv scratch block; returns an owned JSValue*. */
  call(ctx: number, scratch: number, fn: number, thisPtr: number, args: readonly number[]): number {
    const base = scratch >> 2;
    const i32 = this.i32;
    for (let i = 0; i < args.length; i++) i32[base + i] = args[i]!;
    return this.ffi.QTS_Call(ctx, fn, thisPtr, args.length, scratch);
  }

  evaluate(ctx: number, source: string, filename: string, flags: number): number {
    const [p, length] = this.cString(source);
    try {
      return this.ffi.QTS_Eval(ctx, p, length, filename, 0, flags);
    } finally {
      this.free(p);
    }
  }

  /**
   * Runs queued jobs (promise reactions) until none is left. Returns 0, or an owned JSValue* of
   * the exception a job ended with (only uncatchable ones escape: interrupt, out of memory).
   */
  drainJobs(rt: number, ctx: number, ctxOut: number): number {
    const r = this.ffi.QTS_ExecutePendingJob(rt, -1, ctxOut);
    if (this.isNumber(r)) {
      this.ffi.QTS_FreeValuePointer(ctx, r);
      return 0;
    }
    return r;
  }

  loadModule(name: string): number {
    const h = this.hooks;
    if (!h) return 0;
    let source: string | undefined;
    try {
      source = h.loadModuleSource(name);
    } catch (e) {
      // Returning 0 would leave QuickJS with no exception set: the import would reject with a raw
      // engine value. A module that throws the error instead makes it a real guest Error (a
      // static import was checked before the run, so only import() from eval'd code gets here).
      const message = e instanceof Error ? e.message : String(e);
      source = `const e = new Error(${JSON.stringify(message)}); e.code = 'ERR_MODULE_NOT_FOUND'; throw e;\n`;
    }
    if (source === undefined) return 0;
    return this.cString(source)[0]; // C frees it
  }

  /** Verifies the assumptions the image code rests on: tags and the data|stack|heap layout. */
  #checkLayout(): void {
    // [stackTop - STACK_BYTES, stackTop) must be pure stack: on a fresh instance its bottom MiB
    // is untouched (static data would show there if the stack were smaller than assumed).
    const low = this.stackTop - STACK_BYTES;
    if (low <= 0) return;
    const length = Math.min(1 << 20, this.stackTop - low);
    if (Buffer.from(this.memory.buffer, low, length).equals(Buffer.alloc(length))) (this as { stackLow: number }).stackLow = low;
  }
}

/** Thrown by our own mallocs when the heap is at its cap. */
export class VmOutOfMemory extends Error {
  constructor() {
    super('QuickJS heap is full');
    this.name = 'VmOutOfMemory';
  }
}

/**
 * Wraps the glue's heap-resize import so a refused growth (the Memory's maximum) is seen: that is
 * the guest reaching its memory cap. The import is found by what it does, not by its minified
 * name, and returned wrapped too so the host can grow memory for a restore.
 */
function hookResize(imports: WasmImports, memory: WasmMemory, capBytes: number, onFail: () => void, onRequest: (bytes: number) => void): (bytes: number) => boolean {
  const env = imports['a'] as Record<string, unknown> | undefined;
  const names = env ? Object.keys(env).filter((k) => typeof env[k] === 'function' && String(env[k]).includes('.grow(')) : [];
  if (!env || names.length !== 1) throw new Error('QuickJS: unsupported emscripten glue (heap resize import not found)');
  const name = names[0]!;
  const original = env[name] as (bytes: number) => boolean;
  const grow = (bytes: number): boolean => bytes <= capBytes && (original(bytes) || exactGrowth(original, memory, bytes));
  env[name] = (bytes: number) => {
    onRequest(bytes >>> 0);
    const ok = grow(bytes >>> 0);
    if (!ok) onFail();
    return ok;
  };
  return (bytes) => grow(bytes >>> 0);
}

/**
 * Grows memory to exactly `bytes` (page-aligned) after the glue's over-grown sizes did not fit
 * under the cap. The glue grows to max(request, min(old × 1.2, request + OVERGROWTH_BOUND)); asked
 * for `aligned - OVERGROWTH_BOUND`, that is exactly `aligned` whenever old × 1.05 > aligned (which
 * is why the first request failed). Below OVERGROWTH_BOUND this cannot be expressed, so a small
 * cap may lose up to 5 % of itself.
 */
function exactGrowth(original: (bytes: number) => boolean, memory: WasmMemory, bytes: number): boolean {
  const aligned = Math.ceil(bytes / PAGE_BYTES) * PAGE_BYTES;
  if (aligned < OVERGROWTH_BOUND) return false;
  return original(aligned - OVERGROWTH_BOUND) && memory.buffer.byteLength >= bytes;
}

/**
 * emscripten's stackSave / stackRestore under the minified export names of the pinned build
 * (the glue's own `ta=b.Oa; ua=b.Ma`). Checked by behaviour, so another build fails loudly here
 * rather than corrupting images later.
 */
function readExports(instance: WasmInstance): VmExports {
  const save = instance.exports['Oa'];
  const restore = instance.exports['Ma'];
  if (typeof save === 'function' && typeof restore === 'function') {
    const sp = (save as () => number)();
    if (Number.isInteger(sp) && sp > PAGE_BYTES && sp % 16 === 0) {
      (restore as (p: number) => void)(sp - 16);
      const moved = (save as () => number)();
      (restore as (p: number) => void)(sp);
      if (moved === sp - 16) return { stackSave: save as () => number };
    }
  }
  throw new Error('QuickJS: unsupported build (stack exports not found); heap images need the exact pinned package');
}

/**
 * Finds the word holding the allocator's break: allocate a block too large for the heap's free
 * space and see which static word moved by about its size. The block is freed again; the
 * instance this runs on is fresh and only used for the base image, whose break it raises.
 */
function findBrkAddress(vm: WasmVm): number | undefined {
  const words = vm.stackLow === vm.stackTop ? 0 : vm.stackLow >> 2;
  if (words === 0) return undefined;
  const before = vm.i32.slice(0, words);
  const size = 1 << 20;
  const p = vm.malloc(size);
  const after = vm.i32.slice(0, words);
  vm.free(p);
  const freed = vm.i32.slice(0, words);
  const hits: number[] = [];
  for (let i = 0; i < words; i++) {
    const grew = (after[i]! >>> 0) - (before[i]! >>> 0);
    // The break moves up by the block and stays there when it is freed (this allocator never
    // trims); the top-chunk pointer moves the same way but comes back down on free.
    if (grew >= size / 2 && grew <= size + 4 * PAGE_BYTES && (before[i]! >>> 0) >= vm.stackTop
      && (after[i]! >>> 0) <= vm.memory.buffer.byteLength && freed[i] === after[i]) hits.push(i * 4);
  }
  return hits.length === 1 ? hits[0] : undefined;
}
