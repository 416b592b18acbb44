// oauth_browser in process (UpstreamHub against fixtures/upstream-mcp/oauth-upstream.ts): a
// configured client (client_id + client_secret, no registration) with tokens in memory only; the
// redirect listener refuses a wrong state, an unknown path and an authorization-server error
// (the flow stays pending); a refresh token the server no longer accepts sends the server back to
// the browser flow with a new URL.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { UpstreamHub } from '../../../supervisor/upstream-mcp/index.ts';
import { RunjsError } from '../../../shared/errors.ts';
import { startOAuthUpstream } from '../../fixtures/upstream-mcp/oauth-upstream.ts';

const lines: string[] = [];
const log = { info: (l: string) => lines.push(l), warn: (l: string) => lines.push(l) };
const fast = { retryMinMs: 50, retryMaxMs: 200, connectTimeoutMs: 5000 };
const text = (r: { content: unknown }): string => (r.content as { text: string }[])[0]?.text ?? '';

function pendingUrl(): URL {
  const m = /needs authorization: open (\S+)$/.exec(lines.filter((l) => l.includes('needs authorization')).at(-1) ?? '');
  assert.ok(m !== null, lines.join('\n'));
  return new URL(m[1]!);
}

async function needsAuth(hub: UpstreamHub, url: URL): Promise<void> {
  await assert.rejects(hub.callTool('secure', 'echo', { text: 'x' }), (e: unknown) => {
    assert.ok(RunjsError.is(e, 'MCP_SERVER_NEEDS_AUTH'), String(e));
    assert.equal(e.message, `MCP server 'secure' needs authorization: open ${url.href}`);
    return true;
  });
}

test('a configured client: no registration, client_secret at the token endpoint, tokens in memory; the callback refuses what is not the flow in progress', async () => {
  const upstream = await startOAuthUpstream({ staticClient: { id: 'runjs-static', secret: 's3cret' } });
  const hub = new UpstreamHub([{ name: 'secure', transport: 'http', url: upstream.url, auth: { type: 'oauth_browser', clientId: 'runjs-static', clientSecret: 's3cret', redirectPort: 0 } }], { version: 't', log, timings: fast });
  after(async () => { await hub.close(); await upstream.close(); });
  await hub.start();
  const url = pendingUrl();
  assert.equal(url.searchParams.get('client_id'), 'runjs-static');
  assert.equal(upstream.counts.register, 0);
  await needsAuth(hub, url);
  assert.equal(hub.catalog().servers[0]?.connected, false);

  const redirect = new URL(url.searchParams.get('redirect_uri')!);
  const wrongState = await fetch(`${redirect.href}?code=x&state=forged`);
  assert.equal(wrongState.status, 400);
  assert.match(await wrongState.text(), /the state does not match/);
  assert.equal((await fetch(new URL('/other', redirect))).status, 404);
  const refused = await fetch(`${redirect.href}?error=access_denied&error_description=no&state=${url.searchParams.get('state')}`);
  assert.equal(refused.status, 400);
  assert.equal(await refused.text(), "runjs: the authorization of MCP server 'secure' failed: access_denied (no).\n");
  await needsAuth(hub, url);

  const authorize = await fetch(url, { redirect: 'manual' });
  const page = await fetch(authorize.headers.get('location')!);
  assert.equal(page.status, 200, await page.text());
  assert.equal(text(await hub.callTool('secure', 'echo', { text: 'in' })), 'secure: in');
  assert.equal(hub.catalog().servers[0]?.connected, true);
  assert.equal(upstream.counts.authorization_code, 1);
});

test('a refresh token the server refuses: back to the browser flow, a new URL logged and reported', async () => {
  const upstream = await startOAuthUpstream();
  const hub = new UpstreamHub([{ name: 'secure', transport: 'http', url: upstream.url, auth: { type: 'oauth_browser', redirectPort: 0 } }], { version: 't', log, timings: fast });
  after(async () => { await hub.close(); await upstream.close(); });
  await hub.start();
  const first = pendingUrl();
  await fetch((await fetch(first, { redirect: 'manual' })).headers.get('location')!);
  assert.equal(text(await hub.callTool('secure', 'echo', { text: 'a' })), 'secure: a');

  upstream.expireAccessTokens();
  upstream.revokeRefreshTokens();
  await assert.rejects(hub.callTool('secure', 'echo', { text: 'b' }), /^RunjsError: MCP server 'secure' needs authorization: open http:\/\/127\.0\.0\.1:\d+\/authorize\?/);
  const second = pendingUrl();
  assert.notEqual(second.searchParams.get('state'), first.searchParams.get('state'));
  await needsAuth(hub, second);
  await fetch((await fetch(second, { redirect: 'manual' })).headers.get('location')!);
  assert.equal(text(await hub.callTool('secure', 'echo', { text: 'c' })), 'secure: c');
  assert.equal(upstream.counts.authorization_code, 2);
});
