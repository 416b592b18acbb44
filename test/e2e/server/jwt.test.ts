// JWT enforcement (--jwks-url) against a JWKS served by this test on 127.0.0.1, with keys made
// here and tokens signed with node:crypto: token forms, every rejection (401 + WWW-Authenticate),
// algorithm rules, key refresh on an unknown kid, exemptions, and the SSE endpoints.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { errorMessage } from '../../../shared/errors.ts';
import { httpClient, ok, sseClient } from '../mcp/mcp-clients.ts';
import { startServer, type ServerProcess } from './server-process.ts';
import { httpRequest, INITIALIZE_BODY, MCP_POST_HEADERS } from './http-request.ts';

interface Key { readonly kid: string; readonly alg: string; readonly privateKey: KeyObject; readonly publicKey: KeyObject }

function rsaKey(kid: string): Key {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { kid, alg: 'RS256', privateKey, publicKey };
}
function ecKey(kid: string): Key {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { kid, alg: 'ES256', privateKey, publicKey };
}
const jwk = (k: Key) => ({ ...k.publicKey.export({ format: 'jwk' }), kid: k.kid, alg: k.alg, use: 'sig' });
const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

/** A compact JWT; `alg` may differ from the key's to build forgeries. */
function token(key: Key, claims: Record<string, unknown> = { sub: 'agent', exp: now() + 600 }, header: Record<string, unknown> = {}): string {
  const h = { alg: key.alg, typ: 'JWT', kid: key.kid, ...header };
  const input = `${b64(h)}.${b64(claims)}`;
  const alg = String(h.alg);
  let sig: Buffer;
  if (alg === 'none') sig = Buffer.alloc(0);
  else if (alg.startsWith('HS')) sig = createHmac('sha256', key.publicKey.export({ format: 'pem', type: 'spki' })).update(input).digest();
  else if (alg.startsWith('ES')) sig = sign('sha256', Buffer.from(input), { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
  else sig = sign(alg === 'RS384' ? 'sha384' : 'sha256', Buffer.from(input), key.privateKey);
  return `${input}.${sig.toString('base64url')}`;
}

const k1 = rsaKey('k1');
const k2 = ecKey('k2');
const later = rsaKey('k3');
const stranger = rsaKey('k1'); // same kid as k1, different key
const published: Key[] = [k1, k2];
let jwksFetches = 0;
let jwks: Server;
let jwksUrl: string;
let server: ServerProcess;

before(async () => {
  jwks = createServer((req, res) => {
    jwksFetches++;
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ keys: published.map(jwk) }));
  });
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/.well-known/jwks.json`;
  server = await startServer(['--jwks-url', jwksUrl]);
});
after(async () => {
  await server?.stop();
  jwks?.closeAllConnections();
  await new Promise((r) => jwks?.close(r));
});

const host = () => ({ Host: `127.0.0.1:${server.port}` });
const version = (headers: Record<string, string>) => httpRequest(server.port, 'GET', '/api/version', { ...host(), ...headers });
const MISSING_CHALLENGE = 'Bearer realm="runjs"';
const INVALID_CHALLENGE = 'Bearer realm="runjs", error="invalid_token"';

async function rejected(headers: Record<string, string>, error: string, challenge = INVALID_CHALLENGE): Promise<void> {
  const res = await version(headers);
  assert.deepEqual([res.status, res.json, res.headers['www-authenticate']], [401, { error }, challenge], JSON.stringify(headers));
}

test('the key set was fetched at startup', () => {
  assert.ok(jwksFetches >= 1);
  assert.match(server.stderr(), /JWT required/);
});

test('no token: 401 with WWW-Authenticate on /api/*, /mcp', async () => {
  await rejected({}, errorMessage('TOKEN_MISSING'), MISSING_CHALLENGE);
  await rejected({ Authorization: 'Basic dXNlcjpwdw==' }, errorMessage('TOKEN_MISSING'), MISSING_CHALLENGE);
  await rejected({ Authorization: 'Bearer ' }, errorMessage('TOKEN_MISSING'), MISSING_CHALLENGE);
  const mcp = await httpRequest(server.port, 'POST', '/mcp', { ...host(), ...MCP_POST_HEADERS }, INITIALIZE_BODY);
  assert.deepEqual([mcp.status, mcp.json, mcp.headers['www-authenticate']], [401, { error: errorMessage('TOKEN_MISSING') }, MISSING_CHALLENGE]);
  for (const [method, path] of [['GET', '/api/nope'], ['POST', '/mcp/'], ['POST', '/MCP'], ['GET', '/API/version'], ['GET', '/']]) {
    const res = await httpRequest(server.port, method!, path!, { ...host(), ...MCP_POST_HEADERS }, method === 'POST' ? INITIALIZE_BODY : undefined);
    assert.equal(res.status, 401, `${method} ${path}: auth comes before routing, whatever the spelling`);
  }
});

test('valid tokens: Authorization: Bearer, or the raw agent-session header; Bearer wins', async () => {
  assert.equal((await version({ Authorization: `Bearer ${token(k1)}` })).status, 200);
  assert.equal((await version({ 'agent-session': token(k1) })).status, 200);
  assert.equal((await version({ Authorization: `Bearer ${token(k2)}` })).status, 200, 'ES256');
  // The scheme name is case-insensitive (RFC 9110).
  assert.equal((await version({ Authorization: `bearer ${token(k1)}` })).status, 200, 'lower-case scheme');
  assert.equal((await version({ Authorization: `BEARER  ${token(k1)}` })).status, 200, 'upper-case scheme, two spaces');
  assert.equal((await version({ Authorization: 'Basic dXNlcjpwdw==', 'agent-session': token(k1) })).status, 200, 'a non-Bearer Authorization is not a token');
  await rejected({ Authorization: `Bearer ${token(k1, { exp: now() - 3600 })}`, 'agent-session': token(k1) }, errorMessage('TOKEN_EXPIRED'));
});

test('expiry and validity window: exp required, 30 s leeway, nbf', async () => {
  await rejected({ Authorization: `Bearer ${token(k1, { exp: now() - 120 })}` }, errorMessage('TOKEN_EXPIRED'));
  assert.equal((await version({ Authorization: `Bearer ${token(k1, { exp: now() - 5 })}` })).status, 200, 'within the leeway');
  await rejected({ Authorization: `Bearer ${token(k1, { sub: 'forever' })}` }, errorMessage('TOKEN_NO_EXP'));
  await rejected({ Authorization: `Bearer ${token(k1, { exp: now() + 600, nbf: now() + 300 })}` }, errorMessage('TOKEN_NOT_YET_VALID'));
});

test('forgeries and algorithm rules', async () => {
  await rejected({ Authorization: `Bearer ${token(stranger)}` }, errorMessage('TOKEN_INVALID', 'invalid signature'));
  await rejected({ Authorization: `Bearer ${token(k1, undefined, { alg: 'none' })}` }, errorMessage('TOKEN_INVALID', 'algorithm none is not accepted'));
  await rejected({ Authorization: `Bearer ${token(k1, undefined, { alg: 'HS256' })}` }, errorMessage('TOKEN_INVALID', 'algorithm HS256 is not accepted'));
  await rejected({ Authorization: `Bearer ${token(k1, undefined, { alg: 'RS384' })}` }, errorMessage('TOKEN_INVALID', 'the key k1 is for RS256, not RS384'));
  await rejected({ Authorization: 'Bearer not.a.jwt' }, errorMessage('TOKEN_MALFORMED'));
  await rejected({ 'agent-session': 'garbage' }, errorMessage('TOKEN_MALFORMED'));
  const [h, p] = token(k1).split('.');
  await rejected({ Authorization: `Bearer ${h}.${p}.` }, errorMessage('TOKEN_INVALID', 'jwt signature is required'));
});

test('an unknown kid refetches the key set (new keys work), an absent one stays 401', async () => {
  published.push(later);
  const before = jwksFetches;
  assert.equal((await version({ Authorization: `Bearer ${token(later)}` })).status, 200);
  assert.ok(jwksFetches > before, 'the set was fetched again');
  await rejected({ Authorization: `Bearer ${token(rsaKey('k-unknown'))}` }, errorMessage('TOKEN_UNKNOWN_KEY'));
});

test('exempt: the OpenAPI document, CORS preflight, OPTIONS, the artifact upload route', async () => {
  assert.equal((await httpRequest(server.port, 'GET', '/api-doc/openapi.json', host())).status, 200);
  const preflight = await httpRequest(server.port, 'OPTIONS', '/mcp', { ...host(), Origin: 'https://x.example', 'Access-Control-Request-Method': 'POST' });
  assert.equal(preflight.status, 204);
  const options = await httpRequest(server.port, 'OPTIONS', '/api/version', host());
  assert.deepEqual([options.status, options.headers['allow']], [204, 'GET, HEAD, OPTIONS']);
  const upload = await httpRequest(server.port, 'PUT', '/api/artifact-uploads/some-token', { ...host(), 'Content-Type': 'text/plain' }, 'hello');
  assert.notEqual(upload.status, 401, 'the path token is the credential');
  assert.equal((await httpRequest(server.port, 'POST', '/api/artifact-uploads/some-token', host())).status, 401, 'only PUT is exempt');
});

test('the Host check comes before auth', async () => {
  const res = await version({ Host: 'evil.example' });
  assert.deepEqual([res.status, res.json], [403, { error: "Host 'evil.example' is not allowed (see --allowed-hosts)" }]);
});

test('an MCP client sending the token on every request works end to end', async () => {
  const client = await httpClient(server.base, { Authorization: `Bearer ${token(k1)}` });
  try {
    assert.ok(ok(await client.callTool({ name: 'run_js', arguments: { code: '1' } }))['execution_id']);
  } finally {
    await client.close();
  }
  await assert.rejects(httpClient(server.base), /Missing token/, 'without the token the client cannot even initialize');
});

test('the legacy SSE endpoints are protected too', async () => {
  const sse = await startServer(['--jwks-url', jwksUrl], { transport: 'sse' });
  try {
    const stream = await httpRequest(sse.port, 'GET', '/sse', { Host: `127.0.0.1:${sse.port}`, Accept: 'text/event-stream' });
    assert.deepEqual([stream.status, stream.json], [401, { error: errorMessage('TOKEN_MISSING') }]);
    const message = await httpRequest(sse.port, 'POST', '/message?sessionId=x', { Host: `127.0.0.1:${sse.port}`, 'Content-Type': 'application/json' }, '{}');
    assert.equal(message.status, 401);
    const client: Client = await sseClient(sse.base, { 'agent-session': token(k2) });
    try {
      assert.deepEqual((await client.listTools()).tools.length, 12); // the stateful set with the session and artifact tools
    } finally {
      await client.close();
    }
  } finally {
    await sse.stop();
  }
});
