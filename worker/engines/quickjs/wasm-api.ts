// The slice of the WebAssembly JS API the QuickJS engine uses. The project's TypeScript libs
// (es2024 + @types/node) declare no WebAssembly types, so they are spelled out here once.

export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}

export type WasmModule = object;

export interface WasmInstance {
  readonly exports: Record<string, unknown>;
}

export type WasmImports = Record<string, Record<string, unknown>>;

interface WasmApi {
  Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory;
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: WasmImports) => WasmInstance;
}

export const Wasm: WasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
