// Header injection (--fetch-header, --fetch-header-config) on both engines, against real servers on
// 127.0.0.1: static rules (override, fill, methods, hosts, redirects to another host), OAuth client
// credentials against a token endpoint written here (caching, expiry, refresh_token first, one
// token request for concurrent fetches, the sanitised failure), and a script that tries every way
// it has to read an injected value. The upstream records what it received server-side; only
// /echo sends headers back, and that is the one way a script can see them (docs/network.md).
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { guestSuite } from '../helpers/both-engines.ts';
import { startHttpFixture, type HttpFixture } from '../helpers/http-fixture.ts';
import { parseHeaderConfig } from '../../supervisor/config/header-config.ts';

let http: HttpFixture;
let tokenBase = '';
let tokenServer: Server;
/** Every token request, in order: the path and the form it carried. */
const grants: { path: string; form: Record<string, string> }[] = [];
let issued = 0;

before(async () => {
  http = await startHttpFixture();
  tokenServer = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => {
      const path = req.url ?? '';
      const form = Object.fromEntries(new URLSearchParams(body));
      grants.push({ path, form });
      const n = ++issued;
      const json = (status: number, v: unknown): void => { res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(v)); };
      switch (path) {
        case '/token/ok': // a token for an hour
          return json(200, { access_token: `tok-ok-${n}`, token_type: 'Bearer', expires_in: 3600 });
        case '/token/short': // "expired" at issue (expires_in 1 < the 30 s buffer), with a refresh token
          return json(200, { access_token: `tok-${form['grant_type'] === 'refresh_token' ? 'rt' : 'cc'}-${n}`, expires_in: 1, refresh_token: `refresh-${n}` });
        case '/token/bad-refresh': // refresh_token is refused; client_credentials works
          if (form['grant_type'] === 'refresh_token') return json(400, { error: 'invalid_grant' });
          return json(200, { access_token: `tok-br-${n}`, expires_in: 1, refresh_token: `refresh-${n}` });
        case '/token/slow':
          setTimeout(() => json(200, { access_token: `tok-slow-${n}`, token_type: 'MAC', expires_in: 3600 }), 300);
          return;
        case '/token/jwt': { // no expires_in: the JWT's exp says when
          const payload = Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 3600 })).toString('base64url');
          return json(200, { access_token: `eyJhbGciOiJub25lIn0.${payload}.sig${n}` });
        }
        case '/token/opaque': // no expires_in and not a JWT: rejected
          return json(200, { access_token: `opaque-${n}` });
        default: // the endpoint refuses, with a body that must never reach the script
          return json(401, { error: 'invalid_client', detail: `client ${form['client_id']} with secret ${form['client_secret']} is not known` });
      }
    });
  });
  await new Promise<void>((r) => tokenServer.listen(0, '127.0.0.1', r));
  tokenBase = `http://127.0.0.1:${(tokenServer.address() as AddressInfo).port}`;
});
after(async () => {
  await http.close();
  tokenServer.closeAllConnections();
  tokenServer.close();
});

/** What the upstream received for requests after `from` (index into http.received). */
const receivedSince = (from: number): typeof http.received => http.received.slice(from);

guestSuite('header injection: static rules', (g) => {
  g.test('override replaces the script\'s header, a fill rule only fills, names are lowercased, methods and hosts match', async (ctx) => {
    const from = http.received.length;
    const out = await ctx.output(`
      await fetch('${http.base}/hello', { headers: { Authorization: 'placeholder', 'X-Fill': 'mine' } });
      await fetch('${http.base}/hello');
      await fetch('http://localhost:${http.port}/hello', { method: 'PUT', body: 'x' });
      await fetch('http://localhost:${http.port}/hello');
      console.log('done');
    `);
    assert.equal(out, 'done\n');
    const [a, b, c, d] = receivedSince(from);
    assert.deepEqual([a!.headers['authorization'], a!.headers['x-fill']], ['Bearer static-secret-1', 'mine']);
    assert.deepEqual([b!.headers['authorization'], b!.headers['x-fill']], ['Bearer static-secret-1', 'fill-secret-2']);
    assert.deepEqual([c!.headers['x-put-key'], c!.headers['authorization']], ['put-secret-3', undefined], 'localhost: only its own PUT rule');
    assert.equal(d!.headers['x-put-key'], undefined, 'the rule is for PUT only');
  });

  g.test('a redirect to another host does not carry the previous host\'s injected headers; one back to it gets them again', async (ctx) => {
    const from = http.received.length;
    const to = encodeURIComponent(`http://localhost:${http.port}/redirect?to=${encodeURIComponent(`${http.base}/hello`)}`);
    const out = await ctx.output(`const r = await fetch('${http.base}/redirect?to=${to}', { headers: { 'X-Fill': 'mine' } }); console.log(r.status, r.redirected);`);
    assert.equal(out, '200 true\n');
    const hops = receivedSince(from);
    assert.deepEqual(hops.map((h) => [h.host.split(':')[0], h.headers['authorization'], h.headers['x-fill']]), [
      ['127.0.0.1', 'Bearer static-secret-1', 'mine'],
      ['localhost', undefined, 'mine'],
      ['127.0.0.1', 'Bearer static-secret-1', 'mine'],
    ]);
  });

  g.test('the script cannot read an injected value: not from its Request, not from errors, not from the decision log', async (ctx) => {
    const res = await ctx.run(`
      const req = new Request('${http.base}/hello', { headers: { 'X-Mine': 'visible' } });
      const r = await fetch(req);
      const seen = [JSON.stringify([...req.headers]), JSON.stringify([...r.headers]), await r.text(), r.url];
      try { await fetch('${http.base}/hello', { signal: AbortSignal.abort() }); } catch (e) { seen.push(String(e), String(e.cause), e.stack); }
      try { await fetch('http://127.0.0.1:1/closed'); } catch (e) { seen.push(String(e), String(e.cause), JSON.stringify(e.cause), e.stack); }
      console.log(seen.join('\\n'));
    `);
    assert.equal(res.outcome.status, 'completed');
    assert.doesNotMatch(res.output, /static-secret-1|fill-secret-2/);
    assert.match(res.output, /\[\["x-mine","visible"\]\]/);
    const log = JSON.stringify(res.decisions);
    assert.doesNotMatch(log, /static-secret-1|fill-secret-2/);
    const first = res.decisions!.entries[0]!.input as { headers: Record<string, string> };
    assert.deepEqual(first.headers, { 'x-mine': 'visible', authorization: '[redacted]', 'x-fill': '[redacted]' }, 'the policy input shows the headers after injection, redacted');
  });

  g.test('an endpoint that echoes request headers is the one way a script sees them (the operator decides which hosts get credentials)', async (ctx) => {
    const out = await ctx.output(`const e = await (await fetch('${http.base}/echo')).json(); console.log(e.headers.authorization);`);
    assert.equal(out, 'Bearer static-secret-1\n');
  });
}, {
  pool: {
    network: { fetchDefault: 'allow' as const },
    headerRules: parseHeaderConfig([
      { host: '127.0.0.1', headers: { Authorization: 'Bearer static-secret-1' } },
      { host: '127.0.0.1', headers: { 'X-Fill': 'fill-secret-2' }, override: false },
      { host: '*calhost', methods: ['put'], headers: { 'X-Put-Key': 'put-secret-3' } },
    ]),
  },
});

/** One OAuth rule per method (the cache is per rule per worker, and one worker serves a suite). */
const oauth = (method: string, header: string, path: string, extra: Record<string, unknown> = {}): unknown => ({
  host: '*.0.0.1', methods: [method],
  auth: { type: 'oauth_client_credentials', header, token_url: `${tokenBase}${path}`, client_id: 'runjs-client', client_secret: 'oauth-client-secret', ...extra },
});
const grantsSince = (from: number): string[] => grants.slice(from).map((g) => `${g.path} ${g.form['grant_type']}${g.form['refresh_token'] ? ` ${g.form['refresh_token']}` : ''}`);

guestSuite('header injection: OAuth client credentials', (g) => {
  g.test('a token is requested once (form POST with client id, secret and scope), cached for later requests and runs, and a script-set header wins', async (ctx) => {
    const [from, gFrom] = [http.received.length, grants.length];
    const out = await ctx.output(`
      for (let i = 0; i < 2; i++) await (await fetch('${http.base}/hello')).text();
      await (await fetch('${http.base}/hello', { headers: { 'X-Ok-Auth': 'the script\\'s own' } })).text();
      console.log('ok');
    `);
    assert.equal(out, 'ok\n');
    await ctx.output(`await (await fetch('${http.base}/hello')).text()`);
    const sent = receivedSince(from).map((r) => r.headers['x-ok-auth']);
    assert.equal(sent.length, 4);
    assert.match(sent[0] as string, /^Bearer tok-ok-\d+$/);
    assert.deepEqual(sent, [sent[0], sent[0], "the script's own", sent[0]]);
    const mine = grants.slice(gFrom);
    assert.equal(mine.length, 1);
    assert.deepEqual(mine[0], { path: '/token/ok', form: { grant_type: 'client_credentials', scope: 'read write', client_id: 'runjs-client', client_secret: 'oauth-client-secret' } });
  });

  g.test('an expired token (expires_in within refresh_buffer_secs) is refreshed with the refresh_token grant first', async (ctx) => {
    const [from, gFrom] = [http.received.length, grants.length];
    await ctx.output(`for (let i = 0; i < 3; i++) await (await fetch('${http.base}/hello', { method: 'POST', body: 'x' })).text();`);
    const got = grantsSince(gFrom);
    assert.equal(got.length, 3);
    assert.equal(got[0], '/token/short client_credentials');
    assert.match(got[1]!, /^\/token\/short refresh_token refresh-\d+$/);
    assert.match(got[2]!, /^\/token\/short refresh_token refresh-\d+$/);
    const refreshForm = grants[gFrom + 1]!.form;
    assert.equal(refreshForm['scope'], undefined, 'scope goes with client_credentials only');
    assert.equal(refreshForm['client_secret'], 'oauth-client-secret');
    const sent = receivedSince(from).map((r) => String(r.headers['x-short-auth']));
    assert.match(sent[0]!, /^Bearer tok-cc-\d+$/);
    assert.match(sent[1]!, /^Bearer tok-rt-\d+$/);
    assert.notEqual(sent[1], sent[2]);
  });

  g.test('a refused refresh falls back to client_credentials', async (ctx) => {
    const gFrom = grants.length;
    await ctx.output(`for (let i = 0; i < 2; i++) await (await fetch('${http.base}/hello', { method: 'DELETE' })).text();`);
    const got = grantsSince(gFrom).map((s) => s.replace(/ refresh-\d+$/, ''));
    assert.deepEqual(got, ['/token/bad-refresh client_credentials', '/token/bad-refresh refresh_token', '/token/bad-refresh client_credentials']);
  });

  g.test('concurrent fetches share one token request; token_type is used', async (ctx) => {
    const [from, gFrom] = [http.received.length, grants.length];
    const out = await ctx.output(`
      const rs = await Promise.all(Array.from({ length: 6 }, () => fetch('${http.base}/hello', { method: 'PATCH' })));
      console.log(rs.map((r) => r.status).join(','));
      await Promise.all(rs.map((r) => r.text()));
    `);
    assert.equal(out, '200,200,200,200,200,200\n');
    assert.deepEqual(grantsSince(gFrom), ['/token/slow client_credentials']);
    const sent = new Set(receivedSince(from).map((r) => r.headers['x-slow-auth']));
    assert.equal(sent.size, 1);
    assert.match([...sent][0] as string, /^MAC tok-slow-\d+$/);
  });

  g.test('without expires_in the JWT exp decides; a token with neither is rejected', async (ctx) => {
    const gFrom = grants.length;
    const out = await ctx.output(`
      for (let i = 0; i < 2; i++) console.log((await fetch('${http.base}/hello', { method: 'OPTIONS' })).status);
      try { await fetch('${http.base}/hello', { method: 'PROPFIND' }); } catch (e) { console.log(e.name, e.code, e.message); }
    `);
    assert.equal(out, "200\n200\nTypeError ERR_RUNJS_CREDENTIAL_INJECTION dynamic credential injection failed for header 'X-Opaque-Auth' during token acquisition\n");
    assert.deepEqual(grantsSince(gFrom), ['/token/jwt client_credentials', '/token/opaque client_credentials']);
  });

  g.test('a failing token endpoint: the sanitised message, no request made, nothing of the endpoint\'s answer or the secret reaches the script', async (ctx) => {
    const from = http.received.length;
    const res = await ctx.run(`
      for (let i = 0; i < 2; i++) {
        try { await fetch('${http.base}/hello', { method: 'PUT', body: 'x' }); } catch (e) { console.log(e.name, e.message, String(e.cause), JSON.stringify(Object.entries(e)), e.stack); }
      }
    `);
    assert.equal(res.outcome.status, 'completed');
    const lines = res.output.trim().split('\n').filter((l) => l.startsWith('TypeError'));
    assert.equal(lines.length, 2);
    for (const l of lines) assert.ok(l.startsWith("TypeError dynamic credential injection failed for header 'X-Fail-Auth' during token acquisition"), l);
    assert.doesNotMatch(res.output + JSON.stringify(res.decisions), /oauth-client-secret|invalid_client|runjs-client/);
    assert.equal(receivedSince(from).length, 0, 'the request is not sent without its credential');
  });

  g.test('the script cannot read the token: not from its Request, not from the decision log', async (ctx) => {
    const from = http.received.length;
    const res = await ctx.run(`
      const req = new Request('${http.base}/hello');
      const r = await fetch(req);
      console.log(JSON.stringify([...req.headers]), await r.text());
    `);
    assert.equal(res.output, '[] hello\n');
    const token = String(receivedSince(from)[0]!.headers['x-ok-auth']).split(' ')[1]!;
    assert.match(token, /^tok-ok-/);
    const log = JSON.stringify(res.decisions);
    assert.ok(!log.includes(token), log);
    assert.match(log, /"x-ok-auth":"\[redacted\]"/);
  });
}, {
  // Each engine's suite counts token requests from a fresh token cache (one per worker).
  poolPerEngine: true,
  pool: {
    network: { fetchDefault: 'allow' as const },
    get headerRules() {
      return parseHeaderConfig([
        oauth('GET', 'X-Ok-Auth', '/token/ok', { scope: 'read write' }),
        oauth('POST', 'X-Short-Auth', '/token/short'),
        oauth('DELETE', 'X-Bad-Refresh-Auth', '/token/bad-refresh'),
        oauth('PATCH', 'X-Slow-Auth', '/token/slow'),
        oauth('OPTIONS', 'X-Jwt-Auth', '/token/jwt'),
        oauth('PROPFIND', 'X-Opaque-Auth', '/token/opaque'),
        oauth('PUT', 'X-Fail-Auth', '/token/fail'),
      ]);
    },
  },
});
