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
