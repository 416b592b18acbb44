// WebAssembly modules against the real server process and the SDK's real MCP client: startup
// errors (exit 2: the budget text, the heap-store conflict), the stub tools and their answers,
// and run_js using a module.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { runOnce, startServer } from './server-process.ts';
import { httpClient, ok, settle } from '../mcp/mcp-clients.ts';
import { ADD_WAT, IMPORTS_WAT, watFiles } from '../../helpers/wasm-fixtures.ts';

test('a module over its budget, or modules with a heap store, stop startup (exit 2)', async () => {
  const f = await watFiles({ big: '(module (memory 300))' });
  const [big, heap] = await Promise.all([
    runOnce(['--wasm-module', `big=${f['big']}`]),
    runOnce(['--wasm-module', `big=${f['big']}:32m`, '--heap-store', 'dir']),
  ]);
  assert.equal(big.code, 2);
  assert.equal(big.stderr, "runjs: WASM module 'big': memory too large (300 pages = 18.75 MiB, budget allows 256 pages = 16 MiB)\n");
  assert.equal(heap.code, 2);
  assert.match(heap.stderr, /^runjs: --wasm-module\/--wasm-config is incompatible with heap persistence/);
});

test('stubs are listed after the tools and answer with instructions; run_js uses the modules', async () => {
  const f = await watFiles({ add: ADD_WAT, imp: IMPORTS_WAT });
  const server = await startServer(['--wasm-module', `add=${f['add']}`, '--wasm-config', JSON.stringify({ imp: { path: f['imp'], description: 'Doubles and logs' } })]);
  const client = await httpClient(server.base);
  try {
    const { tools } = await client.listTools();
    const stubs = tools.filter((t) => t.name.startsWith('runjs__wasm__'));
    assert.deepEqual(tools.slice(-2).map((t) => t.name), ['runjs__wasm__add', 'runjs__wasm__imp']);
    assert.equal(stubs[1]!.description!.split('\n\n')[1], 'Doubles and logs');
    assert.match(stubs[0]!.description!, /Exports: memory, add\.$/);
    const answer = await client.callTool({ name: 'runjs__wasm__add', arguments: { a: 1 } }) as CallToolResult;
    assert.equal((answer.content[0] as { text: string }).text, [
      'This tool is a stub for the WASM module "add". Execute it from JavaScript via the `run_js` tool, e.g.:',
      '',
      'console.log(add.add(/* arguments */));',
      '',
      'Available exports: memory, add.',
      '',
      'Arguments passed: {"a":1}',
    ].join('\n'));
    const { execution_id: id } = ok(await client.callTool({ name: 'run_js', arguments: { code: 'add.add(20, 22)' } })) as { execution_id: string };
    assert.equal((await settle(client, id))['result'], '42');
  } finally {
    await client.close();
    assert.equal(await server.stop(), 0);
  }
});
