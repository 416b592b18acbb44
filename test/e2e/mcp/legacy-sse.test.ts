// The legacy HTTP+SSE transport (--sse-port): the SDK's SSE client against the real server, the
// session name from GET /sse or from the initialize POST, /message errors, no tasks, and the 15 s
// keep-alive comment on the stream.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request, type ClientRequest } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { defaultInstructions } from '../../../supervisor/mcp/mcp-texts.ts';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { httpRequest, readStream } from '../server/http-request.ts';
import { ok, resultJson, sessionOf, settle, sseClient } from './mcp-clients.ts';

let server: ServerProcess;
let client: Client;
/** A raw GET /sse held open for longer than one keep-alive interval, read by the last test. */
let keepAlive: Promise<{ status: number; text: string }>;

before(async () => {
  server = await startServer(['--allowed-hosts', '*'], { transport: 'sse' });
  keepAlive = readStream(server.port, '/sse', 17_000);
  client = await sseClient(server.base, { 'X-MCP-Session-Id': 'sse-agent' });
});
after(async () => {
  await client?.close();
  await server?.stop();
});

test('initialize over SSE: no tasks capability, the SSE instructions', async () => {
  assert.deepEqual(client.getServerCapabilities(), { tools: { listChanged: false }, logging: {}, resources: { listChanged: true } });
  assert.equal(client.getInstructions(), defaultInstructions('stateful', 'sse', { defaultTimeoutSecs: 30, defaultHeapMb: 8, maxHeapMb: 1024 }));
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name), ['run_js', 'get_execution', 'get_execution_output', 'cancel_execution', 'list_executions', 'get_execution_decisions', 'list_sessions', 'list_session_snapshots', 'get_artifact', 'list_artifacts', 'delete_artifact', 'get_artifact_upload_url']);
  assert.equal(tools[0]!.execution, undefined, 'no task support advertised on SSE');
});

test('the stateful tools work over SSE, tagged with the session from GET /sse', async () => {
  const id = String(ok(await client.callTool({ name: 'run_js', arguments: { code: 'console.log("via sse"); "ok"' } }))['execution_id']);
  const info = await settle(client, id);
  assert.deepEqual([info['status'], info['result']], ['completed', '"ok"']);
  assert.equal(ok(await client.callTool({ name: 'get_execution_output', arguments: { execution_id: id } }))['data'], 'via sse\n');
  assert.deepEqual(resultJson(await client.callTool({ name: 'cancel_execution', arguments: { execution_id: id } })), { ok: false, error: `Execution '${id}' is not running (status: completed)` });
  assert.ok((ok(await client.callTool({ name: 'list_executions', arguments: {} }))['executions'] as { execution_id: string }[]).some((e) => e.execution_id === id));
  assert.equal(sessionOf(server.dbDir, id), 'sse-agent');
});

test('a task request is refused on SSE', async () => {
  await assert.rejects(client.request({ method: 'tools/call', params: { name: 'run_js', arguments: { code: '1' }, task: {} } }, CreateTaskResultSchema),
    /does not support task creation/);
});

test('/message and /sse errors', async () => {
  const missing = await httpRequest(server.port, 'POST', '/message', { 'Content-Type': 'application/json' }, '{}');
  assert.deepEqual([missing.status, missing.json], [400, { error: 'Missing sessionId query parameter: open GET /sse first and post to the endpoint it announces' }]);
  const unknown = await httpRequest(server.port, 'POST', '/message?sessionId=nope', { 'Content-Type': 'application/json' }, '{}');
  assert.deepEqual([unknown.status, unknown.json], [404, { error: 'No open SSE stream for sessionId nope: open GET /sse again' }]);
  const badName = await httpRequest(server.port, 'GET', '/sse', { Accept: 'text/event-stream', 'X-MCP-Session-Id': 'n'.repeat(300) });
  assert.deepEqual([badName.status, badName.json], [400, { error: 'X-MCP-Session-Id is longer than 256 characters' }]);
  const malformed = await httpRequest(server.port, 'POST', '/message?sessionId=nope', { 'Content-Type': 'application/json' }, '{bad');
  assert.equal(malformed.status, 400);
  assert.match((malformed.json as { error: string }).error, /^Request body is not valid JSON: /);
  const anyHost = await httpRequest(server.port, 'POST', '/message?sessionId=nope', { Host: 'any.example:1', 'Content-Type': 'application/json' }, '{}');
  assert.equal(anyHost.status, 404, '--allowed-hosts * lets any Host through');
  const noMcp = await httpRequest(server.port, 'POST', '/mcp', { 'Content-Type': 'application/json' }, '{}');
  assert.deepEqual([noMcp.status, noMcp.json], [404, { error: 'Not found: POST /mcp' }], 'an SSE port serves no Streamable HTTP');
});

/** A minimal raw SSE session: GET /sse, then JSON-RPC over POST /message, replies read from the stream. */
async function rawSession(headersOnPost: Record<string, string>): Promise<{ call(msg: object): Promise<unknown>; notify(msg: object): Promise<void>; close(): void }> {
  let buffer = '';
  const waiters = new Map<number, (v: unknown) => void>();
  let endpoint = '';
  let req!: ClientRequest;
  await new Promise<void>((resolve, reject) => {
    req = request({ host: '127.0.0.1', port: server.port, path: '/sse', headers: { Accept: 'text/event-stream' } }, (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (let i = buffer.indexOf('\n\n'); i !== -1; i = buffer.indexOf('\n\n')) {
          const frame = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          const event = /^event: (.*)$/m.exec(frame)?.[1];
          const data = /^data: (.*)$/m.exec(frame)?.[1] ?? '';
          if (event === 'endpoint') { endpoint = data; resolve(); }
          if (event === 'message') {
            const msg = JSON.parse(data) as { id?: number };
            if (msg.id !== undefined) waiters.get(msg.id)?.(msg);
          }
        }
      });
    });
    req.on('error', reject);
    req.end();
  });
  const post = (msg: object) => httpRequest(server.port, 'POST', endpoint, { 'Content-Type': 'application/json', ...headersOnPost }, JSON.stringify(msg));
  return {
    call: async (msg) => {
      const reply = new Promise((r) => waiters.set((msg as { id: number }).id, r));
      assert.equal((await post(msg)).status, 202);
      return reply;
    },
    notify: async (msg) => { assert.equal((await post(msg)).status, 202); },
    close: () => req.destroy(),
  };
}

test('X-MCP-Session-Id on the initialize POST names the session too', async () => {
  const s = await rawSession({ 'X-MCP-Session-Id': 'from-initialize' });
  try {
    await s.call({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    await s.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const reply = await s.call({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'run_js', arguments: { code: '1' } } }) as { result: { structuredContent: { execution_id: string } } };
    assert.equal(sessionOf(server.dbDir, reply.result.structuredContent.execution_id), 'from-initialize');
  } finally {
    s.close();
  }
});

test('GET /sse sends a keep-alive comment within 15 s', async () => {
  const { status, text } = await keepAlive;
  assert.equal(status, 200);
  assert.match(text, /^event: endpoint\ndata: \/message\?sessionId=[0-9a-f-]{36}\n\n/);
  assert.ok(text.includes('\n\n: ping\n\n'), `a ping after the endpoint event: ${JSON.stringify(text)}`);
});
