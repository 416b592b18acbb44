// A human's approval of run_js, end to end: an `mcp_run_js` policy whose JavaScript hook answers
// `{ask: "…"}` for some scripts and denies others. 2026-07-28: a task waits in `input_required`
// until tasks/update answers (raw wire: SDK v2.4's client has no tasks extension), and a plain call
// is answered by the SDK v2 client's own elicitation handler (input_required, retried); 2025-11-25:
// the SDK v1 client answers `elicitation/create`. Clients that cannot be asked are refused.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { failed, httpClient, ok } from './mcp-clients.ts';

const TASKS = 'io.modelcontextprotocol/tasks';
const V = '2026-07-28';
const HOOK = `export default function (input, meta) {
  const code = input.arguments.code;
  if (meta.category !== 'mcp_run_js' || input.tool !== 'run_js') return { allow: false, reason: 'unexpected input' };
  if (code.includes('ASK')) return { ask: 'Run this script? ' + code };
  if (code.includes('DENY')) return { allow: false, reason: 'scripts that say DENY are refused' };
  return undefined;
}
`;
let dir: string;
let server: ServerProcess;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'runjs-approval-'));
  writeFileSync(join(dir, 'approve.js'), HOOK);
  server = await startServer(['--policies-json', JSON.stringify({ mcp_run_js: { policies: [{ url: `file://${join(dir, 'approve.js')}` }] } })]);
});
after(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Rpc {
  readonly status: number;
  readonly body: { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

/** One 2026-07-28 request on the wire, declaring the tasks extension and (unless told) elicitation. */
async function rpc(method: string, params: Record<string, unknown>, name: string, caps: Record<string, unknown> = { extensions: { [TASKS]: {} }, elicitation: {} }): Promise<Rpc> {
  const res = await fetch(`${server.base}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': V, 'Mcp-Method': method, 'Mcp-Name': name },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': caps } } }),
  });
  const text = await res.text();
  const json = res.headers.get('content-type')?.startsWith('text/event-stream') === true
    ? text.split('\n').filter((l) => l.startsWith('data: ')).at(-1)?.slice(6) ?? '{}'
    : text;
  return { status: res.status, body: JSON.parse(json) as Rpc['body'] };
}

const runJs = (code: string, caps?: Record<string, unknown>): Promise<Rpc> => rpc('tools/call', { name: 'run_js', arguments: { code } }, 'run_js', caps);
const getTask = async (taskId: string): Promise<Record<string, unknown>> => (await rpc('tasks/get', { taskId }, taskId)).body.result!;

async function settled(taskId: string): Promise<Record<string, unknown>> {
  for (;;) {
    const got = await getTask(taskId);
    if (['completed', 'failed', 'cancelled'].includes(got['status'] as string)) return got;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const errorText = (result: unknown): string => (JSON.parse(((result as { content: { text: string }[] }).content[0]!).text) as { error: string }).error;

test('2026 task: an ask waits in input_required; tasks/update with approve runs it, a decline completes it refused', async () => {
  const code = 'console.log("approved run"); "ASK"';
  const created = (await runJs(code)).body.result!;
  assert.deepEqual([created['resultType'], created['status']], ['task', 'input_required']);
  // A subscriber (the SDK v2 client's listen) sees the wait, the run and the outcome.
  const notes: { method: string; params: Record<string, unknown> }[] = [];
  const watcher = new ModernClient({ name: 'runjs-e2e-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: V } }, capabilities: { extensions: { [TASKS]: {} } } });
  watcher.fallbackNotificationHandler = async (n) => { notes.push(n as { method: string; params: Record<string, unknown> }); };
  await watcher.connect(new ModernHttpTransport(new URL(`${server.base}/mcp`)));
  const sub = await watcher.listen({ taskIds: [created['taskId']] } as never);
  const waiting = await getTask(created['taskId'] as string);
  assert.equal(waiting['status'], 'input_required');
  assert.deepEqual(waiting['inputRequests'], {
    runjs_approval: {
      method: 'elicitation/create',
      params: {
        mode: 'form', message: `Run this script? ${code}`,
        requestedSchema: { type: 'object', properties: { approve: { type: 'boolean', title: 'Approve', description: 'Run it?' } }, required: ['approve'] },
      },
    },
  });
  const ack = await rpc('tasks/update', { taskId: created['taskId'], inputResponses: { runjs_approval: { action: 'accept', content: { approve: true } } } }, created['taskId'] as string);
  assert.equal(ack.body.result!['resultType'], 'complete');
  const done = await settled(created['taskId'] as string);
  const result = done['result'] as { structuredContent: Record<string, unknown>; isError?: boolean };
  assert.deepEqual([done['status'], result.isError, result.structuredContent['status'], result.structuredContent['output']], ['completed', undefined, 'completed', 'approved run\n']);
  assert.equal(await sub.closed, 'graceful');
  await watcher.close();
  const seen = notes.filter((n) => n.method === 'notifications/tasks');
  assert.deepEqual(seen[0]?.params['inputRequests'], waiting['inputRequests']);
  assert.equal(seen[0]?.params['status'], 'input_required');
  assert.equal(seen.at(-1)?.params['status'], 'completed');
  assert.ok(seen.some((n) => n.params['status'] === 'working'), 'working after the approval');

  const declined = (await runJs('"ASK again"')).body.result!;
  await rpc('tasks/update', { taskId: declined['taskId'], inputResponses: { runjs_approval: { action: 'decline' } } }, declined['taskId'] as string);
  const refused = await settled(declined['taskId'] as string);
  assert.equal(refused['status'], 'completed');
  assert.equal(errorText(refused['result']), 'run_js was not approved: the user declined');
});

test('2026: a denial is the call\'s error result; a client without elicitation cannot be asked; unasked scripts run', async () => {
  const denied = (await runJs('"DENY me"')).body.result!;
  assert.equal(denied['isError'], true);
  assert.equal(errorText(denied), 'run_js was not approved: denied by policy: scripts that say DENY are refused');
  const noElicitation = (await runJs('"ASK"', { extensions: { [TASKS]: {} } })).body.result!;
  assert.equal(errorText(noElicitation), 'run_js was not approved: it needs a human\'s approval and this client cannot be asked (no elicitation capability)');
  const plainNoElicitation = (await runJs('"ASK"', {})).body.result!;
  assert.equal(errorText(plainNoElicitation), 'run_js was not approved: it needs a human\'s approval and this client cannot be asked (no elicitation capability)');
  const fine = (await runJs('1 + 1')).body.result!;
  assert.deepEqual([fine['resultType'], fine['status']], ['task', 'working']);
});

test('2026 plain call: the SDK v2 client answers the input_required elicitation itself and the run goes ahead (or not)', async () => {
  const asked: string[] = [];
  let approve = true;
  const client = new ModernClient({ name: 'runjs-e2e-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: V } }, capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler('elicitation/create', (request) => {
    asked.push((request.params as { message: string }).message);
    return { action: 'accept', content: { approve } };
  });
  try {
    await client.connect(new ModernHttpTransport(new URL(`${server.base}/mcp`)));
    const r = await client.callTool({ name: 'run_js', arguments: { code: '"ASK" + 1' } });
    const id = (r.structuredContent as { execution_id: string }).execution_id;
    assert.match(id, /^[0-9a-f-]{36}$/);
    approve = false;
    const no = await client.callTool({ name: 'run_js', arguments: { code: '"ASK" + 2' } });
    assert.equal(no.isError, true);
    assert.equal(errorText(no), 'run_js was not approved: the user declined');
    assert.deepEqual(asked, ['Run this script? "ASK" + 1', 'Run this script? "ASK" + 2']);
  } finally {
    await client.close();
  }
});

test('2025-11-25: the server sends elicitation/create; approve runs, decline refuses; no elicitation capability is refused', async () => {
  const client = new Client({ name: 'runjs-e2e', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  let approve = true;
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params.message);
    return { action: 'accept', content: { approve } };
  });
  const plain = await httpClient(server.base);
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.base}/mcp`)));
    const yes = ok(await client.callTool({ name: 'run_js', arguments: { code: '"ASK"' } }));
    assert.match(yes['execution_id'] as string, /^[0-9a-f-]{36}$/);
    approve = false;
    assert.deepEqual(failed(await client.callTool({ name: 'run_js', arguments: { code: '"ASK"' } })), { error: 'run_js was not approved: the user declined' });
    assert.deepEqual(failed(await plain.callTool({ name: 'run_js', arguments: { code: '"ASK"' } })),
      { error: 'run_js was not approved: it needs a human\'s approval and this client cannot be asked (no elicitation capability)' });
    assert.deepEqual(failed(await plain.callTool({ name: 'run_js', arguments: { code: '"DENY"' } })),
      { error: 'run_js was not approved: denied by policy: scripts that say DENY are refused' });
  } finally {
    await Promise.allSettled([client.close(), plain.close()]);
  }
});
