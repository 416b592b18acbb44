// Stateless mode (--stateless) over Streamable HTTP: one run_js (the only tool) that waits and returns the output,
// progress notifications while it waits, cancellation by the client, tasks, and the
// --instructions / --run-js-description overrides.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, McpError, type CallToolResult, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { INLINE_BUDGET_BYTES } from '../../../supervisor/mcp/artifact-blocks.ts';
import { EXECUTION_ERRORS } from '../../../shared/errors.ts';
import { PROGRESS_INTERVAL_MS } from '../../../supervisor/mcp/wait-for-run.ts';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { INITIALIZE_BODY, MCP_POST_HEADERS, openEventStream } from '../server/http-request.ts';
import { failed, httpClient, ok } from './mcp-clients.ts';

const DESCRIPTION = 'Runs code. Custom description from a file.\n';
let server: ServerProcess;
let client: Client;
let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'runjs-stateless-'));
  writeFileSync(join(dir, 'description.md'), DESCRIPTION);
  server = await startServer(['--stateless', '--instructions', '@@literal at-sign instructions', '--run-js-description', `@${join(dir, 'description.md')}`]);
  client = await httpClient(server.base);
});
after(async () => {
  await client?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const run = (args: Record<string, unknown>) => client.callTool({ name: 'run_js', arguments: args });

test('run_js (code, heap_memory_max_mb, execution_timeout_secs) is the only tool; overridden texts', async () => {
  assert.equal(client.getInstructions(), '@literal at-sign instructions');
  const { tools } = await client.listTools();
  // The spec: "Stateless mode exposes only run_js" (the artifact tools need --stateless-artifact-tools).
  assert.deepEqual(tools.map((t) => t.name), ['run_js']);
  const [runJs] = tools;
  assert.equal(runJs!.description, DESCRIPTION);
  assert.deepEqual(Object.keys(runJs!.inputSchema.properties ?? {}), ['code', 'heap_memory_max_mb', 'execution_timeout_secs']);
  assert.deepEqual(runJs!.outputSchema?.required, ['output']);
  assert.deepEqual(Object.keys(runJs!.outputSchema?.properties ?? {}), ['output', 'error', 'artifacts']);
  for (const name of ['get_execution', 'get_artifact', 'list_artifacts', 'get_artifact_upload_url']) {
    await assert.rejects(client.callTool({ name, arguments: {} }),
      (e: unknown) => e instanceof McpError && e.code === -32602 && e.message.endsWith(`Unknown tool: ${name}`), name);
  }
});

test('an artifact over the inline budget points at its REST url (get_artifact is not listed)', async () => {
  const res = await run({ code: `await artifact('big.bin', 'application/octet-stream', new Uint8Array(${INLINE_BUDGET_BYTES + 1})); await artifact('small.txt', 'text/plain', 'hi')` }) as CallToolResult;
  assert.notEqual(res.isError, true, JSON.stringify(res));
  const body = res.structuredContent as { output: string; artifacts: Record<string, unknown>[] };
  assert.deepEqual(body.artifacts.map((a) => [a['key'], a['url'], a['inline'], a['note']]), [
    ['big.bin', '/api/artifacts/big.bin', false, 'not attached inline; download it from url'],
    ['small.txt', '/api/artifacts/small.txt', true, undefined],
  ]);
  assert.deepEqual(res.content.slice(1), [{ type: 'text', text: 'hi' }]);
  assert.equal((await fetch(`${server.base}/api/artifacts/big.bin`)).status, 200);
});

test('success is {output}; failure, timeout and bad input are error results', async () => {
  assert.deepEqual(ok(await run({ code: 'console.log("hi"); console.warn("careful"); 40 + 2' })), { output: 'hi\n[WARN] careful\n' });
  const thrown = failed(await run({ code: 'console.log("a"); throw new Error("boom")' }));
  assert.equal(thrown['output'], 'a\n');
  assert.match(String(thrown['error']), /^Uncaught Error: boom/);
  assert.deepEqual(failed(await run({ code: 'console.log("x"); await new Promise((r) => setTimeout(r, 20)); while (true) {}', execution_timeout_secs: 1 })),
    { output: 'x\n', error: EXECUTION_ERRORS.TIMED_OUT });
  assert.deepEqual(failed(await run({ code: '1', heap: 'abc' })), { error: 'Invalid arguments for run_js: Unrecognized key: "heap"' });
  assert.deepEqual(failed(await run({ code: '1', tags: { a: 'b' } })), { error: 'Invalid arguments for run_js: Unrecognized key: "tags"' });
  assert.deepEqual(failed(await run({ code: '1', execution_timeout_secs: 0 })), { error: 'Invalid arguments for run_js: execution_timeout_secs: must be from 1 to 300 seconds' });
});

test('progress notifications while waiting: one at once, then at least every 10 s', async () => {
  const seen: { at: number; p: Progress }[] = [];
  const t0 = performance.now();
  const result = await client.callTool({ name: 'run_js', arguments: { code: `await new Promise((r) => setTimeout(r, ${PROGRESS_INTERVAL_MS + 1500})); console.log("done")` } },
    CallToolResultSchema, { onprogress: (p) => seen.push({ at: performance.now() - t0, p }) });
  assert.deepEqual(ok(result), { output: 'done\n' });
  assert.ok(seen.length >= 2, `at least two notifications, got ${JSON.stringify(seen)}`);
  assert.equal(seen[0]!.p.progress, 0);
  assert.match(String(seen[0]!.p.message), /^Execution [0-9a-f-]{36} started$/);
  assert.match(String(seen[1]!.p.message), /^Execution [0-9a-f-]{36} running for \d+ s$/);
  assert.ok(seen[1]!.p.progress >= PROGRESS_INTERVAL_MS / 1000 && seen[1]!.p.progress < 10, `seconds waited: ${seen[1]!.p.progress}`);
  const times = [0, ...seen.map((s) => s.at), performance.now() - t0];
  for (let i = 1; i < times.length; i++) assert.ok(times[i]! - times[i - 1]! < 10_000, `gap ${i} under 10 s`);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i]!.p.progress > seen[i - 1]!.p.progress, 'progress increases');
});

test('a client that cancels the call cancels the run', async () => {
  const abort = new AbortController();
  const call = client.callTool({ name: 'run_js', arguments: { code: 'console.log("go"); await new Promise((r) => setTimeout(r, 20)); while (true) {}' } },
    CallToolResultSchema, { signal: abort.signal });
  await new Promise((r) => setTimeout(r, 300));
  abort.abort('changed my mind');
  await assert.rejects(call);
  let status = '';
  for (let i = 0; i < 100 && status !== 'cancelled'; i++) {
    const list = await (await fetch(`${server.base}/api/executions`)).json() as { executions: { status: string }[] };
    status = list.executions[0]!.status;
    if (status !== 'cancelled') await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(status, 'cancelled', 'the newest execution was cancelled');
});

test('run_js as a task: the result is {output} (no execution id in stateless mode)', async () => {
  const messages = [];
  for await (const m of client.experimental.tasks.callToolStream({ name: 'run_js', arguments: { code: 'console.log(6 * 7)' } }, CallToolResultSchema, { task: { ttl: 60_000 } })) messages.push(m);
  const last = messages.at(-1);
  assert.equal(last?.type, 'result');
  assert.deepEqual((last as { result: { structuredContent: unknown } }).result.structuredContent, { output: '42\n' });
});

test('resumable streams: a client whose POST stream broke gets the result by resuming with Last-Event-ID', async () => {
  const headers = { ...MCP_POST_HEADERS, Host: `127.0.0.1:${server.port}`, 'Mcp-Protocol-Version': '2025-11-25' };
  const init = await openEventStream(server.port, 'POST', '/mcp', headers, INITIALIZE_BODY);
  const sessionId = String(init.headers['mcp-session-id']);
  let first = await init.next();
  if (first.data === '') first = await init.next(); // the priming event
  assert.equal((JSON.parse(first.data) as { id: number }).id, 1);
  init.close();
  const session = { ...headers, 'Mcp-Session-Id': sessionId };
  const initialized = await openEventStream(server.port, 'POST', '/mcp', session, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  assert.equal(initialized.status, 202);
  initialized.close();

  const call = await openEventStream(server.port, 'POST', '/mcp', session,
    JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'run_js', arguments: { code: 'await new Promise((r) => setTimeout(r, 400)); console.log("late")' } } }));
  const priming = await call.next();
  assert.deepEqual([priming.data, priming.retry], ['', '1000'], 'a priming event with an id and the retry interval');
  assert.ok(priming.id);
  call.close(); // the connection breaks before the result

  await new Promise((r) => setTimeout(r, 800));
  const resumed = await openEventStream(server.port, 'GET', '/mcp', { ...session, Accept: 'text/event-stream', 'Last-Event-ID': priming.id! });
  assert.equal(resumed.status, 200);
  let reply: { id?: number; result?: { structuredContent?: unknown } } = {};
  while (reply.id !== 2) reply = JSON.parse((await resumed.next()).data) as typeof reply;
  resumed.close();
  assert.deepEqual(reply.result?.structuredContent, { output: 'late\n' });
});
