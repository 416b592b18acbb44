// The stateful MCP tools over Streamable HTTP, against the real server process and the SDK's
// real client: every tool, its result shape (structuredContent = the JSON text), and its errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage, EXECUTION_ERRORS } from '../../../shared/errors.ts';
import { defaultInstructions } from '../../../supervisor/mcp/mcp-texts.ts';
import { packageVersion } from '../../../supervisor/rest/index.ts';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { httpRequest, INITIALIZE_BODY, MCP_POST_HEADERS } from '../server/http-request.ts';
import { failed, httpClient, ok, sessionOf, settle } from './mcp-clients.ts';

let server: ServerProcess;
let client: Client;

before(async () => {
  server = await startServer(['--session-id', 'fallback-name']);
  client = await httpClient(server.base, { 'X-MCP-Session-Id': 'agent-7' });
});
after(async () => {
  await client?.close();
  assert.equal(await server?.stop(), 0, 'SIGTERM ends the server with exit code 0');
});

const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args });

test('initialize: server info, capabilities with tasks, stateful instructions', () => {
  assert.deepEqual(client.getServerVersion(), { name: 'runjs', title: 'runjs', version: packageVersion() });
  assert.deepEqual(client.getServerCapabilities(), { tools: { listChanged: false }, logging: {}, resources: { listChanged: true }, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } });
  assert.equal(client.getInstructions(), defaultInstructions('stateful', 'streamable-http', { defaultTimeoutSecs: 30, defaultHeapMb: 8, maxHeapMb: 1024 }));
});

test('tools/list: the stateful tools and the artifact tools, with input and output schemas', async () => {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name), ['run_js', 'get_execution', 'get_execution_output', 'cancel_execution', 'list_executions', 'get_execution_decisions', 'list_sessions', 'list_session_snapshots', 'get_artifact', 'list_artifacts', 'delete_artifact', 'get_artifact_upload_url']);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const runJs = byName.get('run_js')!;
  assert.deepEqual(runJs.execution, { taskSupport: 'optional' });
  assert.deepEqual(Object.keys(runJs.inputSchema.properties ?? {}), ['code', 'file', 'heap', 'heap_memory_max_mb', 'execution_timeout_secs', 'tags', 'fs']);
  // `code` or `file`: the schema requires neither (run_js checks that exactly one is given).
  assert.equal(runJs.inputSchema.required, undefined);
  assert.equal((runJs.inputSchema as { additionalProperties?: unknown }).additionalProperties, false);
  assert.deepEqual(runJs.outputSchema?.required, ['execution_id']);
  assert.deepEqual(Object.keys(byName.get('get_execution')!.outputSchema?.properties ?? {}), ['execution_id', 'status', 'result', 'heap', 'error', 'started_at', 'completed_at']);
  assert.deepEqual(Object.keys(byName.get('get_execution_output')!.inputSchema.properties ?? {}), ['execution_id', 'line_offset', 'line_limit', 'byte_offset', 'byte_limit']);
  assert.deepEqual(byName.get('cancel_execution')!.outputSchema?.required, ['ok']);
  assert.deepEqual(byName.get('list_executions')!.inputSchema.properties, {});
  for (const t of tools) assert.equal(t.execution === undefined, t.name !== 'run_js', `${t.name}: only run_js runs as a task`);
});

test('run_js → get_execution → get_execution_output, with 1-based lines', async () => {
  const { execution_id: id } = ok(await call('run_js', { code: 'console.log("one"); console.log("two"); console.log("three"); 40 + 2' }));
  assert.match(String(id), /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  const info = await settle(client, String(id));
  assert.deepEqual(Object.keys(info), ['execution_id', 'status', 'result', 'heap', 'error', 'started_at', 'completed_at']);
  assert.deepEqual({ ...info, started_at: 0, completed_at: 0 }, { execution_id: id, status: 'completed', result: '42', heap: null, error: null, started_at: 0, completed_at: 0 });
  assert.ok(Date.parse(String(info['completed_at'])) >= Date.parse(String(info['started_at'])));
  assert.equal(sessionOf(server.dbDir, String(id)), 'agent-7', 'X-MCP-Session-Id wins over --session-id');

  assert.deepEqual(ok(await call('get_execution_output', { execution_id: id })), {
    execution_id: id, data: 'one\ntwo\nthree\n', start_line: 1, end_line: 4, next_line_offset: 4, total_lines: 3,
    start_byte: 0, end_byte: 14, next_byte_offset: 14, total_bytes: 14, has_more: false, status: 'completed',
  });
  assert.deepEqual(ok(await call('get_execution_output', { execution_id: id, line_offset: 2, line_limit: 1 })), {
    execution_id: id, data: 'two\n', start_line: 2, end_line: 3, next_line_offset: 3, total_lines: 3,
    start_byte: 4, end_byte: 8, next_byte_offset: 8, total_bytes: 14, has_more: true, status: 'completed',
  });
  const bytePage = {
    execution_id: id, data: 'two\nt', start_line: 2, end_line: 3, next_line_offset: 3, total_lines: 3,
    start_byte: 4, end_byte: 9, next_byte_offset: 9, total_bytes: 14, has_more: true, status: 'completed',
  };
  assert.deepEqual(ok(await call('get_execution_output', { execution_id: id, byte_offset: 4, byte_limit: 5 })), bytePage);
  assert.deepEqual(ok(await call('get_execution_output', { execution_id: id, byte_offset: 4, byte_limit: 5, line_offset: 3, line_limit: 7 })), bytePage, 'byte mode wins');
  const defaultBytes = ok(await call('get_execution_output', { execution_id: id, byte_offset: 0 }));
  assert.deepEqual([defaultBytes['data'], defaultBytes['end_byte'], defaultBytes['has_more']], ['one\ntwo\nthree\n', 14, false]);
});

test('output is readable while the run goes on; cancel_execution stops it', async () => {
  const { execution_id: id } = ok(await call('run_js', { code: 'console.log("started"); await new Promise((r) => setTimeout(r, 20)); while (true) {}' }));
  let page: Record<string, unknown> = {};
  for (let i = 0; i < 400 && page['data'] !== 'started\n'; i++) {
    page = ok(await call('get_execution_output', { execution_id: id }));
    if (page['data'] !== 'started\n') await new Promise((r) => setTimeout(r, 25));
  }
  assert.deepEqual([page['data'], page['status'], page['total_lines']], ['started\n', 'running', 1]);
  assert.deepEqual(ok(await call('cancel_execution', { execution_id: id })), { ok: true });
  const info = ok(await call('get_execution', { execution_id: id }));
  assert.deepEqual([info['status'], info['error'], info['result']], ['cancelled', EXECUTION_ERRORS.CANCELLED, null]);
  assert.deepEqual(failed(await call('cancel_execution', { execution_id: id })), { ok: false, error: `Execution '${String(id)}' is not running (status: cancelled)` });
});

test('timeouts and script errors end the execution with the spec texts', async () => {
  const slow = String(ok(await call('run_js', { code: 'while (true) {}', execution_timeout_secs: 1 }))['execution_id']);
  const boom = String(ok(await call('run_js', { code: 'console.log("before"); throw new Error("boom")' }))['execution_id']);
  const small = String(ok(await call('run_js', { code: '1 + 1', heap_memory_max_mb: 4 }))['execution_id']);
  const timedOut = await settle(client, slow);
  assert.deepEqual([timedOut['status'], timedOut['error']], ['timed_out', EXECUTION_ERRORS.TIMED_OUT]);
  const thrown = await settle(client, boom);
  assert.equal(thrown['status'], 'failed');
  assert.match(String(thrown['error']), /^Uncaught Error: boom/);
  assert.equal(ok(await call('get_execution_output', { execution_id: boom }))['data'], 'before\n');
  assert.deepEqual([(await settle(client, small))['status'], (await settle(client, small))['result']], ['completed', '2'], 'a heap below 8 MB is raised, not refused');
});

test('list_executions: running and recent executions, newest first', async () => {
  const first = String(ok(await call('run_js', { code: '1' }))['execution_id']);
  await settle(client, first);
  const second = String(ok(await call('run_js', { code: '2' }))['execution_id']);
  await settle(client, second);
  const { executions } = ok(await call('list_executions')) as { executions: Record<string, unknown>[] };
  const ids = executions.map((e) => e['execution_id']);
  assert.ok(ids.indexOf(second) !== -1 && ids.indexOf(second) < ids.indexOf(first), 'newest first');
  for (const e of executions) assert.deepEqual(Object.keys(e), ['execution_id', 'status', 'started_at', 'completed_at']);
});

test('get_execution_decisions: the policy decision log of an execution (none without policies)', async () => {
  const id = String(ok(await call('run_js', { code: '1' }))['execution_id']);
  await settle(client, id);
  assert.deepEqual(ok(await call('get_execution_decisions', { execution_id: id })), { execution_id: id, status: 'completed', decisions: [], dropped: 0, egress: {} });
  assert.deepEqual(failed(await call('get_execution_decisions', { execution_id: 'nope' })), { error: "Execution 'nope' not found" });
});

test('unknown execution ids are error results', async () => {
  const notFound = { error: "Execution 'nope' not found" };
  const info = await call('get_execution', { execution_id: 'nope' });
  assert.deepEqual(failed(info), notFound);
  assert.equal(info.structuredContent, undefined, 'no structuredContent: {error} is not the output schema');
  assert.deepEqual(failed(await call('get_execution_output', { execution_id: 'nope' })), notFound);
  assert.deepEqual(failed(await call('cancel_execution', { execution_id: 'nope' })), { ok: false, error: "Execution 'nope' not found" });
});

test('bad arguments are error results that name the field', async () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['run_js', {}, 'code: is required'],
    ['run_js', { code: 1 }, 'code: must be a string'],
    ['run_js', { code: '1', execution_timeout_secs: 0 }, 'execution_timeout_secs: must be from 1 to 300 seconds'],
    ['run_js', { code: '1', execution_timeout_secs: 301 }, 'execution_timeout_secs: must be from 1 to 300 seconds'],
    ['run_js', { code: '1', execution_timeout_secs: 1.5 }, 'execution_timeout_secs: must be an integer'],
    ['run_js', { code: '1', heap_memory_max_mb: 0 }, 'heap_memory_max_mb: must be at least 1 (values below 8 are raised to 8)'],
    ['run_js', { code: '1', heap_memory_max_mb: 1025 }, 'heap_memory_max_mb: must be at most 1024'],
    ['run_js', { code: '1', tags: { a: 1 } }, 'tags.a: Invalid input: expected string, received number'],
    ['run_js', { code: '1', path: '/etc/passwd' }, 'Unrecognized key: "path"'],
    ['get_execution', {}, 'execution_id: is required'],
    ['get_execution', { execution_id: '' }, 'execution_id: must not be empty'],
    ['get_execution_output', { execution_id: 'x', line_offset: 0 }, 'line_offset: must be at least 1 (lines are 1-based)'],
    ['get_execution_output', { execution_id: 'x', byte_offset: -1 }, 'byte_offset: must be at least 0'],
    ['get_execution_output', { execution_id: 'x', line_limit: 0 }, 'line_limit: must be at least 1'],
    ['list_executions', { all: true }, 'Unrecognized key: "all"'],
  ];
  for (const [tool, args, message] of cases) {
    assert.deepEqual(failed(await call(tool, args)), { error: `Invalid arguments for ${tool}: ${message}` }, `${tool} ${JSON.stringify(args)}`);
  }
});

test('heap, tags and fs are refused while their stores are off', async () => {
  const heap = errorMessage('HEAP_NOT_ENABLED');
  assert.deepEqual(failed(await call('run_js', { code: '1', heap: 'abc' })), { error: heap });
  assert.deepEqual(failed(await call('run_js', { code: '1', tags: { k: 'v' } })), { error: heap });
  assert.deepEqual(failed(await call('run_js', { code: '1', fs: 'main' })), { error: errorMessage('FS_NOT_ENABLED') });
  // Empty values mean "none" and pass.
  ok(await call('run_js', { code: '1', heap: '', tags: {}, fs: null }));
});

test('an unknown tool is a JSON-RPC error (-32602)', async () => {
  await assert.rejects(call('no_such_tool'), (e: unknown) => e instanceof McpError && e.code === -32602 && e.message.endsWith('Unknown tool: no_such_tool'));
});

test('the session name: header, else --session-id; separate from Mcp-Session-Id; bad headers are 400', async () => {
  const plain = await httpClient(server.base);
  try {
    const id = String(ok(await plain.callTool({ name: 'run_js', arguments: { code: '1' } }))['execution_id']);
    await settle(plain, id);
    assert.equal(sessionOf(server.dbDir, id), 'fallback-name');
  } finally {
    await plain.close();
  }
  const empty = await httpRequest(server.port, 'POST', '/mcp', { ...MCP_POST_HEADERS, 'X-MCP-Session-Id': ' ' }, INITIALIZE_BODY);
  assert.deepEqual([empty.status, empty.json], [400, { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request: X-MCP-Session-Id must not be empty' }, id: null }]);
  const long = await httpRequest(server.port, 'POST', '/mcp', { ...MCP_POST_HEADERS, 'X-MCP-Session-Id': 'x'.repeat(257) }, INITIALIZE_BODY);
  assert.deepEqual([long.status, (long.json as { error: { message: string } }).error.message], [400, 'Invalid Request: X-MCP-Session-Id is longer than 256 characters']);
  const init = await httpRequest(server.port, 'POST', '/mcp', { ...MCP_POST_HEADERS, 'X-MCP-Session-Id': 'agent-7' }, INITIALIZE_BODY);
  assert.equal(init.status, 200);
  const transportId = init.headers['mcp-session-id'];
  assert.match(String(transportId), /^[0-9a-f-]{36}$/, 'the transport issues its own Mcp-Session-Id');
  const unknown = await httpRequest(server.port, 'POST', '/mcp', { ...MCP_POST_HEADERS, 'Mcp-Session-Id': 'agent-7' }, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
  assert.deepEqual([unknown.status, unknown.json], [404, { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }]);
  const noSession = await httpRequest(server.port, 'POST', '/mcp', MCP_POST_HEADERS, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
  assert.equal(noSession.status, 400);
  const del = await httpRequest(server.port, 'DELETE', '/mcp', { 'Mcp-Session-Id': String(transportId) });
  assert.equal(del.status, 200, 'DELETE ends the MCP session');
  const after = await httpRequest(server.port, 'POST', '/mcp', { ...MCP_POST_HEADERS, 'Mcp-Session-Id': String(transportId) }, JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }));
  assert.equal(after.status, 404);
});

test('logging over Streamable HTTP: the run\'s end arrives on the standalone GET stream the SDK client keeps open', async () => {
  const messages: unknown[] = [];
  let arrived: () => void = () => {};
  const got = new Promise<void>((r) => { arrived = r; });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => { messages.push(n.params); arrived(); });
  assert.deepEqual(await client.setLoggingLevel('info'), {});
  const id = String(ok(await call('run_js', { code: '6 * 7' }))['execution_id']);
  await got;
  assert.deepEqual(messages, [{ level: 'info', logger: 'runjs.executions', data: { execution_id: id, status: 'completed' } }]);
});
