// The SDK's real MCP client over each transport, plus small readers of tool results.
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export async function httpClient(base: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'runjs-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));
  return client;
}

export async function sseClient(base: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'runjs-e2e', version: '1.0.0' });
  // requestInit headers go on the GET /sse stream and on every POST /message.
  await client.connect(new SSEClientTransport(new URL(`${base}/sse`), { requestInit: { headers } }));
  return client;
}

/**
 * The JSON of a tool result. Checks the two copies agree: the text block always holds the JSON;
 * structuredContent holds the same object whenever it is present.
 */
export function resultJson(result: unknown): Record<string, unknown> {
  const r = result as CallToolResult;
  assert.equal(r.content.length, 1, 'one content block');
  const block = r.content[0]!;
  assert.equal(block.type, 'text');
  const parsed = JSON.parse((block as { text: string }).text) as Record<string, unknown>;
  if (r.structuredContent !== undefined) assert.deepEqual(r.structuredContent, parsed, 'structuredContent equals the text JSON');
  return parsed;
}

/** A successful result: not isError, structuredContent present. */
export function ok(result: unknown): Record<string, unknown> {
  const r = result as CallToolResult;
  assert.notEqual(r.isError, true, `expected success, got ${JSON.stringify(r)}`);
  assert.ok(r.structuredContent !== undefined, 'structuredContent present');
  return resultJson(r);
}

/** A failed result: isError true; returns its JSON. */
export function failed(result: unknown): Record<string, unknown> {
  const r = result as CallToolResult;
  assert.equal(r.isError, true, `expected an error result, got ${JSON.stringify(r)}`);
  return resultJson(r);
}

/** The `session` the registry recorded for an execution (read from the server's SQLite file). */
export function sessionOf(dbDir: string, executionId: string): string | null | undefined {
  const db = new DatabaseSync(join(dbDir, 'runjs.db'), { readOnly: true });
  try {
    const row = db.prepare('SELECT session FROM executions WHERE id = ?').get(executionId) as { session: string | null } | undefined;
    return row?.session;
  } finally {
    db.close();
  }
}

/** Polls get_execution until the status is terminal. */
export async function settle(client: Client, executionId: string, timeoutMs = 20_000): Promise<Record<string, unknown>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const info = ok(await client.callTool({ name: 'get_execution', arguments: { execution_id: executionId } }));
    if (info['status'] !== 'running') return info;
    if (Date.now() > until) throw new Error(`execution ${executionId} still running after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
