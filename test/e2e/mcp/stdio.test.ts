// MCP over stdio: the SDK's StdioClientTransport spawning the package launcher (bin/runjs-mcp.js),
// --session-id, tasks over stdio, and a raw session proving stdout carries only protocol and that
// closing stdin ends the server.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, LoggingMessageNotificationSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { defaultInstructions } from '../../../supervisor/mcp/mcp-texts.ts';
import { MAIN, NODE, ROOT } from '../server/server-process.ts';
import { ok, sessionOf, settle } from './mcp-clients.ts';

const LAUNCHER = join(ROOT, 'bin/runjs-mcp.js');
const ENV = { PATH: process.env['PATH'] ?? '' };
let dir: string;
let client: Client;
let stderr = '';

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'runjs-stdio-'));
  const transport = new StdioClientTransport({
    command: NODE,
    args: [LAUNCHER, '--session-id', 'stdio-session', '--session-db-path', join(dir, 'db'), '--max-concurrent-executions', '1'],
    env: ENV, cwd: ROOT, stderr: 'pipe',
  });
  transport.stderr?.on('data', (c: Buffer) => { stderr += c.toString(); });
  client = new Client({ name: 'runjs-e2e', version: '1.0.0' });
  await client.connect(transport);
});
after(async () => {
  await client?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('initialize over stdio: tasks offered, stdio instructions, logs on stderr', () => {
  assert.deepEqual(client.getServerCapabilities(), { tools: { listChanged: false }, logging: {}, resources: { listChanged: true }, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } });
  assert.equal(client.getInstructions(), defaultInstructions('stateful', 'stdio', { defaultTimeoutSecs: 30, defaultHeapMb: 8, maxHeapMb: 1024 }));
  assert.match(stderr, /^runjs: MCP over stdio \(stateful mode\)$/m);
});

test('tools over stdio, tagged with --session-id', async () => {
  const id = String(ok(await client.callTool({ name: 'run_js', arguments: { code: 'console.log("to the log, not to stdout")' } }))['execution_id']);
  assert.equal((await settle(client, id))['status'], 'completed');
  assert.equal(ok(await client.callTool({ name: 'get_execution_output', arguments: { execution_id: id } }))['data'], 'to the log, not to stdout\n');
  assert.equal(sessionOf(join(dir, 'db'), id), 'stdio-session');
});

test('logging: a stateful run_js\'s end reaches the client as a log message, filtered by logging/setLevel', async () => {
  const messages: { level: string; logger?: string; data: unknown }[] = [];
  let arrived: () => void = () => {};
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => { messages.push(n.params); arrived(); });
  const next = (): Promise<void> => new Promise((r) => { arrived = r; });
  const run = async (code: string): Promise<string> => String(ok(await client.callTool({ name: 'run_js', arguments: { code } }))['execution_id']);
  assert.deepEqual(await client.setLoggingLevel('info'), {});
  let got = next();
  const done = await run('1 + 1');
  await got;
  assert.deepEqual(messages, [{ level: 'info', logger: 'runjs.executions', data: { execution_id: done, status: 'completed' } }]);
  // At `error`, a completed run says nothing; a failed one is an error.
  await client.setLoggingLevel('error');
  got = next();
  const quiet = await run('2 + 2');
  const failed = await run('throw new TypeError("no")');
  await got;
  assert.equal((await settle(client, quiet))['status'], 'completed');
  assert.deepEqual(messages.slice(1), [{ level: 'error', logger: 'runjs.executions', data: { execution_id: failed, status: 'failed', error: 'Uncaught TypeError: no\n    at file:///main.js:1:7' } }]);
  // An unknown level is the client's invalid params, and leaves the level as it was.
  await assert.rejects(client.setLoggingLevel('loud' as never), (e: unknown) => e instanceof McpError && e.code === -32602
    && e.message === 'MCP error -32602: logging/setLevel: level must be one of debug, info, notice, warning, error, critical, alert, emergency');
  const quieter = await run('3 + 3');
  assert.equal((await settle(client, quieter))['status'], 'completed');
  got = next();
  const failedAgain = await run('throw new RangeError("again")');
  await got;
  assert.deepEqual(messages.slice(2), [{ level: 'error', logger: 'runjs.executions', data: { execution_id: failedAgain, status: 'failed', error: 'Uncaught RangeError: again\n    at file:///main.js:1:7' } }]);
  // A cancelled run is a notice: someone asked for it.
  await client.setLoggingLevel('notice');
  got = next();
  const long = await run('await new Promise((r) => setTimeout(r, 60_000))');
  ok(await client.callTool({ name: 'cancel_execution', arguments: { execution_id: long } }));
  await got;
  assert.deepEqual(messages.slice(3), [{ level: 'notice', logger: 'runjs.executions', data: { execution_id: long, status: 'cancelled', error: 'Cancelled by user' } }]);
});

test('artifacts over stdio: get_artifact and list_artifacts; no upload URLs without an HTTP listener or --public-url', async () => {
  const names = (await client.listTools()).tools.map((t) => t.name);
  assert.ok(names.includes('get_artifact') && names.includes('list_artifacts'));
  assert.ok(!names.includes('get_artifact_upload_url'), String(names));
  const id = String(ok(await client.callTool({ name: 'run_js', arguments: { code: 'await artifact("s.txt", "text/plain", "via stdio")' } }))['execution_id']);
  assert.equal((await settle(client, id))['status'], 'completed');
  const got = await client.callTool({ name: 'get_artifact', arguments: { key: 's.txt' } }) as { content: unknown[] };
  assert.deepEqual(got.content[1], { type: 'text', text: 'via stdio' });
});

test('run_js as a task over stdio', async () => {
  const messages = [];
  for await (const m of client.experimental.tasks.callToolStream({ name: 'run_js', arguments: { code: 'console.log("task")' } }, CallToolResultSchema, { task: { ttl: 60_000 } })) messages.push(m);
  const last = messages.at(-1) as { type: string; result: { structuredContent: Record<string, unknown> } };
  assert.equal(last.type, 'result');
  assert.deepEqual([last.result.structuredContent['status'], last.result.structuredContent['output']], ['completed', 'task\n']);
});

test('raw stdio: stdout holds only JSON-RPC lines; closing stdin ends the server with 0', async () => {
  const db = join(dir, 'raw-db');
  const proc = spawn(NODE, [MAIN, '--stateless', '--session-db-path', db, '--max-concurrent-executions', '1'], { cwd: ROOT, env: ENV, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout.setEncoding('utf8').on('data', (c: string) => { out += c; });
  proc.stderr.setEncoding('utf8').on('data', (c: string) => { err += c; });
  const send = (msg: object): void => { proc.stdin.write(`${JSON.stringify(msg)}\n`); };
  const lines = (): unknown[] => out.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown);
  const waitFor = async (id: number): Promise<void> => {
    for (let i = 0; i < 600 && !lines().some((m) => (m as { id?: number }).id === id); i++) await new Promise((r) => setTimeout(r, 25));
  };
  send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
  await waitFor(1);
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'run_js', arguments: { code: 'console.log("guest output"); console.error("guest error")' } } });
  await waitFor(2);
  const exit = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  proc.stdin.end();
  assert.equal(await exit, 0);
  const messages = lines() as { jsonrpc: string; id: number; result: { structuredContent?: unknown } }[];
  for (const m of messages) assert.equal(m.jsonrpc, '2.0');
  assert.deepEqual(messages.map((m) => m.id), [1, 2]);
  assert.deepEqual(messages[1]!.result.structuredContent, { output: 'guest output\n[ERROR] guest error\n' });
  assert.match(err, /runjs: shutting down \(stdin closed\)/);
});
