// Issue 16's acceptance test: @grpc/grpc-js imported with `npm:` inside the sandbox of a real runjs
// server makes a unary and a server-streaming call to a gRPC server (the host's own grpc-js, h2c)
// on 127.0.0.1. The packages come from a registry this test serves, packed from the grpc-js and
// proto-loader installed in node_modules with their whole dependency closure; the `http2` policy
// allows 127.0.0.1. Without an `http2` policy the interface spec's refusal reaches the call.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { startServer } from './server-process.ts';
import { httpClient, ok, settle } from '../mcp/mcp-clients.ts';
import { startNpmRegistry, type NpmRegistry } from '../../helpers/npm-registry.ts';
import { publishInstalled } from '../../helpers/npm-installed.ts';
import { GREETER_PROTO, greeterScript, startGreeter } from '../../helpers/grpc-greeter.ts';

let registry: NpmRegistry;
let greeter: { port: number; close(): void };
const dir = mkdtempSync(join(tmpdir(), 'runjs-e2e-grpc-'));
const hook = join(dir, 'http2-hook.js');
writeFileSync(hook, "export default (input) => input.operation === 'request' || input.url_parsed.host === '127.0.0.1';\n");

before(async () => {
  registry = await startNpmRegistry();
  publishInstalled(registry, '@grpc/grpc-js');
  greeter = await startGreeter(grpc, protoLoader.fromJSON(GREETER_PROTO, {}));
});
after(async () => {
  greeter.close();
  await registry.close();
});

async function run(args: string[], code: string): Promise<Record<string, unknown>> {
  const server = await startServer(['--allow-external-modules', ...args], { dbDir: dir, env: { PATH: process.env['PATH'] ?? '', npm_config_registry: registry.url } });
  const client = await httpClient(server.base);
  try {
    const { execution_id: id } = ok(await client.callTool({ name: 'run_js', arguments: { code, execution_timeout_secs: 120, heap_memory_max_mb: 128 } })) as { execution_id: string };
    return await settle(client, id, 150_000);
  } finally {
    await client.close();
    assert.equal(await server.stop(), 0);
  }
}

test('npm:@grpc/grpc-js in the sandbox: a unary and a server-streaming call over h2c', async () => {
  const info = await run(['--policies-json', JSON.stringify({ http2: { policies: [{ url: pathToFileURL(hook).href }] } })], greeterScript(`127.0.0.1:${greeter.port}`));
  assert.equal(info['status'], 'completed', JSON.stringify(info));
  assert.equal(info['result'], JSON.stringify(['Hello, runjs', ['Hello #1, stream', 'Hello #2, stream', 'Hello #3, stream']]));
});

test('without an http2 policy the refusal reaches the gRPC call as its error', async () => {
  const info = await run([], greeterScript(`127.0.0.1:${greeter.port}`, 'error'));
  assert.equal(info['status'], 'completed', JSON.stringify(info));
  assert.equal(info['result'], JSON.stringify([14, `No connection established. Last error: http2 is not enabled: start runjs with an "http2" section in --policies-json (the connection to http://127.0.0.1:${greeter.port} is refused). Resolution note: `]));
});
