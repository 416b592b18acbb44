// The QuickJS engine: Bellard's QuickJS in WebAssembly with memory images (ARCHITECTURE.md §3).
// One compiled module per process; one VM per memory cap (the Memory's `maximum` is fixed at
// creation), kept idle between runs and loaded by restoring an image in place. The base image
// (prelude evaluated) is built once per worker at warm-up (or read from a private on-disk cache
// keyed by the wasm build, prelude and bridge); every fresh run boots from it, and a
// VM is reset to it as soon as a run is done — so a failed run never leaves a dirty VM behind.
import { randomFillSync } from 'node:crypto';
import { EngineError, type Engine, type GuestRealm, type RealmOptions } from '../../engine.ts';
import { HeapImageError, parseHeapImage, type HeapImage } from '../../../shared/heap-image.ts';
import { loadQuickJSBinary, type QuickJSBinary } from './quickjs-binary.ts';
import { BRIDGE_SOURCE, buildBaseImage } from './base-image.ts';
import { guestVersion } from './guest-version.ts';
import { defaultBaseImageCacheDir, discardCachedBaseImage, readCachedBaseImage, writeCachedBaseImage } from './base-image-cache.ts';
import { ImageTooLarge, restoreImage } from './memory-image.ts';
import { QuickJSRealm, type RealmOwner } from './quickjs-realm.ts';
import { MAX_PAGES, MIN_PAGES, PAGE_BYTES, WasmVm } from './wasm-vm.ts';

/** heap_memory_max_mb below this is raised to it, as for V8. */
const MIN_HEAP_MB = 8;
/** Idle VMs kept per worker besides the default-cap one (each holds its touched memory). */
const EXTRA_VMS = 1;
/** An idle VM whose memory grew past this many pages (64 MiB) is dropped rather than kept. */
const RETAIN_PAGES = 1024;
/** The builder VM may grow freely: the base image is sized by what the prelude needs. */
const BUILDER_PAGES = 1024;

/**
 * QuickJS's own recursion limit (shadow-stack bytes). Guest recursion also uses V8's native
 * stack for the wasm frames, and far more of it than shadow stack: ~3.2× for plain calls,
 * getters, toString and callbacks, 10–12× for JSON.stringify of nested arrays (measured, cold
 * Liftoff code), while the parser's recursion (eval, new Function, deeply nested source) uses
 * almost none and is bounded by the native stack alone. The limit is 1/14 of the native stack,
 * so every recursion QuickJS checks is a guest RangeError, never a host stack overflow (which
 * would fail the run and cost the VM). With the worker's --stack-size=7600 (worker-process.ts)
 * that is ~540 KiB: ~3,100 frames of plain recursion, JSON.parse/stringify of any nesting depth
 * throw catchable errors, and source nested up to ~5,000 levels parses.
 */
export function maxStackBytes(): number {
  const flag = process.execArgv.find((a) => a.startsWith('--stack-size='));
  const nativeKb = flag ? Number(flag.slice('--stack-size='.length)) || 984 : 984;
  return Math.min(768 * 1024, Math.floor((nativeKb * 1024) / 14));
}

/**
 * A short workload run once at warm-up so V8 starts tiering the interpreter's hot wasm functions
 * up (cold, the first calls are 2–7× slower). Kept small: it delays the worker's readiness.
 */
const WARM_UP_SOURCE = `
  const o = []; for (let i = 0; i < 3000; i++) o.push({ i, s: 'x' + i, a: [i, i * 2] });
  JSON.parse(JSON.stringify(o)).map((x) => x.s.length).reduce((a, b) => a + b, 0);
  class P { #v; constructor(v) { this.#v = v; } get v() { return this.#v; } }
  let t = 0; for (let i = 0; i < 3000; i++) t += new P(i).v; /a+b/.test('aaab'.repeat(100)); t;
`;
const WARM_UP_RESULT = String((2999 * 3000) / 2);

/**
 * Runs the warm-up workload on a scratch VM holding `base` (never on a VM whose state is kept).
 * Doubles as a check of the base image: it must compute the expected value.
 */
function warmUp(scratch: WasmVm, base: HeapImage): void {
  const ctx = base.manifest.handles.ctx;
  const r = scratch.evaluate(ctx, WARM_UP_SOURCE, 'runjs:warm-up', 0);
  try {
    if (scratch.isException(r) || !scratch.isNumber(r) || scratch.getString(ctx, r) !== WARM_UP_RESULT) {
      throw new Error('the warm-up script did not compute its expected result');
    }
  } finally {
    scratch.ffi.QTS_FreeValuePointer(ctx, r);
  }
}

interface IdleVm {
  readonly vm: WasmVm;
  /** The VM holds exactly the base image, reseeded by nobody yet. */
  atBase: boolean;
  realm: QuickJSRealm | undefined;
}

export class QuickJSEngine implements Engine, RealmOwner {
  readonly name = 'quickjs' as const;
  readonly images = true;
  #binary: QuickJSBinary | undefined;
  #base: HeapImage | undefined;
  #ready: Promise<void> | undefined;
  /** Idle VMs by their cap in pages; the first entry is the default cap's. */
  readonly #vms = new Map<number, IdleVm>();
  /** Where the base image is kept between worker restarts (WorkerSettings.quickjsCacheDir). */
  readonly #cacheDir: string;

  constructor(options: { readonly cacheDir?: string } = {}) {
    this.#cacheDir = options.cacheDir ?? defaultBaseImageCacheDir();
  }

  /** The guest platform version (guest-version.ts) recorded in every image this engine makes. */
  get prelude(): string {
    return guestVersion();
  }

  get build(): string {
    if (!this.#binary) throw new Error('QuickJS engine is not warmed up');
    return this.#binary.buildId;
  }

  /** The base image (after warm-up). */
  get baseImage(): HeapImage {
    if (!this.#base) throw new Error('QuickJS engine is not warmed up');
    return this.#base;
  }

  warmUp(): Promise<void> {
    // A failed boot is not kept: the next run tries again rather than failing for ever.
    this.#ready ??= this.#boot().catch((e: unknown) => {
      this.#ready = undefined;
      throw e;
    });
    return this.#ready;
  }

  async #boot(): Promise<void> {
    const binary = await loadQuickJSBinary();
    this.#binary = binary;
    const key = { build: binary.buildId, prelude: this.prelude, bridgeSource: BRIDGE_SOURCE };
    const cached = readCachedBaseImage(this.#cacheDir, key);
    if (cached) {
      // The file's hash matched; still, an image that fails to restore or to run the warm-up is
      // deleted and rebuilt, so one bad file cannot fail every worker that starts after it.
      try {
        const scratch = await WasmVm.create(binary, BUILDER_PAGES);
        restoreImage(scratch, cached, binary.buildId);
        this.#base = cached;
        warmUp(scratch, cached);
        await this.#vmFor(MIN_HEAP_MB);
        return;
      } catch (e) {
        process.stderr.write(`runjs: the cached QuickJS base image failed (${e instanceof Error ? e.message : String(e)}); rebuilding it\n`);
        discardCachedBaseImage(this.#cacheDir, key);
        this.#base = undefined;
        this.#vms.clear();
      }
    }
    const scratch = await WasmVm.create(binary, BUILDER_PAGES);
    this.#base = buildBaseImage(scratch, binary.buildId, maxStackBytes());
    warmUp(scratch, this.#base);
    writeCachedBaseImage(this.#cacheDir, key, this.#base);
    await this.#vmFor(MIN_HEAP_MB);
  }

  /**
   * The memory cap for a run, in pages: the base image plus the heap limit (at least the wasm's
   * minimum, at most the 2 GiB a wasm32 VM addresses through the glue).
   */
  capPages(memoryLimitMb: number): number {
    const heapPages = Math.ceil((Math.max(MIN_HEAP_MB, memoryLimitMb) * 1024 * 1024) / PAGE_BYTES);
    return Math.min(MAX_PAGES, Math.max(MIN_PAGES, this.baseImage.manifest.pages + heapPages));
  }

  async createRealm(options: RealmOptions): Promise<GuestRealm> {
    await this.warmUp();
    const image = options.image === undefined ? undefined : parseHeapImage(options.image);
    if (image && image.manifest.build !== this.build) {
      throw new HeapImageError(`Heap image was made by QuickJS build ${image.manifest.build.slice(0, 12)}, this worker runs build ${this.build.slice(0, 12)}; images restore only on the engine build that made them`);
    }
    if (image && image.manifest.prelude !== this.prelude) {
      throw new HeapImageError(`Heap image was made with guest platform ${image.manifest.prelude}, this worker runs ${this.prelude}; images restore only on the runjs version whose guest platform made them`);
    }
    const idle = await this.#vmFor(options.memoryLimitMb);
    if (idle.realm) idle.realm.dispose(); // one realm per VM; the worker runs one at a time
    const source = image ?? this.baseImage;
    if (image || !idle.atBase) {
      idle.atBase = false;
      try {
        restoreImage(idle.vm, source, this.build);
      } catch (e) {
        this.#reset(idle); // a restore that stopped half-way leaves a VM nobody may use as is
        if (e instanceof ImageTooLarge) throw new EngineError('out-of-memory', e.message);
        throw e;
      }
    }
    idle.atBase = false;
    const realm = new QuickJSRealm(idle.vm, source.manifest.handles, source.manifest.generation, options.hostCall, this);
    idle.realm = realm;
    idle.vm.ffi.QTS_RuntimeSetMaxStackSize(source.manifest.handles.rt, maxStackBytes());
    realm.reseed(randomFillSync(new Uint32Array(4)));
    return realm;
  }

  /** Called by a realm's dispose(): reset its VM to the base image now, off the next run's path. */
  release(realm: QuickJSRealm, vm: WasmVm): void {
    for (const [cap, idle] of this.#vms) {
      if (idle.vm !== vm) continue;
      if (idle.realm === realm) idle.realm = undefined;
      // A trapped VM is thrown away; so is a grown one, whose memory would otherwise stay resident
      // (wasm memory never shrinks) — a fresh VM costs a few ms when a large run comes again.
      if (vm.broken || vm.pages > RETAIN_PAGES) { this.#vms.delete(cap); return; }
      this.#reset(idle);
      return;
    }
  }

  #reset(idle: IdleVm): void {
    try {
      restoreImage(idle.vm, this.baseImage, this.build);
      idle.atBase = true;
    } catch {
      idle.vm.broken = true;
      for (const [cap, v] of this.#vms) if (v === idle) this.#vms.delete(cap);
    }
  }

  async #vmFor(memoryLimitMb: number): Promise<IdleVm> {
    const cap = this.capPages(memoryLimitMb);
    const existing = this.#vms.get(cap);
    if (existing && !existing.vm.broken) return existing;
    const defaultCap = this.capPages(MIN_HEAP_MB);
    // Evict the least recently created non-default VMs beyond the budget.
    const extras = [...this.#vms.keys()].filter((k) => k !== defaultCap);
    while (cap !== defaultCap && extras.length >= EXTRA_VMS) this.#vms.delete(extras.shift()!);
    const vm = await WasmVm.create(this.#binary!, cap);
    restoreImage(vm, this.baseImage, this.build);
    const idle: IdleVm = { vm, atBase: true, realm: undefined };
    this.#vms.set(cap, idle);
    return idle;
  }
}
