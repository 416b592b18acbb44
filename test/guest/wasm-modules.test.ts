// The operator's WebAssembly modules in real worker processes (docs/wasm.md): `__wasm_<name>` is
// a compiled WebAssembly.Module, an import-free module's exports are bound as `<name>`, a module
// with imports is instantiated by the script, the globals are lazy, replaceable and fresh in every
// run, a name that is already a platform global is not shadowed, and QuickJS has no WebAssembly.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PoolRunner } from '../helpers/pool-runner.ts';
import { ADD_WAT, IMPORTS_WAT, watFiles } from '../helpers/wasm-fixtures.ts';
import type { WasmModuleSetting } from '../../shared/wasm-settings.ts';

let runner: PoolRunner;
before(async () => {
  const f = await watFiles({ add: ADD_WAT, imp: IMPORTS_WAT });
  const bytes = (name: string): Uint8Array => new Uint8Array(readFileSync(f[name]!));
  const wasm: WasmModuleSetting[] = [
    { name: 'add', bytes: bytes('add'), bind: true },
    { name: 'imp', bytes: bytes('imp'), bind: false },
    // A platform global's name: `__wasm_fetch` only, `fetch` stays the platform's.
    { name: 'fetch', bytes: bytes('add'), bind: true },
  ];
  runner = new PoolRunner(1, 100, 200, undefined, { wasm, warmEngines: ['v8'] });
  await runner.pool.ready();
});
after(() => runner.close());

async function output(code: string, engine: 'v8' | 'quickjs' = 'v8'): Promise<string> {
  const r = await runner.run(code, { engine });
  assert.equal(r.outcome.status, 'completed', JSON.stringify(r.outcome));
  return r.output;
}

test('an import-free module: __wasm_add is a compiled Module, add its instance\'s exports', async () => {
  const out = await output(`
    console.log(__wasm_add instanceof WebAssembly.Module, WebAssembly.Module.exports(__wasm_add).map((e) => e.name).join());
    console.log(add.add(2, 40), add.memory instanceof WebAssembly.Memory, add.memory.buffer.byteLength);
    console.log(add === add, Object.keys(globalThis).includes('add'));
  `);
  assert.equal(out, 'true memory,add\n42 true 65536\ntrue false\n');
});

test('a module with imports is instantiated by the script with its imports; it has no bound global', async () => {
  const out = await output(`
    const seen = [];
    const inst = new WebAssembly.Instance(__wasm_imp, { env: { log: (x) => seen.push(x) } });
    inst.exports.run(21);
    console.log(seen.join(), typeof imp);
  `);
  assert.equal(out, '42 undefined\n');
});

test('the globals can be replaced like any global, and every run starts with fresh ones', async () => {
  assert.equal(await output('add = 5; globalThis.__wasm_add = null; console.log(add, __wasm_add)'), '5 null\n');
  assert.equal(await output('add.memory.grow(1); console.log(add.add(1, 1), add.memory.buffer.byteLength)'), '2 131072\n');
  assert.equal(await output('console.log(typeof add.add, add.memory.buffer.byteLength)'), 'function 65536\n');
});

test('a module named like a platform global does not shadow it', async () => {
  assert.equal(await output('console.log(typeof fetch, fetch === globalThis.fetch, __wasm_fetch instanceof WebAssembly.Module)'), 'function true true\n');
});

test('QuickJS runs have no WebAssembly, so no module globals', async () => {
  assert.equal(await output('console.log(typeof WebAssembly, typeof __wasm_add, typeof add)', 'quickjs'), 'undefined undefined undefined\n');
});
