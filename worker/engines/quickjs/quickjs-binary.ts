// The QuickJS build this worker runs: Bellard's QuickJS compiled to wasm by
// @jitl/quickjs-wasmfile-release-sync (pinned exactly in package.json — heap images restore only
// on the identical .wasm). Loaded and compiled once per process; every VM instantiates the same
// WebAssembly.Module, so V8's optimised wasm code is shared between them (engine-study Q5/Q6).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import pkg from '@jitl/quickjs-wasmfile-release-sync';
import type { RawFFI } from './raw-ffi.ts';
import { once } from '../../../shared/once.ts';
import { Wasm, type WasmImports, type WasmInstance, type WasmMemory, type WasmModule } from './wasm-api.ts';

/** The emscripten callbacks object (quickjs-emscripten's EmscriptenModuleCallbacks, with numbers for pointers). */
export interface Callbacks {
  callFunction(asyncify: unknown, ctx: number, thisPtr: number, argc: number, argv: number, hostRefId: number): number;
  shouldInterrupt(asyncify: unknown, rt: number): number;
  freeHostRef(asyncify: unknown, rt: number, hostRefId: number): void;
  loadModuleSource(asyncify: unknown, rt: number, ctx: number, name: string): number;
  normalizeModule(asyncify: unknown, rt: number, ctx: number, base: string, name: string): number;
}

/** What we pass the emscripten factory (it returns this same object, filled in). */
export interface ModuleOptions {
  wasmMemory: WasmMemory;
  callbacks: Callbacks;
  instantiateWasm(imports: WasmImports, onSuccess: (instance: WasmInstance, module: WasmModule) => void): object;
  print(text: string): void;
  printErr(text: string): void;
}

/** The emscripten module object as our layer uses it. */
export interface EmscriptenInstance {
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  UTF8ToString(ptr: number): string;
}

interface Variant {
  importFFI(): Promise<new (module: never) => unknown>;
  importModuleLoader(): Promise<(options: never) => Promise<unknown>>;
}

export interface QuickJSBinary {
  readonly module: WasmModule;
  /** sha256 (hex) of the .wasm file: the build id recorded in every image. */
  readonly buildId: string;
  readonly factory: (options: ModuleOptions) => Promise<EmscriptenInstance>;
  readonly newFFI: (module: EmscriptenInstance) => RawFFI;
  /**
   * Where this build's allocator keeps its break (wasm-vm.ts findBrkAddress): a fact about the
   * build, found once on a throwaway instance; null until then, undefined when not found.
   */
  brkAddress: number | undefined | null;
}

async function load(): Promise<QuickJSBinary> {
  const wasmPath = createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm');
  const bytes = readFileSync(wasmPath);
  const buildId = createHash('sha256').update(bytes).digest('hex');
  // Synchronous compile: `await WebAssembly.compile` does not keep the event loop alive
  // (engine-study 2.6), and lazy compilation makes this ~5 ms anyway.
  const module = new Wasm.Module(bytes);
  // Node's ESM entry (index.mjs) exports the variant as default; the package's typings describe
  // its CommonJS shape, hence the narrowing through our own interface.
  const variant = pkg as unknown as Variant;
  const FFI = await variant.importFFI();
  const factory = await variant.importModuleLoader();
  return {
    module,
    buildId,
    factory: factory as unknown as QuickJSBinary['factory'],
    // The FFI's branded pointer types are all numbers at run time; our layer uses plain numbers.
    newFFI: (m) => new FFI(m as never) as RawFFI,
    brkAddress: null,
  };
}

/** The process-wide QuickJS binary, loaded on first use. */
export const loadQuickJSBinary: () => Promise<QuickJSBinary> = once(load);
