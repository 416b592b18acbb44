// `auth: {type: "oauth_browser"}` end to end, through the real server process: an authorization
// server and a bearer-protected MCP server started by the test (fixtures/upstream-mcp/
// oauth-upstream.ts), the test playing the operator's browser (GET the logged authorization URL,
// follow the redirect to runjs's listener). Startup logs the URL; calls fail clearly until the
// flow completes, then work; the token cache is 0600 and no token reaches a script's output, the
// decision log or the server log; a restart reuses the cached token; an expired access token is
// refreshed. Also: `auth` on sse stops startup, on stdio it is ignored with a warning.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { runOnce, startServer, type ServerProcess } from '../server/server-process.ts';
import { httpClient, ok, settle } from '../mcp/mcp-clients.ts';
import { UPSTREAM_SCRIPT } from '../../fixtures/upstream-mcp/upstream-server.ts';
import { startOAuthUpstream, type OAuthUpstream } from '../../fixtures/upstream-mcp/oauth-upstream.ts';

let upstream: OAuthUpstream;
let tokenCache: string;
const everything: string[] = [];

before(async () => {
  upstream = await startOAuthUpstream();
  tokenCache = join(mkdtempSync(join(tmpdir(), 'runjs-oauth-')), 'cache', 'tokens.json');
});

after(async () => {
  await upstream?.close();
});

function configArgs(): string[] {
  return [`--mcp-config=${JSON.stringify([
    { name: 'secure', transport: 'http', url: upstream.url, auth: { type: 'oauth_browser', scope: 'mcp', token_cache: tokenCache } },
    { name: 'local', transport: 'stdio', command: process.execPath, args: [UPSTREAM_SCRIPT, 'local'], auth: { type: 'oauth_browser' } },
  ])}`];
}

/** Runs `code`; returns the execution info with its output and decisions, all kept for the leak check. */
async function run(client: Client, code: string): Promise<{ info: Record<string, unknown>; output: string }> {
  const { execution_id: id } = ok(await client.callTool({ name: 'run_js', arguments: { code } })) as { execution_id: string };
  const info = await settle(client, id);
  const output = JSON.stringify(ok(await client.callTool({ name: 'get_execution_output', arguments: { execution_id: id } })));
  const decisions = JSON.stringify(ok(await client.callTool({ name: 'get_execution_decisions', arguments: { execution_id: id } })));
  everything.push(JSON.stringify(info), output, decisions);
  return { info, output };
}

const CALL = `
  let out;
  try {
    const r = await mcp.callTool('secure', 'echo', { text: 'hello' });
    console.log('called');
    out = r.content[0].text;
  } catch (e) { out = 'error: ' + e.message; }
  out
`;

async function withServer(fn: (server: ServerProcess, client: Client) => Promise<void>): Promise<void> {
  const server = await startServer(configArgs());
  const client = await httpClient(server.base);
  try {
    await fn(server, client);
  } finally {
    await client.close();
    assert.equal(await server.stop(), 0);
    everything.push(server.stderr());
  }
}

test('the browser flow: the URL is logged, calls fail clearly until the operator authorizes, then work; the cache is 0600', async () => {
  await withServer(async (server, client) => {
    const logged = /upstream MCP server 'secure' needs authorization: open (\S+)/.exec(server.stderr());
    assert.ok(logged !== null, server.stderr());
    const url = new URL(logged[1]!);
    assert.equal(url.origin + url.pathname, `${upstream.issuer}/authorize`);
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    assert.match(url.searchParams.get('redirect_uri') ?? '', /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    assert.match(server.stderr(), /upstream MCP server 'local': 'auth' \(oauth_browser\) applies to the http transport only; ignored for stdio/);

    const before = await run(client, CALL);
    assert.equal(JSON.parse(String(before.info['result'])), `error: MCP server 'secure' needs authorization: open ${url.href}`);
    const local = await run(client, `(await mcp.callTool('local', 'echo', { text: 'x' })).content[0].text`);
    assert.equal(local.info['result'], '"local: x"', 'a stdio server with an ignored auth works');

    // The operator's browser: the authorization server redirects to runjs's listener.
    const authorize = await fetch(url, { redirect: 'manual' });
    assert.equal(authorize.status, 302);
    const callback = authorize.headers.get('location') ?? '';
    assert.ok(callback.startsWith(url.searchParams.get('redirect_uri')!), callback);
    const page = await fetch(callback);
    assert.equal(await page.text(), "runjs: MCP server 'secure' is authorized. You can close this window.\n");
    assert.equal(page.status, 200);
    const again = await fetch(callback);
    assert.equal(again.status, 400, 'the redirect is not taken twice');

    const afterAuth = await run(client, CALL);
    assert.equal(JSON.parse(String(afterAuth.info['result'])), 'secure: hello');
    assert.match(afterAuth.output, /called/);
    assert.deepEqual([upstream.counts.register, upstream.counts.authorize, upstream.counts.authorization_code], [1, 1, 1]);

    assert.equal(statSync(tokenCache).mode & 0o777, 0o600);
    const cached = JSON.parse(readFileSync(tokenCache, 'utf8')) as { version: number; servers: Record<string, { tokens: { access_token: string }; client: { client_id: string } }> };
    assert.equal(cached.version, 1);
    assert.ok(upstream.issued.includes(cached.servers[upstream.url]!.tokens.access_token));
    assert.match(cached.servers[upstream.url]!.client.client_id, /^client-/);
  });
});

test('a restart reuses the cached token (no new flow); an expired access token is refreshed with the refresh token', async () => {
  const counts = { ...upstream.counts };
  await withServer(async (server, client) => {
    assert.doesNotMatch(server.stderr(), /needs authorization/);
    assert.match(server.stderr(), /upstream MCP server 'secure' connected \(http, 7 tools\)/);
    const first = await run(client, CALL);
    assert.equal(JSON.parse(String(first.info['result'])), 'secure: hello');
    assert.deepEqual([upstream.counts.register, upstream.counts.authorize, upstream.counts.authorization_code, upstream.counts.refresh_token],
      [counts.register, counts.authorize, counts.authorization_code, counts.refresh_token]);

    upstream.expireAccessTokens();
    const unauthorizedBefore = upstream.counts.unauthorized;
    const refreshed = await run(client, CALL);
    assert.equal(JSON.parse(String(refreshed.info['result'])), 'secure: hello');
    assert.equal(upstream.counts.refresh_token, counts.refresh_token + 1);
    assert.ok(upstream.counts.unauthorized > unauthorizedBefore, 'the expired token was refused once');
    assert.equal(upstream.counts.authorize, counts.authorize, 'no new browser flow');
    const cached = JSON.parse(readFileSync(tokenCache, 'utf8')) as { servers: Record<string, { tokens: { access_token: string } }> };
    assert.equal(cached.servers[upstream.url]!.tokens.access_token, upstream.issued.at(-1), 'the refreshed token is cached');
    assert.equal(statSync(tokenCache).mode & 0o777, 0o600);
  });
});

test('no access or refresh token appears in any script result, output, decision log or server log', () => {
  assert.ok(upstream.issued.length >= 3);
  const all = everything.join('\n');
  for (const t of upstream.issued) assert.ok(!all.includes(t), `a token leaked: ${t.slice(0, 6)}…`);
});

test('auth on an sse entry stops startup, naming the key', async () => {
  const entry = { name: 'old', transport: 'sse', url: 'http://127.0.0.1:9/sse', auth: { type: 'oauth_browser' } };
  const res = await runOnce(['--mcp-config', JSON.stringify([entry])]);
  assert.equal(res.code, 2);
  assert.match(res.stderr, /invalid --mcp-config: \[0\]\.auth: oauth_browser applies to the http \(Streamable HTTP\) transport only, not sse/);
});
