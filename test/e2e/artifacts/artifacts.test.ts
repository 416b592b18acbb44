// Artifacts end to end (issue 6), against the real server process: a script's PNG downloaded
// byte-identical over REST and as an MCP image block; one-time upload URLs through their state
// machine (one winner among concurrent PUTs, failed and abandoned uploads leave the token usable,
// expiry); key/mime validation; 16 MiB + 1 bodies refused while streaming; deleting artifacts
// and reclaiming their payloads on disk.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { Agent, fetch as undiciFetch } from 'undici';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { failed, httpClient, ok } from '../mcp/mcp-clients.ts';
import { defaultRunJsDescription } from '../../../supervisor/mcp/mcp-texts.ts';
import { errorMessage } from '../../../shared/errors.ts';
import { MAX_ARTIFACT_BYTES } from '../../../shared/artifact-rules.ts';

const MiB = 1024 * 1024;
const LIMIT = 16 * MiB;
/** The limits the default server runs with (as the MCP texts state them). */
const LIMITS = { defaultTimeoutSecs: 30, defaultHeapMb: 8, maxHeapMb: 1024 };
// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

let server: ServerProcess;
let client: Client;

before(async () => {
  server = await startServer();
  client = await httpClient(server.base);
});
after(async () => {
  await client?.close();
  assert.equal(await server?.stop(), 0);
});

const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

/** Runs a script over REST and waits for its ExecutionInfo. */
async function exec(code: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${server.base}/api/exec`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code }) });
  assert.equal(res.status, 202);
  const { execution_id: id } = await res.json() as { execution_id: string };
  for (;;) {
    const info = await (await fetch(`${server.base}/api/executions/${id}`)).json() as Record<string, unknown>;
    if (info['status'] !== 'running') return info;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function output(id: string): Promise<string> {
  return ((await (await fetch(`${server.base}/api/executions/${id}/output`)).json()) as { data: string }).data;
}

async function uploadUrl(args: Record<string, unknown>): Promise<{ url: string; expires_at: string; key: string; mime_type: string | null }> {
  return ok(await call('get_artifact_upload_url', args)) as never;
}

/**
 * One PUT on a connection of its own: a pooled keep-alive socket the server is closing (after an
 * earlier refused upload, or at its idle timeout) would fail the write with EPIPE on a loaded
 * machine — a property of connection reuse, not of the route under test.
 */
async function put(path: string, body: Uint8Array | string, contentType?: string): Promise<Response> {
  const dispatcher = new Agent({ pipelining: 0 });
  try {
    const res = await undiciFetch(`${server.base}${path}`, { method: 'PUT', headers: contentType === undefined ? {} : { 'Content-Type': contentType }, body, dispatcher });
    const bytes = new Uint8Array(await res.arrayBuffer());
    return new Response(bytes, { status: res.status, headers: [...res.headers] });
  } finally {
    await dispatcher.close();
  }
}

/**
 * Streams zeros in 1 MiB chunks (chunked) until the server answers; returns the status and how
 * much was sent by then. A server that buffered the whole body would not answer before `total`
 * bytes arrived.
 */
function streamUntilAnswered(path: string, total: number): Promise<{ status: number; sent: number; body: string }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = request(`${server.base}${path}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/octet-stream' },
    }, (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => { body += c; }).on('end', () => { req.destroy(); resolve({ status: res.statusCode ?? 0, sent, body }); });
    });
    req.on('error', (e) => { if (!answered) reject(e); });
    const chunk = Buffer.alloc(MiB);
    const pump = (): void => {
      if (answered) return;
      if (sent >= total) { req.end(); return; }
      const n = Math.min(MiB, total - sent);
      sent += n;
      // Slow enough that the server can answer while the body is still coming.
      if (req.write(n === MiB ? chunk : chunk.subarray(0, n))) setTimeout(pump, 5);
      else req.once('drain', () => setTimeout(pump, 5));
    };
    req.flushHeaders();
    setTimeout(pump, 50);
  });
}

/** How long a server that waits for a body it will never get is given before the test gives up. */
const NO_ANSWER_MS = 60_000;

/**
 * Sends only the headers of a PUT declaring `declared` body bytes, never any of the body, and
 * resolves with the answer. A server that refuses on the declared Content-Length answers this
 * with zero body bytes sent; one that reads or waits for the body never does. Counting what the
 * client wrote instead would measure its socket buffers and the server's scheduling, not whether
 * the server looked at the body.
 */
function answerToHeadersOnly(path: string, declared: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.base}${path}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(declared) },
    }, (res) => {
      clearTimeout(giveUp);
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => { body += c; }).on('end', () => { req.destroy(); resolve({ status: res.statusCode ?? 0, body }); });
    });
    const giveUp = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer to the headers alone within ${NO_ANSWER_MS} ms: the server waits for the body`));
    }, NO_ANSWER_MS);
    req.on('error', (e) => { clearTimeout(giveUp); reject(e); });
    req.flushHeaders();
  });
}

test('a script emits a PNG: REST download is byte-identical, the execution lists it, MCP get_artifact gives an image block', async () => {
  const info = await exec(`const m = await artifact('chart.png', 'image/png', new Uint8Array(${JSON.stringify([...PNG])})); console.log(m.size_bytes)`);
  assert.equal(info['status'], 'completed', JSON.stringify(info));
  assert.equal(await output(info['execution_id'] as string), `${PNG.length}\n`);
  const listed = info['artifacts'] as Record<string, unknown>[];
  assert.equal(listed.length, 1);
  assert.deepEqual({ ...listed[0], created_at: undefined }, { key: 'chart.png', mime_type: 'image/png', size_bytes: PNG.length, created_at: undefined, execution_id: info['execution_id'] });

  const res = await fetch(`${server.base}/api/artifacts/chart.png`);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'image/png');
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(res.headers.get('content-disposition'), 'attachment; filename="chart.png"');
  assert.deepEqual(Buffer.from(await res.arrayBuffer()), PNG);

  const list = await (await fetch(`${server.base}/api/artifacts`)).json() as { artifacts: { key: string }[] };
  assert.ok(list.artifacts.some((a) => a.key === 'chart.png'));
  const mcpList = ok(await call('list_artifacts')) as { artifacts: { key: string }[] };
  assert.ok(mcpList.artifacts.some((a) => a.key === 'chart.png'));

  const got = await call('get_artifact', { key: 'chart.png' });
  assert.notEqual(got.isError, true);
  assert.equal(got.content.length, 2);
  const head = JSON.parse((got.content[0] as { text: string }).text) as Record<string, unknown>;
  assert.equal(head['encoding'], 'image');
  assert.equal(head['mime_type'], 'image/png');
  assert.deepEqual(got.structuredContent, head);
  assert.deepEqual(got.content[1], { type: 'image', mimeType: 'image/png', data: PNG.toString('base64') });
});

test('get_artifact: text as text, binary as base64, large payloads as a resource_link, unknown keys as an error', async () => {
  assert.equal((await put('/api/artifacts/notes.txt', 'héllo', 'text/plain; charset=utf-8')).status, 200);
  assert.equal((await put('/api/artifacts/blob.bin', new Uint8Array([0xff, 0xfe, 0x00]), 'application/octet-stream')).status, 200);
  assert.equal((await put('/api/artifacts/big.bin', new Uint8Array(MiB + 1), 'application/octet-stream')).status, 200);
  const text = await call('get_artifact', { key: 'notes.txt' });
  assert.deepEqual(text.content[1], { type: 'text', text: 'héllo' });
  const bin = await call('get_artifact', { key: 'blob.bin' });
  assert.deepEqual(bin.content[1], { type: 'text', text: Buffer.from([0xff, 0xfe, 0x00]).toString('base64') });
  assert.equal((bin.structuredContent as Record<string, unknown>)['encoding'], 'base64');
  const big = await call('get_artifact', { key: 'big.bin' });
  assert.equal((big.structuredContent as Record<string, unknown>)['encoding'], 'link');
  assert.equal(big.content[1]!.type, 'resource_link');
  // MCP wants an absolute URI: without --public-url, the origin the MCP request came in on.
  assert.equal((big.content[1] as { uri: string }).uri, `${server.base}/api/artifacts/big.bin`);
  assert.equal((big.structuredContent as Record<string, unknown>)['url'], '/api/artifacts/big.bin');
  assert.deepEqual(failed(await call('get_artifact', { key: 'nope' })), { error: "artifact 'nope' not found" });
  const missing = await fetch(`${server.base}/api/artifacts/nope`);
  assert.equal(missing.status, 404);
  assert.deepEqual(await missing.json(), { error: "artifact 'nope' not found" });
});

test('upload URL → PUT → artifact.get in a later script; the mime fixed at issue wins; a used token is 404', async () => {
  const issued = await uploadUrl({ key: 'input.csv', mime_type: 'text/csv' });
  assert.match(issued.url, /^\/api\/artifact-uploads\/[A-Za-z0-9_-]{43}$/);
  assert.equal(issued.key, 'input.csv');
  assert.equal(issued.mime_type, 'text/csv');
  const lifetime = Date.parse(issued.expires_at) - Date.now();
  assert.ok(lifetime > 890_000 && lifetime <= 900_000, `default lifetime 900 s, got ${lifetime} ms`);
  const res = await put(issued.url, 'a,b\n1,2\n', 'text/plain');
  assert.equal(res.status, 200);
  const meta = await res.json() as Record<string, unknown>;
  assert.equal(meta['mime_type'], 'text/csv');
  assert.equal(meta['size_bytes'], 8);
  assert.equal((await put(issued.url, 'again', 'text/plain')).status, 404);

  const info = await exec(`const b = await artifact.get('input.csv'); console.log(b.length, JSON.stringify(new TextDecoder().decode(b)))`);
  assert.equal(info['status'], 'completed');
  assert.equal(await output(info['execution_id'] as string), '8 "a,b\\n1,2\\n"\n');
});

test('concurrent PUTs on one token: exactly one 200, the rest 404', async () => {
  const { url } = await uploadUrl({ key: 'race.bin' });
  const statuses = await Promise.all(Array.from({ length: 8 }, (_, i) => put(url, new Uint8Array(64 * 1024).fill(i), 'application/octet-stream').then((r) => r.status)));
  assert.deepEqual(statuses.filter((s) => s === 200).length, 1, String(statuses));
  assert.deepEqual(statuses.filter((s) => s === 404).length, 7, String(statuses));
});

test('a rejected upload (bad mime, 413) or an abandoned one leaves the token usable', async () => {
  const { url } = await uploadUrl({ key: 'retry.txt' });
  const bad = await put(url, 'x', 'not a mime');
  assert.equal(bad.status, 400);
  assert.match(((await bad.json()) as { error: string }).error, /invalid mime type/);
  const tooBig = await streamUntilAnswered(url, LIMIT + 1);
  assert.equal(tooBig.status, 413, tooBig.body);
  assert.match(tooBig.body, /16777216 bytes/);
  // Abandoned: the client promises 100 bytes, sends 10 and disconnects.
  await new Promise<void>((resolve) => {
    const req = request(`${server.base}${url}`, { method: 'PUT', headers: { 'Content-Length': '100' } });
    req.on('error', () => resolve());
    req.write(Buffer.alloc(10));
    setTimeout(() => { req.destroy(); resolve(); }, 100);
  });
  // The server notices the disconnect asynchronously (seconds on a loaded machine): retry.
  let status = 0;
  for (let i = 0; i < 500 && status !== 200; i++) {
    status = (await put(url, 'finally', 'text/plain')).status;
    if (status !== 200) await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(status, 200);
  const res = await fetch(`${server.base}/api/artifacts/retry.txt`);
  assert.equal(await res.text(), 'finally');
  assert.equal(res.headers.get('content-type'), 'text/plain');
});

test('an expired token is 404; unknown tokens are 404; bad issue arguments are tool errors', async () => {
  const { url } = await uploadUrl({ key: 'late.txt', expires_in_secs: 1 });
  await new Promise((r) => setTimeout(r, 1_100));
  const res = await put(url, 'x', 'text/plain');
  assert.equal(res.status, 404);
  assert.match(((await res.json()) as { error: string }).error, /upload token not found/);
  assert.equal((await put('/api/artifact-uploads/not-a-token', 'x')).status, 404);
  assert.match(failed(await call('get_artifact_upload_url', { key: '../etc' }))['error'] as string, /invalid artifact key/);
  assert.match(failed(await call('get_artifact_upload_url', { key: 'k', mime_type: 'png' }))['error'] as string, /invalid mime type/);
  assert.match(failed(await call('get_artifact_upload_url', { key: 'k', expires_in_secs: 86_401 }))['error'] as string, /expires_in_secs: must be from 1 to 86400/);
});

test('PUT /api/artifacts/{key}: key and mime validation, octet-stream by default, same key overwrites', async () => {
  for (const key of ['..%2Fx', 'a%20b', '.hidden', 'x'.repeat(129)]) {
    const res = await put(`/api/artifacts/${key}`, 'x', 'text/plain');
    assert.equal(res.status, 400, key);
    assert.match(((await res.json()) as { error: string }).error, /artifact key/);
  }
  const badMime = await put('/api/artifacts/m.txt', 'x', 'text');
  assert.equal(badMime.status, 400);
  assert.match(((await badMime.json()) as { error: string }).error, /invalid mime type 'text'/);
  const wildcard = await put('/api/artifacts/m.txt', 'x', '*/*');
  assert.equal(wildcard.status, 400);
  assert.deepEqual(await wildcard.json(), { error: `invalid mime type '*/*': '*' is a wildcard, name the exact type (e.g. "image/png")` });
  assert.equal((await fetch(`${server.base}/api/artifacts/m.txt`)).status, 404);
  const bare = await new Promise<number>((resolve, reject) => {
    const req = request(`${server.base}/api/artifacts/bare.bin`, { method: 'PUT' }, (res) => { res.resume(); resolve(res.statusCode ?? 0); });
    req.on('error', reject);
    req.end(Buffer.from([1, 2, 3]));
  });
  assert.equal(bare, 200);
  const meta = (await (await fetch(`${server.base}/api/artifacts`)).json() as { artifacts: Record<string, unknown>[] }).artifacts.find((a) => a['key'] === 'bare.bin');
  assert.equal(meta?.['mime_type'], 'application/octet-stream');
  assert.equal(meta?.['execution_id'], null);
  assert.equal((await put('/api/artifacts/bare.bin', 'new', 'text/plain')).status, 200);
  assert.equal(await (await fetch(`${server.base}/api/artifacts/bare.bin`)).text(), 'new');
});

test('16 MiB + 1 byte is refused while streaming, never buffered whole: 400 on the key route, 413 on the token route', async () => {
  const chunked = await streamUntilAnswered('/api/artifacts/huge.bin', 64 * MiB);
  assert.equal(chunked.status, 400, chunked.body);
  assert.ok(chunked.sent < 32 * MiB, `answered after ${chunked.sent} bytes of 64 MiB`);
  // A declared oversize is refused on the header, before any of the body: none is ever sent.
  const declared = await answerToHeadersOnly('/api/artifacts/huge.bin', LIMIT + 1);
  assert.deepEqual([declared.status, JSON.parse(declared.body)], [400, { error: errorMessage('ARTIFACT_TOO_LARGE', MAX_ARTIFACT_BYTES) }]);
  const { url } = await uploadUrl({ key: 'huge.bin' });
  const declaredViaToken = await answerToHeadersOnly(url, LIMIT + 1);
  assert.deepEqual([declaredViaToken.status, JSON.parse(declaredViaToken.body)], [413, { error: errorMessage('UPLOAD_TOO_LARGE', MAX_ARTIFACT_BYTES) }]);
  // The refused upload left the token usable.
  const viaToken = await streamUntilAnswered(url, 64 * MiB);
  assert.equal(viaToken.status, 413);
  assert.ok(viaToken.sent < 32 * MiB);
  assert.equal((await fetch(`${server.base}/api/artifacts/huge.bin`)).status, 404);
  // Exactly the limit is accepted.
  assert.equal((await put('/api/artifacts/huge.bin', new Uint8Array(LIMIT), 'application/octet-stream')).status, 200);
});

test('stateless run_js lists the artifacts the run emitted and inlines them; --public-url makes URLs absolute; --stateless-artifact-tools lists the tools', async () => {
  const stateless = await startServer(['--stateless', '--stateless-artifact-tools', '--public-url', 'https://runjs.example.com/']);
  const c = await httpClient(stateless.base);
  try {
    assert.deepEqual((await c.listTools()).tools.map((t) => t.name), ['run_js', 'get_artifact', 'list_artifacts', 'delete_artifact', 'get_artifact_upload_url']);
    assert.equal((await c.listTools()).tools[0]!.description, defaultRunJsDescription('stateless', LIMITS, false, true));
    const res = await c.callTool({ name: 'run_js', arguments: { code: `await artifact('dot.png', 'image/png', new Uint8Array(${JSON.stringify([...PNG])})); await artifact('t.txt', 'text/plain', 'hi'); console.log('done')` } }) as CallToolResult;
    assert.notEqual(res.isError, true, JSON.stringify(res));
    const body = res.structuredContent as { output: string; artifacts: Record<string, unknown>[] };
    assert.equal(body.output, 'done\n');
    // The full ArtifactMeta (as list_artifacts has it), plus url and inline.
    const listed = (ok(await c.callTool({ name: 'list_artifacts', arguments: {} })) as { artifacts: Record<string, unknown>[] }).artifacts;
    const metaOf = (key: string) => listed.find((a) => a['key'] === key)!;
    assert.match(String(metaOf('dot.png')['execution_id']), /^[0-9a-f-]{36}$/);
    assert.deepEqual(body.artifacts, [
      { ...metaOf('dot.png'), url: 'https://runjs.example.com/api/artifacts/dot.png', inline: true },
      { ...metaOf('t.txt'), url: 'https://runjs.example.com/api/artifacts/t.txt', inline: true },
    ]);
    assert.deepEqual(Object.keys(body.artifacts[0]!), ['key', 'mime_type', 'size_bytes', 'created_at', 'execution_id', 'url', 'inline']);
    assert.deepEqual(JSON.parse((res.content[0] as { text: string }).text), body);
    // The payloads, then a resource_link to each artifact's MCP resource (the artifact tools are listed, so they are resources).
    const link = (key: string, mimeType: string, size: number) => ({ type: 'resource_link', uri: `runjs://artifacts/${key}`, name: key, mimeType, size, description: `Artifact '${key}' as an MCP resource (resources/read)` });
    assert.deepEqual(res.content.slice(1), [
      { type: 'image', mimeType: 'image/png', data: PNG.toString('base64') }, { type: 'text', text: 'hi' },
      link('dot.png', 'image/png', PNG.length), link('t.txt', 'text/plain', 2),
    ]);
    assert.deepEqual((await c.readResource({ uri: 'runjs://artifacts/t.txt' })).contents, [{ uri: 'runjs://artifacts/t.txt', mimeType: 'text/plain', text: 'hi' }]);
    // The same as an MCP task.
    const messages = [];
    for await (const m of c.experimental.tasks.callToolStream({ name: 'run_js', arguments: { code: `await artifact('task.txt', 'text/plain', 'from a task')` } }, CallToolResultSchema, { task: { ttl: 60_000 } })) messages.push(m);
    const last = messages.at(-1) as { type: string; result: CallToolResult };
    assert.equal(last.type, 'result');
    const taskEntries = (last.result.structuredContent as { artifacts: Record<string, unknown>[] }).artifacts;
    assert.deepEqual(taskEntries.map((e) => ({ ...e, created_at: undefined, execution_id: undefined })), [
      { key: 'task.txt', mime_type: 'text/plain', size_bytes: 11, created_at: undefined, execution_id: undefined, url: 'https://runjs.example.com/api/artifacts/task.txt', inline: true },
    ]);
    assert.equal(typeof taskEntries[0]!['created_at'], 'string');
    assert.equal(typeof taskEntries[0]!['execution_id'], 'string');
    assert.deepEqual(last.result.content.slice(1), [{ type: 'text', text: 'from a task' }, link('task.txt', 'text/plain', 11)]);
    const issued = ok(await c.callTool({ name: 'get_artifact_upload_url', arguments: { key: 'x.bin' } })) as { url: string };
    assert.match(issued.url, /^https:\/\/runjs\.example\.com\/api\/artifact-uploads\/[A-Za-z0-9_-]{43}$/);
    // The token works on this server whatever address the client reached it by.
    assert.equal((await fetch(`${stateless.base}${new URL(issued.url).pathname}`, { method: 'PUT', body: 'x' })).status, 200);
  } finally {
    await c.close();
    await stateless.stop();
  }
});

test('payloads are reclaimed: an overwrite deletes the old blob, DELETE and delete_artifact remove artifact and blob', async () => {
  const blobPath = (content: string) => {
    const h = createHash('sha256').update(content).digest('hex');
    return join(server.dbDir, 'blobs', h.slice(0, 2), h.slice(2));
  };
  assert.equal((await put('/api/artifacts/doomed.txt', 'first version', 'text/plain')).status, 200);
  assert.equal(existsSync(blobPath('first version')), true);
  assert.equal((await put('/api/artifacts/doomed.txt', 'second version', 'text/plain')).status, 200);
  assert.equal(existsSync(blobPath('first version')), false);
  assert.equal(existsSync(blobPath('second version')), true);

  const del = await fetch(`${server.base}/api/artifacts/doomed.txt`, { method: 'DELETE' });
  assert.equal(del.status, 200);
  const meta = await del.json() as Record<string, unknown>;
  assert.deepEqual({ ...meta, created_at: undefined }, { key: 'doomed.txt', mime_type: 'text/plain', size_bytes: 14, created_at: undefined, execution_id: null });
  assert.equal(existsSync(blobPath('second version')), false);
  assert.equal((await fetch(`${server.base}/api/artifacts/doomed.txt`)).status, 404);
  const again = await fetch(`${server.base}/api/artifacts/doomed.txt`, { method: 'DELETE' });
  assert.equal(again.status, 404);
  assert.deepEqual(await again.json(), { error: "artifact 'doomed.txt' not found" });

  assert.equal((await put('/api/artifacts/via-mcp.txt', 'mcp delete', 'text/plain')).status, 200);
  const deleted = ok(await call('delete_artifact', { key: 'via-mcp.txt' }));
  assert.deepEqual({ ...deleted, created_at: undefined }, { key: 'via-mcp.txt', mime_type: 'text/plain', size_bytes: 10, created_at: undefined, execution_id: null });
  assert.equal(existsSync(blobPath('mcp delete')), false);
  assert.deepEqual(failed(await call('get_artifact', { key: 'via-mcp.txt' })), { error: "artifact 'via-mcp.txt' not found" });
  assert.deepEqual(failed(await call('delete_artifact', { key: 'via-mcp.txt' })), { error: "artifact 'via-mcp.txt' not found" });
});

test('a failed upload (store unavailable) logs its URL without the token, and the token stays usable', async () => {
  const own = await startServer();
  const c = await httpClient(own.base);
  try {
    // A file where the payload directory belongs: the store cannot write.
    writeFileSync(join(own.dbDir, 'blobs'), 'not a directory');
    const issued = ok(await c.callTool({ name: 'get_artifact_upload_url', arguments: { key: 'later.txt' } })) as { url: string };
    const token = issued.url.slice('/api/artifact-uploads/'.length);
    const failedPut = await fetch(`${own.base}${issued.url}`, { method: 'PUT', headers: { 'Content-Type': 'text/plain' }, body: 'payload' });
    assert.equal(failedPut.status, 500);
    assert.deepEqual(await failedPut.json(), { error: 'internal error' });
    assert.match(own.stderr(), /PUT \/api\/artifact-uploads\/<token> failed/);
    assert.equal(own.stderr().includes(token), false, 'the token is not in the log');
    rmSync(join(own.dbDir, 'blobs'));
    const retried = await fetch(`${own.base}${issued.url}`, { method: 'PUT', headers: { 'Content-Type': 'text/plain' }, body: 'payload' });
    assert.equal(retried.status, 200);
    assert.equal(await (await fetch(`${own.base}/api/artifacts/later.txt`)).text(), 'payload');
  } finally {
    await c.close();
    await own.stop();
  }
});
