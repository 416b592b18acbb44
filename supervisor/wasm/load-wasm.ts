// --wasm-module / --wasm-config / --wasm-stub-description: the WebAssembly modules every V8 run
// gets as `__wasm_<name>` (a compiled WebAssembly.Module) and, for modules without imports, their
// exports as the global `<name>` (docs/wasm.md). Read, validated and checked against their memory
// budget once, at startup: a bad module stops the server naming it (the reference checks before
// every run; a server that starts is a server whose modules load). Workers receive the bytes in
// WorkerSettings and read no file.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { WasmModuleSetting } from '../../shared/wasm-settings.ts';
import { declaredSizes, WasmFormatError } from './wasm-limits.ts';

export class WasmConfigError extends Error {
  override readonly name = 'WasmConfigError';
}

export interface WasmModuleSpec {
  readonly name: string;
  readonly path: string;
  /** Native memory budget in bytes (per-module, else --wasm-default-max-memory). */
  readonly maxMemoryBytes: number;
  readonly description: string | undefined;
}

/** A loaded module: the spec, its bytes, and what the stubs describe. */
export interface LoadedWasmModule extends WasmModuleSpec {
  readonly bytes: Uint8Array;
  readonly imports: boolean;
  readonly exports: readonly string[];
  /** The exports that are functions (what the stubs' examples call). */
  readonly functions: readonly string[];
}

// The host's WebAssembly (Node's global; the project's TypeScript lib has no DOM declarations of it).
interface WasmApi {
  Module: { new (bytes: Uint8Array): object; imports(m: object): { name: string }[]; exports(m: object): { name: string; kind: string }[] };
}
const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const PAGE = 65536;
const MiB = 1024 * 1024;
/** A table element counts as 8 bytes of the budget (the reference's rule). */
const TABLE_ELEMENT_BYTES = 8;

const SIZE = /^([0-9]+)([kKmMgG]?)$/;
const UNITS: Readonly<Record<string, number>> = { '': 1, k: 1024, m: MiB, g: 1024 * MiB };

function sizeOf(text: string): number | undefined {
  const m = SIZE.exec(text);
  return m ? Number(m[1]) * UNITS[m[2]!.toLowerCase()]! : undefined;
}

function checkName(name: string, where: string): string {
  if (!IDENTIFIER.test(name)) throw new WasmConfigError(`${where}: the module name '${name}' is not a JavaScript identifier ([A-Za-z_$][A-Za-z0-9_$]*)`);
  return name;
}

/** `NAME=PATH[:LIMIT]`: the part after the last `:` is a limit only if it parses as a size. */
export function parseWasmModuleFlag(text: string, defaultMax: number, cwd: string): WasmModuleSpec {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new WasmConfigError(`--wasm-module '${text}': expected NAME=PATH[:LIMIT]`);
  const name = checkName(text.slice(0, eq), '--wasm-module');
  let rest = text.slice(eq + 1);
  let max = defaultMax;
  const colon = rest.lastIndexOf(':');
  if (colon >= 0) {
    const limit = sizeOf(rest.slice(colon + 1));
    if (limit !== undefined) { max = limit; rest = rest.slice(0, colon); }
  }
  if (rest === '') throw new WasmConfigError(`--wasm-module '${text}': the path is empty`);
  if (max <= 0) throw new WasmConfigError(`--wasm-module '${text}': the memory limit must be above zero`);
  return { name, path: resolve(cwd, rest), maxMemoryBytes: max, description: undefined };
}

/** `{name: "path"}` or `{name: {path, max_memory_bytes?, description?}}`. */
export function parseWasmConfig(raw: unknown, defaultMax: number, cwd: string): WasmModuleSpec[] {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new WasmConfigError('expected an object of module name to path or {path, max_memory_bytes, description}');
  return Object.entries(raw).map(([name, entry]) => {
    checkName(name, name);
    if (typeof entry === 'string') {
      if (entry === '') throw new WasmConfigError(`${name}: the path is empty`);
      return { name, path: resolve(cwd, entry), maxMemoryBytes: defaultMax, description: undefined };
    }
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new WasmConfigError(`${name}: expected a path or {path, max_memory_bytes, description}`);
    const e = entry as Record<string, unknown>;
    for (const key of Object.keys(e)) {
      if (!['path', 'max_memory_bytes', 'description'].includes(key)) throw new WasmConfigError(`${name}.${key}: unknown key (expected one of path, max_memory_bytes, description)`);
    }
    if (typeof e['path'] !== 'string' || e['path'] === '') throw new WasmConfigError(`${name}.path: expected a non-empty string`);
    const max = e['max_memory_bytes'] ?? defaultMax;
    if (typeof max !== 'number' || !Number.isSafeInteger(max) || max <= 0) throw new WasmConfigError(`${name}.max_memory_bytes: expected a positive integer`);
    if (e['description'] !== undefined && typeof e['description'] !== 'string') throw new WasmConfigError(`${name}.description: expected a string`);
    return { name, path: resolve(cwd, e['path']), maxMemoryBytes: max, description: e['description'] as string | undefined };
  });
}

const mib = (bytes: number): string => String(Math.round((bytes / MiB) * 100) / 100);

/** Reads, validates and budget-checks one module. */
export function loadWasmModule(spec: WasmModuleSpec): LoadedWasmModule {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(spec.path));
  } catch (e) {
    throw new WasmConfigError(`WASM module '${spec.name}': cannot read ${spec.path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  let module: object;
  try {
    module = new Wasm.Module(bytes);
  } catch (e) {
    throw new WasmConfigError(`WASM module '${spec.name}': ${spec.path} is not a valid WebAssembly module: ${e instanceof Error ? e.message : String(e)}`);
  }
  let sizes;
  try {
    sizes = declaredSizes(bytes);
  } catch (e) {
    if (e instanceof WasmFormatError) throw new WasmConfigError(`WASM module '${spec.name}': ${e.message}`);
    throw e;
  }
  const budgetPages = Math.floor(spec.maxMemoryBytes / PAGE);
  const check = (what: string, memoryPages: number, tableElements: number): void => {
    const bytesNeeded = memoryPages * PAGE + tableElements * TABLE_ELEMENT_BYTES;
    if (bytesNeeded <= spec.maxMemoryBytes) return;
    const pages = Math.ceil(bytesNeeded / PAGE);
    throw new WasmConfigError(`WASM module '${spec.name}': ${what} (${pages} pages = ${mib(pages * PAGE)} MiB, budget allows ${budgetPages} pages = ${mib(budgetPages * PAGE)} MiB)`);
  };
  const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
  check('memory too large', sum(sizes.memories.map((m) => m.min)), sum(sizes.tables.map((t) => t.min)));
  // A declared maximum is what the module may grow to: held to the same budget (no maximum: growth
  // is bounded by the worker's memory watchdog, docs/wasm.md).
  const maxMemory = sum(sizes.memories.map((m) => m.max ?? 0));
  const maxTables = sum(sizes.tables.map((t) => t.max ?? 0));
  check('declared maximum memory too large', maxMemory, maxTables);
  return {
    ...spec, bytes,
    imports: Wasm.Module.imports(module).length > 0,
    exports: Wasm.Module.exports(module).map((e) => e.name),
    functions: Wasm.Module.exports(module).filter((e) => e.kind === 'function').map((e) => e.name),
  };
}

export interface WasmFlags {
  readonly wasmModule: readonly string[];
  readonly wasmConfig?: unknown;
  readonly wasmDefaultMaxMemory: number;
  readonly wasmStubDescription: readonly string[];
}

/** Every configured module, loaded; `--wasm-module` entries first. Duplicate names are an error. */
export function loadWasmModules(flags: WasmFlags, cwd: string): LoadedWasmModule[] {
  const specs = [
    ...flags.wasmModule.map((t) => parseWasmModuleFlag(t, flags.wasmDefaultMaxMemory, cwd)),
    ...(flags.wasmConfig === undefined ? [] : parseWasmConfig(flags.wasmConfig, flags.wasmDefaultMaxMemory, cwd)),
  ];
  const seen = new Set<string>();
  for (const s of specs) {
    if (seen.has(s.name)) throw new WasmConfigError(`WASM module '${s.name}' is configured twice`);
    seen.add(s.name);
  }
  const descriptions = new Map<string, string>();
  for (const text of flags.wasmStubDescription) {
    const eq = text.indexOf('=');
    const name = text.slice(0, eq);
    if (!seen.has(name)) throw new WasmConfigError(`--wasm-stub-description '${text}': no WASM module is named '${name}'`);
    descriptions.set(name, text.slice(eq + 1));
  }
  return specs.map((s) => loadWasmModule(descriptions.has(s.name) ? { ...s, description: descriptions.get(s.name) } : s));
}

/** What a worker gets: names, bytes, and whether to bind the exports. */
export function wasmSettings(modules: readonly LoadedWasmModule[]): WasmModuleSetting[] {
  return modules.map((m) => ({ name: m.name, bytes: m.bytes, bind: !m.imports }));
}
