// --heap-memory-ceiling: the largest heap_memory_max_mb a caller may ask for. Above it REST says
// 400 with the HEAP_OUT_OF_RANGE text naming the ceiling, MCP gives an error result; the ceiling
// itself runs; the MCP texts state it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { errorMessage } from '../../../shared/errors.ts';
import { defaultInstructions, defaultRunJsDescription } from '../../../supervisor/mcp/mcp-texts.ts';
import { failed, httpClient, ok, settle } from '../mcp/mcp-clients.ts';
import { startServer, type ServerProcess } from './server-process.ts';

const CEILING = 64;
const LIMITS = { defaultTimeoutSecs: 30, defaultHeapMb: 16, maxHeapMb: CEILING };
let server: ServerProcess;
let client: Client;

before(async () => {
  server = await startServer(['--heap-memory-ceiling', String(CEILING), '--heap-memory-max', '16']);
  client = await httpClient(server.base);
});
after(async () => {
  await client?.close();
  await server?.stop();
});

async function exec(body: string, query = '', contentType = 'application/json'): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${server.base}/api/exec${query}`, { method: 'POST', headers: { 'Content-Type': contentType }, body });
  return { status: res.status, json: await res.json() as Record<string, unknown> };
}

async function settled(id: string): Promise<Record<string, unknown>> {
  for (;;) {
    const info = await (await fetch(`${server.base}/api/executions/${id}`)).json() as Record<string, unknown>;
    if (info['status'] !== 'running') return info;
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('REST: one above the ceiling is 400 naming the ceiling (JSON body and query); the ceiling itself runs', async () => {
  const refusal = { error: errorMessage('HEAP_OUT_OF_RANGE', CEILING + 1, 8, CEILING) };
  assert.equal(refusal.error, `heap_memory_max_mb must be an integer from 8 to ${CEILING} (smaller values are raised to 8), got ${CEILING + 1}`);
  assert.deepEqual(await exec(JSON.stringify({ code: '1', heap_memory_max_mb: CEILING + 1 })), { status: 400, json: refusal });
  assert.deepEqual(await exec('1', `?heap_memory_max_mb=${CEILING + 1}`, 'text/plain'), { status: 400, json: refusal });
  const accepted = await exec(JSON.stringify({ code: '6 * 7', heap_memory_max_mb: CEILING }));
  assert.equal(accepted.status, 202);
  const info = await settled(String(accepted.json['execution_id']));
  assert.deepEqual([info['status'], info['result']], ['completed', '42']);
});

test('MCP: one above the ceiling is an error result; the ceiling itself runs', async () => {
  assert.deepEqual(failed(await client.callTool({ name: 'run_js', arguments: { code: '1', heap_memory_max_mb: CEILING + 1 } })),
    { error: `Invalid arguments for run_js: heap_memory_max_mb: must be at most ${CEILING}` });
  const { execution_id: id } = ok(await client.callTool({ name: 'run_js', arguments: { code: '6 * 7', heap_memory_max_mb: CEILING } }));
  const info = await settle(client, String(id));
  assert.deepEqual([info['status'], info['result']], ['completed', '42']);
});

test('MCP texts state the ceiling as the maximum', async () => {
  assert.equal(client.getInstructions(), defaultInstructions('stateful', 'streamable-http', LIMITS));
  assert.match(client.getInstructions() ?? '', new RegExp(`heap_memory_max_mb up to ${CEILING},`));
  const runJs = (await client.listTools()).tools.find((t) => t.name === 'run_js')!;
  assert.equal(runJs.description, defaultRunJsDescription('stateful', LIMITS, false, true));
  assert.match(JSON.stringify(runJs.inputSchema.properties?.['heap_memory_max_mb']), new RegExp(`"maximum":${CEILING}[,}]`));
});
