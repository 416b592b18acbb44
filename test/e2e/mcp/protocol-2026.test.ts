// MCP 2026-07-28 beside 2025-11-25 on one server: the official SDK v2 client (negotiating with
// server/discover) and the SDK v1 client (initialize, a session) at the same time on /mcp; the
// stateless wire (envelope, resultType, caching hints, headers) read raw; run_js as a task of the
// io.modelcontextprotocol/tasks extension; and a 2026 client over stdio.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioTransport } from '@modelcontextprotocol/client/stdio';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { MAIN, NODE, ROOT, startServerPair, type ServerProcess } from '../server/server-process.ts';
import { httpClient, ok, sessionOf } from './mcp-clients.ts';

const TASKS = 'io.modelcontextprotocol/tasks';
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const V = '2026-07-28';
let server: ServerProcess;
/** A --stateless server, started beside the first. */
let stateless: ServerProcess;
let legacy: Client;
let modern: ModernClient;

before(async () => {
  [server, stateless] = await startServerPair([['--max-concurrent-executions', '2']], [['--stateless']]);
  // Both at once: a 2025-11-25 session and a 2026-07-28 client on the same endpoint.
  [legacy, modern] = await Promise.all([
    httpClient(server.base, { 'X-MCP-Session-Id': 'sess-2025' }),
    (async () => {
      const c = new ModernClient({ name: 'runjs-e2e-2026', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
      await c.connect(new ModernHttpTransport(new URL(`${server.base}/mcp`), { requestInit: { headers: { 'X-MCP-Session-Id': 'sess-2026' } } }));
      return c;
    })(),
  ]);
});
after(async () => {
  await Promise.allSettled([legacy?.close(), modern?.close()]);
  await Promise.allSettled([server?.stop(), stateless?.stop()]);
});

interface Rpc {
  readonly status: number;
  readonly headers: Headers;
  readonly body: { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
}

/** One 2026-07-28 request on the wire: the envelope in `_meta`, the routing headers, JSON or one SSE message back. */
async function rpc(method: string, params: Record<string, unknown> = {}, opts: { tasks?: boolean; name?: string; headers?: Record<string, string>; base?: string } = {}): Promise<Rpc> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': V,
    'io.modelcontextprotocol/clientCapabilities': opts.tasks === true ? { extensions: { [TASKS]: {} } } : {},
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  };
  const res = await fetch(`${opts.base ?? server.base}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': V, 'Mcp-Method': method,
      ...(opts.name === undefined ? {} : { 'Mcp-Name': opts.name }), ...opts.headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }),
  });
  const text = await res.text();
  // An SSE answer (the handler sent something before its result): the last data line is the response.
  const json = res.headers.get('content-type')?.startsWith('text/event-stream') === true
    ? text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).filter((l) => l.trim() !== '').at(-1) ?? '{}'
    : text;
  return { status: res.status, headers: res.headers, body: JSON.parse(json) as Rpc['body'] };
}

const call = (name: string, args: Record<string, unknown>, tasks = false, base?: string): Promise<Rpc> => rpc('tools/call', { name, arguments: args }, { tasks, name, base });

async function settled(taskId: string, base?: string): Promise<Record<string, unknown>> {
  for (;;) {
    const got = (await rpc('tasks/get', { taskId }, { tasks: true, name: taskId, base })).body.result!;
    if (['completed', 'failed', 'cancelled'].includes(got['status'] as string)) return got;
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('a 2025-11-25 client and a 2026-07-28 client share one server: same tools, each its own generation', async () => {
  assert.equal(legacy.getServerVersion()?.name, 'runjs');
  assert.equal(modern.getNegotiatedProtocolVersion(), V);
  const [a, b] = await Promise.all([legacy.listTools(), modern.listTools()]);
  assert.deepEqual(b.tools.map((t) => t.name), a.tools.map((t) => t.name));
  // The 2026 wire has no execution.taskSupport (the extension replaces it); 2025 keeps it.
  assert.deepEqual(a.tools.find((t) => t.name === 'run_js')?.execution, { taskSupport: 'optional' });
  assert.equal(b.tools.find((t) => t.name === 'run_js')?.execution, undefined);
  // Both run code at the same time; each run is tagged with the session name its client sent.
  const [r1, r2] = await Promise.all([
    legacy.callTool({ name: 'run_js', arguments: { code: 'console.log("from 2025")' } }),
    modern.callTool({ name: 'run_js', arguments: { code: 'console.log("from 2026")' } }),
  ]);
  const id1 = ok(r1)['execution_id'] as string;
  const id2 = (r2.structuredContent as { execution_id: string }).execution_id;
  assert.equal(r2.isError, undefined);
  for (const id of [id1, id2]) {
    for (;;) {
      const info = ok(await modern.callTool({ name: 'get_execution', arguments: { execution_id: id } }) as never);
      if (info['status'] !== 'running') break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const out = async (id: string) => ok(await legacy.callTool({ name: 'get_execution_output', arguments: { execution_id: id } }))['data'];
  assert.deepEqual([await out(id1), await out(id2)], ['from 2025\n', 'from 2026\n']);
  assert.deepEqual([sessionOf(server.dbDir, id1), sessionOf(server.dbDir, id2)], ['sess-2025', 'sess-2026']);
});

test('the stateless wire: server/discover, resultType, caching hints, serverInfo, removed methods, header checks', async () => {
  const discover = await rpc('server/discover');
  assert.equal(discover.status, 200);
  const d = discover.body.result!;
  assert.deepEqual([d['resultType'], d['supportedVersions'], d['capabilities']], ['complete', [V], { tools: { listChanged: false }, resources: { listChanged: true }, extensions: { [TASKS]: {} } }]);
  assert.deepEqual((d['_meta'] as Record<string, unknown>)['io.modelcontextprotocol/serverInfo'], { name: 'runjs', title: 'runjs', version: VERSION });
  assert.deepEqual([d['ttlMs'], d['cacheScope']], [60_000, 'public']);
  const list = (await rpc('tools/list')).body.result!;
  assert.deepEqual([list['resultType'], list['ttlMs'], list['cacheScope']], ['complete', 60_000, 'public']);
  // 2026 removed initialize and ping: -32601 with HTTP 404.
  const ping = await rpc('ping');
  assert.deepEqual([ping.status, ping.body.error?.code], [404, -32601]);
  // Mcp-Method must match the body (SEP-2243): -32020 with HTTP 400.
  const mismatch = await rpc('tools/list', {}, { headers: { 'Mcp-Method': 'tools/call' } });
  assert.deepEqual([mismatch.status, mismatch.body.error?.code], [400, -32020]);
  // A bad session name is refused before anything runs, as at 2025 initialize.
  const badName = await rpc('tools/list', {}, { headers: { 'X-MCP-Session-Id': 'x'.repeat(257) } });
  assert.deepEqual([badName.status, badName.body.error], [400, { code: -32600, message: 'Invalid Request: X-MCP-Session-Id is longer than 256 characters' }]);
});

test('run_js as a task: a flat CreateTaskResult, tasks/get inlines the result, tool errors are completed', async () => {
  const created = await call('run_js', { code: 'console.log("task output"); 6 * 7' }, true);
  const c = created.body.result!;
  assert.deepEqual(Object.keys(c).sort(), ['_meta', 'createdAt', 'lastUpdatedAt', 'pollIntervalMs', 'resultType', 'status', 'taskId', 'ttlMs']);
  assert.deepEqual([c['resultType'], c['status'], c['ttlMs'], c['pollIntervalMs']], ['task', 'working', 900_000, 500]);
  const done = await settled(c['taskId'] as string);
  assert.equal(done['status'], 'completed');
  assert.equal(done['resultType'], 'complete');
  const result = done['result'] as { structuredContent: Record<string, unknown>; isError?: boolean };
  const executionId = result.structuredContent['execution_id'] as string;
  assert.deepEqual(result.structuredContent, { execution_id: executionId, status: 'completed', output: 'task output\n' });
  assert.equal(done['statusMessage'], `execution_id ${executionId}`);
  assert.equal(result.isError, undefined);
  // A script that throws: the tool ran and reported an error, so the task is completed with isError.
  const failing = await settled((await call('run_js', { code: 'throw new Error("boom")' }, true)).body.result!['taskId'] as string);
  const fr = failing['result'] as { structuredContent: Record<string, unknown>; isError?: boolean };
  assert.deepEqual([failing['status'], fr.isError, fr.structuredContent['status']], ['completed', true, 'failed']);
  assert.match(fr.structuredContent['error'] as string, /^Uncaught Error: boom/);
  // Invalid arguments are the call's own error result, before any task.
  const invalid = await call('run_js', { code: 42 }, true);
  assert.deepEqual(invalid.body.result, {
    resultType: 'complete', isError: true, content: [{ type: 'text', text: '{"error":"Invalid arguments for run_js: code: must be a string"}' }],
    _meta: invalid.body.result!['_meta'],
  });
});

test('tasks/cancel stops the execution; unknown ids are -32602; without the extension there are no tasks', async () => {
  const taskId = (await call('run_js', { code: 'await new Promise((r) => setTimeout(r, 60_000))' }, true)).body.result!['taskId'] as string;
  const cancel = await rpc('tasks/cancel', { taskId }, { tasks: true, name: taskId });
  assert.deepEqual(Object.keys(cancel.body.result!).filter((k) => k !== '_meta'), ['resultType']);
  assert.equal(cancel.body.result!['resultType'], 'complete');
  const after = await settled(taskId);
  assert.deepEqual([after['status'], after['statusMessage']], ['cancelled', 'Cancelled by the client']);
  // Idempotent on a terminal task.
  assert.equal((await rpc('tasks/cancel', { taskId }, { tasks: true, name: taskId })).body.result!['resultType'], 'complete');
  const unknown = await rpc('tasks/get', { taskId: 'nope' }, { tasks: true, name: 'nope' });
  assert.deepEqual([unknown.body.error?.code, unknown.body.error?.message], [-32602, 'Task not found: nope']);
  // A client that did not declare the extension: run_js answers at once (an id), tasks/* are -32021.
  const plain = await call('run_js', { code: '1' });
  assert.equal(typeof (plain.body.result!['structuredContent'] as { execution_id: string }).execution_id, 'string');
  const refused = await rpc('tasks/get', { taskId }, { name: taskId });
  assert.deepEqual([refused.status, refused.body.error?.code, refused.body.error?.data], [400, -32021, { requiredCapabilities: { extensions: { [TASKS]: {} } } }]);
});

test('stateless mode: run_js waits and reports progress on the 2026 wire; as a task its result is {output}', async () => {
  const client = new ModernClient({ name: 'runjs-e2e-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: V } } });
  try {
    await client.connect(new ModernHttpTransport(new URL(`${stateless.base}/mcp`)));
    const progress: string[] = [];
    const r = await client.callTool({ name: 'run_js', arguments: { code: 'await new Promise((r) => setTimeout(r, 6000)); console.log("waited")' } },
      { onprogress: (p) => progress.push(p.message ?? '') });
    assert.deepEqual(r.structuredContent, { output: 'waited\n' });
    assert.match(progress[0] ?? '', /^Execution [0-9a-f-]{36} started$/);
    assert.match(progress.at(-1) ?? '', /^Execution [0-9a-f-]{36} running for \d+ s$/);
    const created = await call('run_js', { code: 'console.log("as a task")' }, true, stateless.base);
    const done = await settled(created.body.result!['taskId'] as string, stateless.base);
    assert.deepEqual([done['status'], (done['result'] as { structuredContent: unknown }).structuredContent], ['completed', { output: 'as a task\n' }]);
  } finally {
    await client.close();
  }
});

test('stdio: a 2026-07-28 client gets the stateless protocol from the same launcher', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'runjs-stdio-2026-'));
  const client = new ModernClient({ name: 'runjs-e2e-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: V } } });
  try {
    await client.connect(new ModernStdioTransport({
      command: NODE, args: [MAIN, '--session-id', 'stdio-2026', '--session-db-path', join(dir, 'db'), '--max-concurrent-executions', '1'],
      env: { PATH: process.env['PATH'] ?? '' }, cwd: ROOT, stderr: 'ignore',
    }));
    assert.equal(client.getNegotiatedProtocolVersion(), V);
    const r = await client.callTool({ name: 'run_js', arguments: { code: '1 + 1' } });
    const id = (r.structuredContent as { execution_id: string }).execution_id;
    assert.equal(sessionOf(join(dir, 'db'), id), 'stdio-2026');
  } finally {
    await client.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
