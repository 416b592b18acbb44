// Artifacts as MCP resources against the real server and the SDK's clients of both generations:
// resources/list (scoped to the caller's session when it has one), resources/templates/list,
// resources/read as text or base64 blob, a missing artifact as -32602 with the URI (SEP-2164), and
// notifications/resources/list_changed when artifacts come and go (2025: on the session; 2026: on
// a subscriptions/listen stream asking for resourcesListChanged).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { McpError, ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ModernClient, ProtocolError, StreamableHTTPClientTransport as ModernHttpTransport } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { httpClient, ok, settle } from '../mcp/mcp-clients.ts';

let server: ServerProcess;
let alice: Client;
let bob: Client;
let anonymous: Client;
before(async () => {
  server = await startServer();
  alice = await httpClient(server.base, { 'X-MCP-Session-Id': 'alice' });
  bob = await httpClient(server.base, { 'X-MCP-Session-Id': 'bob' });
  anonymous = await httpClient(server.base);
});
after(async () => {
  await Promise.all([alice.close(), bob.close(), anonymous.close()]);
  await server.stop();
});

async function run(client: Client, code: string): Promise<void> {
  const { execution_id: id } = ok(await client.callTool({ name: 'run_js', arguments: { code } })) as { execution_id: string };
  const info = await settle(client, id);
  assert.equal(info['status'], 'completed', JSON.stringify(info));
}

test('artifacts are listed per session, read as text or blob, and named by a template', async () => {
  await run(alice, `await artifact('notes-a.txt', 'text/plain', 'hello from alice'); await artifact('b.bin', 'application/octet-stream', new Uint8Array([255, 0, 1]))`);
  await run(bob, `await artifact('bob.json', 'application/json', '{"x":1}')`);
  const mine = (await alice.listResources()).resources;
  assert.deepEqual(mine.map((r) => [r.uri, r.name, r.mimeType, r.size]).sort(), [
    ['runjs://artifacts/b.bin', 'b.bin', 'application/octet-stream', 3],
    ['runjs://artifacts/notes-a.txt', 'notes-a.txt', 'text/plain', 16],
  ]);
  assert.deepEqual((await bob.listResources()).resources.map((r) => r.name), ['bob.json']);
  // No session: every artifact.
  assert.deepEqual((await anonymous.listResources()).resources.map((r) => r.name).sort(), ['b.bin', 'bob.json', 'notes-a.txt']);
  assert.deepEqual((await alice.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate), ['runjs://artifacts/{key}']);
  assert.deepEqual((await alice.readResource({ uri: 'runjs://artifacts/notes-a.txt' })).contents, [{ uri: 'runjs://artifacts/notes-a.txt', mimeType: 'text/plain', text: 'hello from alice' }]);
  assert.deepEqual((await bob.readResource({ uri: 'runjs://artifacts/b.bin' })).contents, [{ uri: 'runjs://artifacts/b.bin', mimeType: 'application/octet-stream', blob: Buffer.from([255, 0, 1]).toString('base64') }]);
});

test('a missing artifact or an unknown URI is -32602 with the URI as data', async () => {
  for (const uri of ['runjs://artifacts/nope', 'file:///etc/passwd']) {
    await assert.rejects(alice.readResource({ uri }), (e: unknown) => e instanceof McpError && e.code === -32602 && e.message.includes(`Resource not found: ${uri}`) && (e.data as { uri: string }).uri === uri);
  }
});

/** Waits until `seen()` holds, polling (the notification travels on its own stream). */
async function until(seen: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 30_000;
  while (!seen()) {
    if (Date.now() > end) throw new Error(`no ${what} within 30 s`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

test('2025: a session hears notifications/resources/list_changed when an artifact is stored or deleted', async () => {
  let changes = 0;
  alice.setNotificationHandler(ResourceListChangedNotificationSchema, () => { changes++; });
  await run(alice, `await artifact('changed.txt', 'text/plain', 'x')`);
  await until(() => changes > 0, 'list_changed after a store');
  const before = changes;
  ok(await alice.callTool({ name: 'delete_artifact', arguments: { key: 'changed.txt' } }));
  await until(() => changes > before, 'list_changed after a delete');
});

test('2026-07-28: the same resources per request (session header), -32602 for a missing one, list_changed on a listen stream', async () => {
  const client = new ModernClient({ name: 'runjs-e2e-2026', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  let changes = 0;
  client.setNotificationHandler('notifications/resources/list_changed', () => { changes++; });
  try {
    await client.connect(new ModernHttpTransport(new URL(`${server.base}/mcp`), { requestInit: { headers: { 'X-MCP-Session-Id': 'bob' } } }));
    assert.deepEqual(client.getServerCapabilities()?.resources, { listChanged: true });
    assert.deepEqual((await client.listResources()).resources.map((r) => r.name), ['bob.json']);
    assert.deepEqual((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate), ['runjs://artifacts/{key}']);
    assert.deepEqual((await client.readResource({ uri: 'runjs://artifacts/bob.json' })).contents, [{ uri: 'runjs://artifacts/bob.json', mimeType: 'application/json', text: '{"x":1}' }]);
    await assert.rejects(client.readResource({ uri: 'runjs://artifacts/nope' }),
      (e: unknown) => e instanceof ProtocolError && e.code === -32602 && e.message.includes('Resource not found: runjs://artifacts/nope') && (e.data as { uri: string }).uri === 'runjs://artifacts/nope');
    const sub = await client.listen({ resourcesListChanged: true });
    assert.deepEqual(sub.honoredFilter, { resourcesListChanged: true });
    await run(bob, `await artifact('bob-2.txt', 'text/plain', 'again')`);
    await until(() => changes > 0, 'list_changed on the listen stream');
    assert.deepEqual((await client.listResources()).resources.map((r) => r.name), ['bob-2.txt', 'bob.json']);
    await sub.close();
  } finally {
    await client.close();
  }
});
