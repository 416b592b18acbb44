// WebAssembly modules for tests, assembled from text by wabt (the WebAssembly Binary Toolkit) and
// written to a temporary directory.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import wabt from 'wabt';

export type WatFeatures = Parameters<Awaited<ReturnType<typeof wabt>>['parseWat']>[2];

/** The binary of a module in the text format. */
export async function wat(text: string, features: WatFeatures = {}): Promise<Uint8Array> {
  const w = await wabt();
  const m = w.parseWat('test.wat', text, features);
  try {
    return new Uint8Array(m.toBinary({}).buffer);
  } finally {
    m.destroy();
  }
}

/** Writes each `name: wat text` as `<dir>/<name>.wasm`; returns the paths by name. */
export async function watFiles(modules: Readonly<Record<string, string>>): Promise<Record<string, string>> {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-wasm-'));
  const out: Record<string, string> = {};
  for (const [name, text] of Object.entries(modules)) {
    out[name] = join(dir, `${name}.wasm`);
    writeFileSync(out[name], await wat(text));
  }
  return out;
}

/** An import-free module: `add(a, b)` and a one-page memory. */
export const ADD_WAT = '(module (memory (export "memory") 1) (func (export "add") (param i32 i32) (result i32) local.get 0 local.get 1 i32.add))';
/** A module that imports `env.log` and calls it from `run(x)`. */
export const IMPORTS_WAT = '(module (import "env" "log" (func $log (param i32))) (func (export "run") (param i32) local.get 0 i32.const 2 i32.mul call $log))';
