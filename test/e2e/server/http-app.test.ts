// The HTTP listener as a whole (Streamable HTTP port): REST mounted at /api beside /mcp over one
// execution service, the OpenAPI document, Host and Origin checks (403), CORS for listed origins,
// and JSON 404s.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openApiJson, packageVersion } from '../../../supervisor/rest/index.ts';
import { httpClient, ok, settle } from '../mcp/mcp-clients.ts';
import { startServer, type ServerProcess } from './server-process.ts';
import { httpRequest, INITIALIZE_BODY, MCP_POST_HEADERS, readStream } from './http-request.ts';

let server: ServerProcess;
/** A standalone GET /mcp stream of a raw MCP session, held longer than one keep-alive interval. */
let keepAlive: Promise<{ status: number; text: string }>;

before(async () => {
  server = await startServer(['--allowed-hosts', 'localhost,127.0.0.1,[::1],runjs.example:8443,*.not-a-wildcard',
    '--allowed-origins', 'https://app.example.com', '--allowed-origins', 'null', '--max-request-body', '65536']);
  const headers = { Host: `127.0.0.1:${server.port}`, ...MCP_POST_HEADERS, 'Mcp-Protocol-Version': '2025-11-25' };
  const init = await httpRequest(server.port, 'POST', '/mcp', headers, INITIALIZE_BODY);
  const session = { ...headers, 'Mcp-Session-Id': String(init.headers['mcp-session-id']) };
  await httpRequest(server.port, 'POST', '/mcp', session, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  keepAlive = readStream(server.port, '/mcp', 17_000, { Host: session.Host, 'Mcp-Session-Id': session['Mcp-Session-Id'], 'Mcp-Protocol-Version': '2025-11-25' });
});
after(async () => {
  await server?.stop();
});

const get = (path: string, headers: Record<string, string> = {}) => httpRequest(server.port, 'GET', path, { Host: `127.0.0.1:${server.port}`, ...headers });

test('REST is mounted at /api and shares the execution service with MCP', async () => {
  const version = await get('/api/version');
  assert.deepEqual([version.status, version.json], [200, { version: packageVersion() }]);
  const accepted = await fetch(`${server.base}/api/exec`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code: 'console.log("rest"); 7' }) });
  assert.equal(accepted.status, 202);
  const { execution_id: id } = await accepted.json() as { execution_id: string };
  const client = await httpClient(server.base);
  try {
    const info = await settle(client, id);
    assert.deepEqual([info['status'], info['result']], ['completed', '7']);
    assert.equal(ok(await client.callTool({ name: 'get_execution_output', arguments: { execution_id: id } }))['data'], 'rest\n');
  } finally {
    await client.close();
  }
});

test('GET /api-doc/openapi.json is the REST document, as JSON, whatever the Host', async () => {
  for (const host of [`127.0.0.1:${server.port}`, 'evil.example']) {
    const doc = await get('/api-doc/openapi.json', { Host: host });
    assert.equal(doc.status, 200);
    assert.match(String(doc.headers['content-type']), /^application\/json/);
    assert.equal(doc.text, openApiJson(packageVersion()));
  }
});

test('API responses carry no ETag (they are no-store); the OpenAPI document has one and answers If-None-Match with 304', async () => {
  for (const path of ['/api/version', '/api/executions', '/api/nope']) {
    const res = await get(path);
    assert.equal(res.headers['etag'], undefined, path);
    assert.equal(res.headers['cache-control'], 'no-store', path);
  }
  const doc = await get('/api-doc/openapi.json');
  const etag = String(doc.headers['etag']);
  assert.match(etag, /^"[A-Za-z0-9_-]{27}"$/);
  assert.equal((await get('/api-doc/openapi.json')).headers['etag'], etag);
  const again = await get('/api-doc/openapi.json', { 'If-None-Match': etag });
  assert.deepEqual([again.status, again.text], [304, '']);
  assert.equal((await get('/api-doc/openapi.json', { 'If-None-Match': '"other"' })).status, 200);
});

test('Host allowlist: listed hosts pass on any port (bare) or their port; others are 403 on every path but the OpenAPI document', async () => {
  for (const host of ['localhost', `localhost:${server.port}`, '127.0.0.1', `[::1]:${server.port}`, 'LOCALHOST:1', 'runjs.example:8443']) {
    assert.equal((await get('/api/version', { Host: host })).status, 200, host);
  }
  for (const host of ['evil.example', 'runjs.example:8444', 'runjs.example', 'x.not-a-wildcard', '127.0.0.2']) {
    for (const [method, path] of [['GET', '/api/version'], ['POST', '/mcp'], ['POST', '/mcp/'], ['POST', '/MCP'], ['GET', '/sse'], ['POST', '/message'], ['GET', '/api/nope'], ['GET', '/']]) {
      const res = await httpRequest(server.port, method!, path!, { Host: host, ...MCP_POST_HEADERS }, method === 'POST' ? INITIALIZE_BODY : undefined);
      assert.deepEqual([res.status, res.json], [403, { error: `Host '${host}' is not allowed (see --allowed-hosts)` }], `${method} ${path} Host ${host}`);
    }
  }
});

test('a malformed Host is 403 even when it starts with a listed host (the port must be 1–5 digits)', async () => {
  const hosts = ['localhost:1@evil.example', `127.0.0.1:${server.port}@evil.example`, 'localhost:abc', `localhost:${server.port}x`, 'localhost:123456',
    'localhost:', 'user@localhost', 'localhost/evil', 'local host', ':80', '[::1]:1@evil.example', 'runjs.example:8443@evil.example'];
  for (const host of hosts) {
    for (const [method, path] of [['GET', '/api/version'], ['POST', '/mcp'], ['GET', '/sse']]) {
      const res = await httpRequest(server.port, method!, path!, { Host: host, ...MCP_POST_HEADERS }, method === 'POST' ? INITIALIZE_BODY : undefined);
      assert.deepEqual([res.status, res.json], [403, { error: `Host '${host}' is not allowed (see --allowed-hosts)` }], `${method} ${path} Host ${host}`);
    }
  }
});

test('Origin allowlist: unlisted origins are 403, no Origin passes, listed origins get CORS headers', async () => {
  const evil = await get('/api/version', { Origin: 'https://evil.example' });
  assert.deepEqual([evil.status, evil.json], [403, { error: "Origin 'https://evil.example' is not allowed (see --allowed-origins)" }]);
  const mcp = await httpRequest(server.port, 'POST', '/mcp', { Host: `127.0.0.1:${server.port}`, Origin: 'http://localhost:1', ...MCP_POST_HEADERS }, INITIALIZE_BODY);
  assert.equal(mcp.status, 403);
  const none = await get('/api/version');
  assert.equal(none.status, 200);
  assert.equal(none.headers['access-control-allow-origin'], undefined);
  const listed = await get('/api/version', { Origin: 'HTTPS://APP.example.com:443' });
  assert.equal(listed.status, 200);
  assert.equal(listed.headers['access-control-allow-origin'], 'HTTPS://APP.example.com:443');
  assert.equal(listed.headers['vary'], 'Origin');
  assert.equal((await get('/api/version', { Origin: 'null' })).status, 200, '"null" is allowed when listed');
  const preflight = await httpRequest(server.port, 'OPTIONS', '/mcp', {
    Host: `127.0.0.1:${server.port}`, Origin: 'https://app.example.com', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type, mcp-session-id',
  });
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers['access-control-allow-origin'], 'https://app.example.com');
  assert.equal(preflight.headers['access-control-allow-methods'], 'GET, POST, PUT, DELETE, OPTIONS');
  assert.equal(preflight.headers['access-control-allow-headers'], 'content-type, mcp-session-id');
  assert.equal(preflight.headers['access-control-expose-headers'], 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate');
});

test('unknown paths are JSON 404s; /mcp speaks JSON-RPC errors', async () => {
  const root = await get('/');
  assert.deepEqual([root.status, root.json], [404, { error: 'Not found: GET /' }]);
  const sse = await get('/sse', { Accept: 'text/event-stream' });
  assert.deepEqual([sse.status, sse.json], [404, { error: 'Not found: GET /sse' }], 'a Streamable HTTP port serves no legacy SSE');
  const getMcp = await get('/mcp', { Accept: 'text/event-stream' });
  assert.deepEqual([getMcp.status, getMcp.json], [400, { jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' }, id: null }]);
  const garbage = await httpRequest(server.port, 'POST', '/mcp', { Host: `127.0.0.1:${server.port}`, ...MCP_POST_HEADERS }, '{not json');
  assert.deepEqual([garbage.status, (garbage.json as { error: { code: number } }).error.code], [400, -32700]);
});

test('--max-request-body bounds MCP messages and REST bodies alike', async () => {
  const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x'.repeat(70_000), version: '1' } } });
  const mcp = await httpRequest(server.port, 'POST', '/mcp', { Host: `127.0.0.1:${server.port}`, ...MCP_POST_HEADERS }, big);
  assert.deepEqual([mcp.status, (mcp.json as { error: { code: number } }).error.code], [413, -32000]);
  const rest = await httpRequest(server.port, 'POST', '/api/exec', { Host: `127.0.0.1:${server.port}`, 'Content-Type': 'text/plain' }, 'x'.repeat(70_000));
  assert.deepEqual([rest.status, rest.json], [413, { error: 'Request body is larger than the limit of 65536 bytes (server option --max-request-body)' }]);
});

test('a Host-less HTTP/1.0 request is refused', async () => {
  const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    import('node:net').then(({ connect }) => {
      const socket = connect(server.port, '127.0.0.1', () => socket.end('GET /api/version HTTP/1.0\r\n\r\n'));
      let data = '';
      socket.setEncoding('utf8').on('data', (c: string) => { data += c; }).on('end', () => {
        resolve({ status: Number(/^HTTP\/1\.\d (\d+)/.exec(data)?.[1]), body: data.slice(data.indexOf('\r\n\r\n') + 4) });
      }).on('error', reject);
    }, reject);
  });
  assert.deepEqual([res.status, JSON.parse(res.body)], [403, { error: 'Missing Host header' }]);
});

test('Streamable HTTP event streams carry a keep-alive comment every 15 s', async () => {
  const { status, text } = await keepAlive;
  assert.equal(status, 200);
  assert.ok(text.includes(': keepalive\n\n'), `a keep-alive comment: ${JSON.stringify(text)}`);
});
