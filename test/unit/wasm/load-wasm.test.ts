// Loading WebAssembly modules at startup (supervisor/wasm/load-wasm.ts): the flag and config
// shapes, names, duplicates, unreadable and invalid files, and the memory budget's texts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadWasmModules, parseWasmConfig, parseWasmModuleFlag, WasmConfigError } from '../../../supervisor/wasm/load-wasm.ts';
import { ADD_WAT, IMPORTS_WAT, watFiles } from '../../helpers/wasm-fixtures.ts';

const MiB = 1024 * 1024;
const fails = (fn: () => unknown, message: string): void => {
  assert.throws(fn, (e: Error) => e instanceof WasmConfigError && e.message === message);
};

test('--wasm-module NAME=PATH[:LIMIT]: the suffix after the last colon is a limit only when it parses as a size', () => {
  assert.deepEqual(parseWasmModuleFlag('add=/m/add.wasm:32m', 16 * MiB, '/'), { name: 'add', path: '/m/add.wasm', maxMemoryBytes: 32 * MiB, description: undefined });
  assert.deepEqual(parseWasmModuleFlag('add=rel/add.wasm', 16 * MiB, '/srv'), { name: 'add', path: '/srv/rel/add.wasm', maxMemoryBytes: 16 * MiB, description: undefined });
  assert.equal(parseWasmModuleFlag('a=/x:y/add.wasm', 1, '/').path, '/x:y/add.wasm');
  assert.equal(parseWasmModuleFlag('a=/m/add.wasm:65536', 1, '/').maxMemoryBytes, 65536);
  fails(() => parseWasmModuleFlag('1bad=/x.wasm', 1, '/'), "--wasm-module: the module name '1bad' is not a JavaScript identifier ([A-Za-z_$][A-Za-z0-9_$]*)");
  fails(() => parseWasmModuleFlag('a=:16m', 1, '/'), "--wasm-module 'a=:16m': the path is empty");
});

test('--wasm-config: a path or {path, max_memory_bytes, description}; unknown keys and bad values are named', () => {
  assert.deepEqual(parseWasmConfig({ a: '/a.wasm', b: { path: 'b.wasm', max_memory_bytes: 65536, description: 'B' } }, 7, '/d'), [
    { name: 'a', path: '/a.wasm', maxMemoryBytes: 7, description: undefined },
    { name: 'b', path: '/d/b.wasm', maxMemoryBytes: 65536, description: 'B' },
  ]);
  fails(() => parseWasmConfig({ a: { path: '/a.wasm', max_memory: 1 } }, 1, '/'), 'a.max_memory: unknown key (expected one of path, max_memory_bytes, description)');
  fails(() => parseWasmConfig({ a: { path: '/a.wasm', max_memory_bytes: -1 } }, 1, '/'), 'a.max_memory_bytes: expected a positive integer');
  fails(() => parseWasmConfig({ a: 3 }, 1, '/'), 'a: expected a path or {path, max_memory_bytes, description}');
  fails(() => parseWasmConfig(['a'], 1, '/'), 'expected an object of module name to path or {path, max_memory_bytes, description}');
});

test('loading: imports and exports read; duplicates, missing files, invalid modules and unknown stub descriptions stop startup', async () => {
  const f = await watFiles({ add: ADD_WAT, imp: IMPORTS_WAT });
  const flags = { wasmModule: [`add=${f['add']}`], wasmConfig: { imp: f['imp'] }, wasmDefaultMaxMemory: 16 * MiB, wasmStubDescription: ['add=Adds numbers'] };
  const loaded = loadWasmModules(flags, '/');
  assert.deepEqual(loaded.map((m) => [m.name, m.imports, m.exports, m.description]), [['add', false, ['memory', 'add'], 'Adds numbers'], ['imp', true, ['run'], undefined]]);
  fails(() => loadWasmModules({ ...flags, wasmConfig: { add: f['imp'] } }, '/'), "WASM module 'add' is configured twice");
  fails(() => loadWasmModules({ ...flags, wasmStubDescription: ['nope=x'] }, '/'), "--wasm-stub-description 'nope=x': no WASM module is named 'nope'");
  const missing = join(dirname(f['add']!), 'missing.wasm');
  fails(() => loadWasmModules({ ...flags, wasmModule: [`m=${missing}`], wasmStubDescription: [] }, '/'), `WASM module 'm': cannot read ${missing}: ENOENT`);
  const junk = join(dirname(f['add']!), 'junk.wasm');
  writeFileSync(junk, 'not wasm');
  assert.throws(() => loadWasmModules({ ...flags, wasmModule: [`j=${junk}`], wasmStubDescription: [] }, '/'), (e: Error) => e instanceof WasmConfigError && e.message.startsWith(`WASM module 'j': ${junk} is not a valid WebAssembly module: `));
});

test('the memory budget: initial pages (and tables at 8 bytes an element), then a declared maximum, in the reference\'s words', async () => {
  const f = await watFiles({ big: '(module (memory 300))', grows: '(module (memory 1 1000))', table: '(module (memory 1) (table 10000 funcref))', fits: '(module (memory 256 256))' });
  const load = (name: string, limit = ''): unknown => loadWasmModules({ wasmModule: [`${name}=${f[name]}${limit}`], wasmDefaultMaxMemory: 16 * MiB, wasmStubDescription: [] }, '/');
  fails(() => load('big'), "WASM module 'big': memory too large (300 pages = 18.75 MiB, budget allows 256 pages = 16 MiB)");
  fails(() => load('grows'), "WASM module 'grows': declared maximum memory too large (1000 pages = 62.5 MiB, budget allows 256 pages = 16 MiB)");
  fails(() => load('table', ':64k'), "WASM module 'table': memory too large (3 pages = 0.19 MiB, budget allows 1 pages = 0.06 MiB)");
  assert.equal((load('fits') as unknown[]).length, 1);
  assert.equal((load('big', ':32m') as unknown[]).length, 1);
});
