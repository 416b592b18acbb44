// Artifacts as MCP resources against the real server and the SDK's client: resources/list (scoped
// to the caller's session when it has one), resources/templates/list, resources/read as text or
// base64 blob, and a missing artifact as -32602 with the URI (SEP-2164).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
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
