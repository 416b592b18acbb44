// declaredSizes (supervisor/wasm/wasm-limits.ts) on modules wabt assembles, checked against what
// the host's own WebAssembly makes of them where it can tell (an instance's memory size).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { declaredSizes, WasmFormatError } from '../../../supervisor/wasm/wasm-limits.ts';
import { wat } from '../../helpers/wasm-fixtures.ts';

test('defined memories and tables, with and without a maximum; the host agrees on the memory size', async () => {
  const bytes = await wat('(module (memory (export "m") 3 10) (table 5 funcref) (table 2 7 externref) (func (export "f")))', { reference_types: true });
  assert.deepEqual(declaredSizes(bytes), { memories: [{ min: 3, max: 10 }], tables: [{ min: 5, max: undefined }, { min: 2, max: 7 }] });
  // The host's WebAssembly (the project's TypeScript lib declares none).
  const Wasm = (globalThis as unknown as { WebAssembly: { Module: new (b: Uint8Array) => object; Instance: new (m: object, i: object) => { exports: Record<string, { buffer: ArrayBuffer }> } } }).WebAssembly;
  const instance = new Wasm.Instance(new Wasm.Module(bytes), {});
  assert.equal(instance.exports['m']!.buffer.byteLength, 3 * 65536);
});

test('imported memories and tables count, imported first; functions, globals and tags in the import section are skipped', async () => {
  const bytes = await wat(`(module
    (import "env" "f" (func (param i32)))
    (import "env" "g" (global (mut i32)))
    (import "env" "t" (table 4 8 funcref))
    (import "env" "mem" (memory 2))
    (memory 1 1) (data (i32.const 0) "hello"))`, { multi_memory: true } as never);
  assert.deepEqual(declaredSizes(bytes), { memories: [{ min: 2, max: undefined }, { min: 1, max: 1 }], tables: [{ min: 4, max: 8 }] });
});

test('shared and 64-bit memories: flags read, sizes kept', async () => {
  assert.deepEqual(declaredSizes(await wat('(module (memory 1 2 shared))', { threads: true })).memories, [{ min: 1, max: 2 }]);
  assert.deepEqual(declaredSizes(await wat('(module (memory i64 5))', { memory64: true })).memories, [{ min: 5, max: undefined }]);
});

test('a module without memory or tables; custom sections are skipped', async () => {
  const bytes = await wat('(module (func (export "f") (result i32) i32.const 1))');
  const withCustom = new Uint8Array([...bytes, 0x00, 0x05, 0x04, 0x6e, 0x61, 0x6d, 0x65]);
  assert.deepEqual(declaredSizes(withCustom), { memories: [], tables: [] });
});

test('malformed binaries fail with WasmFormatError, never a wrong answer', () => {
  assert.throws(() => declaredSizes(new Uint8Array([1, 2, 3, 4, 1, 0, 0, 0])), (e: Error) => e instanceof WasmFormatError && e.message === 'not a WebAssembly binary (bad magic number)');
  assert.throws(() => declaredSizes(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 5, 10, 1])), (e: Error) => e instanceof WasmFormatError && e.message === 'a section runs past the end of the module');
  assert.throws(() => declaredSizes(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 5, 1, 1])), (e: Error) => e instanceof WasmFormatError && e.message === 'unexpected end of the module');
});
