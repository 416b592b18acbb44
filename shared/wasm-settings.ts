// The WebAssembly modules a worker offers its V8 runs (WorkerSettings.wasm), loaded and checked by
// the supervisor at startup (supervisor/wasm/load-wasm.ts). docs/wasm.md is the user's view.

export interface WasmModuleSetting {
  /** A JavaScript identifier: the globals are `__wasm_<name>` and, when `bind`, `<name>`. */
  readonly name: string;
  readonly bytes: Uint8Array;
  /** The module imports nothing: its instance's exports are bound as the global `<name>`. */
  readonly bind: boolean;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function isWasmSettings(v: unknown): v is readonly WasmModuleSetting[] {
  return Array.isArray(v) && v.every((m: unknown) => {
    if (typeof m !== 'object' || m === null) return false;
    const r = m as Record<string, unknown>;
    return typeof r['name'] === 'string' && IDENTIFIER.test(r['name']) && r['bytes'] instanceof Uint8Array && typeof r['bind'] === 'boolean';
  });
}
