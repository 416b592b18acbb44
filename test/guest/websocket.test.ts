// WebSocket on both engines against a real WebSocket server on 127.0.0.1 (test/helpers/ws-server.ts):
// text and binary echo (both binary types), subprotocols, closes from either side, the standard's
// exceptions, the policy (the default deny, a JavaScript pre hook, an allow-list) with its decision
// log, header injection on the handshake, the per-run limits, and sockets that close when the run
// ends.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { guestSuite } from '../helpers/both-engines.ts';
import { startWsFixture, type WsFixture } from '../helpers/ws-server.ts';
import { DEFAULT_HOST_OP_LIMITS } from '../../shared/worker-settings.ts';
import { parsePolicyConfig } from '../../supervisor/config/policy-config.ts';
import { parseHeaderConfig } from '../../supervisor/config/header-config.ts';

let ws: WsFixture;
before(async () => { ws = await startWsFixture(); });
after(() => ws.close());

const limits = {
  ...DEFAULT_HOST_OP_LIMITS,
  fetch: { ...DEFAULT_HOST_OP_LIMITS.fetch, maxResponseBytesPerRun: 4 * 1024 * 1024 },
  // A handshake a loaded machine cannot miss: only the suite that tests the timeout sets it short.
  websocket: { maxOpen: 3, maxMessageBytes: 1024 * 1024, handshakeTimeoutMs: 15_000 },
};
const allow = { pool: { network: { fetchDefault: 'allow' as const }, hostOpLimits: limits } };
const shortHandshake = { ...limits, websocket: { ...limits.websocket, handshakeTimeoutMs: 800 } };

/** Connections the server saw after `from` (index into ws.connections). */
const since = (from: number): WsFixture['connections'] => ws.connections.slice(from);

guestSuite('WebSocket', (g) => {
  g.test('echoes text and binary (arraybuffer and blob); readyState, url, protocol, extensions, bufferedAmount', async (ctx) => {
    const out = await ctx.output(`
      const s = new WebSocket('${ws.base}/echo');
      console.log(s.readyState, s.url, s.binaryType, s.bufferedAmount, WebSocket.OPEN, s.CLOSED, String(s));
      s.binaryType = 'nonsense';
      s.binaryType = 'arraybuffer';
      const got = [];
      await new Promise((resolve, reject) => {
        s.onerror = (e) => reject(new Error('error ' + e.message));
        s.onopen = () => {
          console.log('open', s.readyState, JSON.stringify(s.protocol), JSON.stringify(s.extensions));
          s.send('héllo');
          s.send(new Uint8Array([1, 2, 3]));
        };
        s.addEventListener('message', async (e) => {
          got.push(e);
          if (got.length === 2) {
            s.binaryType = 'blob';
            s.send(new Uint16Array([0x0201]).buffer);
            s.send(new Blob(['from a blob']));
            s.send('after the blob');
          }
          if (got.length === 5) resolve();
        });
      });
      console.log(got[0].data, got[0] instanceof MessageEvent, got[0].origin, got[0].isTrusted);
      console.log(got[1].data instanceof ArrayBuffer, [...new Uint8Array(got[1].data)].join(','));
      console.log(got[2].data instanceof Blob, [...new Uint8Array(await got[2].data.arrayBuffer())].join(','));
      console.log(await got[3].data.text(), got[4].data);
      s.close();
      const c = await new Promise((r) => { s.onclose = r; });
      console.log(s.readyState, c.code, c.wasClean, c instanceof CloseEvent, c.isTrusted);
    `);
    assert.equal(out, [
      `0 ${ws.base}/echo blob 0 1 3 [object WebSocket]`,
      'open 1 "" ""',
      `héllo true ${ws.base} true`,
      'true 1,2,3',
      'true 1,2',
      'from a blob after the blob',
      '3 1005 true true true',
      '',
    ].join('\n'));
  });

  g.test('subprotocols are offered and the chosen one is reported; an http: URL becomes ws:; Node\'s {protocols, headers} form', async (ctx) => {
    const from = ws.connections.length;
    const out = await ctx.output(`
      const s = new WebSocket('http://127.0.0.1:${ws.port}/echo?pick=chat.v2', ['chat.v1', 'chat.v2']);
      console.log(s.url, JSON.stringify(s.protocol));
      await new Promise((r) => { s.onopen = r; });
      console.log(s.protocol);
      s.close(1000);
      await new Promise((r) => { s.onclose = r; });
      const t = new WebSocket('${ws.base}/echo', 'only');
      await new Promise((r) => { t.onopen = r; });
      console.log(t.protocol);
      t.close();
      await new Promise((r) => { t.onclose = r; });
      // undici's (Node's) WebSocketInit form: subprotocols and handshake headers.
      const u = new WebSocket('${ws.base}/echo', { protocols: ['x.v1'], headers: { 'X-Mine': 'mine', 'X-Two': ['a', 'b'].join(', ') } });
      await new Promise((r) => { u.onopen = r; });
      console.log(u.protocol);
      u.close();
      await new Promise((r) => { u.onclose = r; });
    `);
    assert.equal(out, `ws://127.0.0.1:${ws.port}/echo?pick=chat.v2 ""\nchat.v2\nonly\nx.v1\n`);
    const [a, b, c] = since(from);
    assert.equal(a!.headers['sec-websocket-protocol'], 'chat.v1, chat.v2');
    assert.equal(b!.headers['sec-websocket-protocol'], 'only');
    assert.deepEqual([c!.headers['sec-websocket-protocol'], c!.headers['x-mine'], c!.headers['x-two']], ['x.v1', 'mine', 'a, b']);
  });

  g.test('the server closes with a code and reason; the script closes with its own', async (ctx) => {
    const from = ws.connections.length;
    const out = await ctx.output(`
      const closed = (s) => new Promise((r) => s.addEventListener('close', r));
      const s = new WebSocket('${ws.base}/close?code=4001&reason=' + encodeURIComponent('server says bye'));
      const e = await closed(s);
      console.log(e.code, e.reason, e.wasClean, s.readyState);
      const t = new WebSocket('${ws.base}/echo');
      await new Promise((r) => { t.onopen = r; });
      t.close(4002, 'client done');
      console.log(t.readyState);
      t.send('ignored once closing');
      console.log(t.bufferedAmount >= 20);
      t.close(1000);
      const f = await closed(t);
      console.log(f.code, f.reason, f.wasClean, t.readyState);
    `);
    assert.equal(out, '4001 server says bye true 3\n2\ntrue\n4002 client done true 3\n');
    const [a, b] = since(from);
    assert.equal(a!.closeCode, 4001, 'the client answers the server\'s close with its code');
    assert.deepEqual([b!.closeCode, b!.closeReason], [4002, 'client done']);
  });

  g.test("the standard's exceptions: SyntaxError, InvalidAccessError, InvalidStateError", async (ctx) => {
    const out = await ctx.output(`
      const t = (f) => { try { f(); console.log('no error'); } catch (e) { console.log(e.name, e instanceof DOMException, e.message); } };
      t(() => new WebSocket('not a url'));
      t(() => new WebSocket('ftp://127.0.0.1/'));
      t(() => new WebSocket('ws://127.0.0.1/#frag'));
      t(() => new WebSocket('${ws.base}/echo', ['a', 'A']));
      t(() => new WebSocket('${ws.base}/echo', 'bad protocol'));
      t(() => new WebSocket());
      const s = new WebSocket('${ws.base}/echo');
      t(() => s.send('too early'));
      t(() => s.close(1001));
      t(() => s.close(5000));
      t(() => s.close(1000, 'x'.repeat(124)));
      await new Promise((r) => { s.onopen = r; });
      s.close(3000, 'é'.repeat(61));
      await new Promise((r) => { s.onclose = r; });
    `);
    assert.equal(out, [
      "SyntaxError true Failed to construct 'WebSocket': The URL 'not a url' is invalid.",
      "SyntaxError true Failed to construct 'WebSocket': The URL's scheme must be either 'http', 'https', 'ws', or 'wss'. 'ftp:' is not allowed.",
      "SyntaxError true Failed to construct 'WebSocket': The URL contains a fragment identifier ('frag'). Fragment identifiers are not allowed in WebSocket URLs.",
      "SyntaxError true Failed to construct 'WebSocket': The subprotocol 'A' is duplicated.",
      "SyntaxError true Failed to construct 'WebSocket': The subprotocol 'bad protocol' is invalid.",
      "TypeError false Failed to construct 'WebSocket': 1 argument required, but only 0 present.",
      "InvalidStateError true Failed to execute 'send' on 'WebSocket': Still in CONNECTING state.",
      "InvalidAccessError true Failed to execute 'close' on 'WebSocket': The close code must be either 1000, or between 3000 and 4999. 1001 is neither.",
      "InvalidAccessError true Failed to execute 'close' on 'WebSocket': The close code must be either 1000, or between 3000 and 4999. 5000 is neither.",
      "SyntaxError true Failed to execute 'close' on 'WebSocket': The close reason must not be greater than 123 UTF-8 bytes.",
      '',
    ].join('\n'));
  });

  g.test('closing while connecting fails the connection: error, then close 1006', async (ctx) => {
    const out = await ctx.output(`
      const s = new WebSocket('${ws.base}/echo');
      const seen = [];
      s.onopen = () => seen.push('open');
      s.onerror = (e) => seen.push('error: ' + e.message);
      s.close();
      console.log(s.readyState);
      const c = await new Promise((r) => { s.onclose = r; });
      console.log(seen.join(' | '), c.code, c.wasClean, s.readyState);
    `);
    assert.equal(out, '2\nerror: WebSocket was closed before the connection was established 1006 false 3\n');
  });

  g.test('a message over the size cap fails the connection (the server gets 1009); smaller ones arrive', async (ctx) => {
    const from = ws.connections.length;
    const out = await ctx.output(`
      const run = (bytes) => new Promise((resolve) => {
        const s = new WebSocket('${ws.base}/big?bytes=' + bytes);
        s.binaryType = 'arraybuffer';
        const seen = [];
        s.onmessage = (e) => { seen.push(e.data.byteLength); s.close(); };
        s.onerror = () => seen.push('error');
        s.onclose = (e) => resolve(seen.join(' ') + ' ' + e.code);
      });
      console.log(await run(512 * 1024));
      console.log(await run(1024 * 1024 + 1));
    `);
    assert.equal(out, '524288 1005\nerror 1006\n');
    const [, big] = since(from);
    await big!.closed;
    assert.equal(big!.closeCode, 1009);
  });

  g.test('a flood of messages arrives whole and in order (the host stops reading while the script is behind)', async (ctx) => {
    const out = await ctx.output(`
      const s = new WebSocket('${ws.base}/flood?count=12&bytes=262144');
      s.binaryType = 'arraybuffer';
      const firsts = [];
      let total = 0;
      await new Promise((resolve) => {
        s.onmessage = (e) => {
          const b = new Uint8Array(e.data);
          firsts.push(b[0]);
          total += b.byteLength;
          if (firsts.length === 12) { s.close(); resolve(); }
        };
      });
      console.log(firsts.join(','), total);
    `, { heapMemoryMaxMb: 32 });
    assert.equal(out, '0,1,2,3,4,5,6,7,8,9,10,11 3145728\n');
  });

  g.test('at most maxOpen sockets at once: the next one fails with ERR_RUNJS_WEBSOCKET_LIMIT', async (ctx) => {
    const out = await ctx.output(`
      const open = [1, 2, 3].map(() => new WebSocket('${ws.base}/echo'));
      const extra = new WebSocket('${ws.base}/echo');
      const err = await new Promise((r) => { extra.onerror = r; });
      console.log(err.error.code, err.message);
      console.log((await new Promise((r) => { extra.onclose = r; })).code);
      for (const s of open) { if (s.readyState === 0) await new Promise((r) => { s.onopen = r; }); s.close(); }
      await Promise.all(open.map((s) => s.readyState === 3 || new Promise((r) => { s.onclose = r; })));
      const again = new WebSocket('${ws.base}/echo');
      await new Promise((r) => { again.onopen = r; });
      console.log('open again');
      again.close();
    `);
    assert.equal(out, 'ERR_RUNJS_WEBSOCKET_LIMIT WebSocket failed: more than 3 WebSockets of this execution are open at once; close earlier ones first\n1006\nopen again\n');
  });

  g.test('received messages count against the per-run receive budget shared with fetch', async (ctx) => {
    const out = await ctx.output(`
      const one = () => new Promise((resolve) => {
        const s = new WebSocket('${ws.base}/big?bytes=900000');
        let got = 'none';
        s.onmessage = () => { got = 'message'; s.close(); };
        s.onerror = (e) => { got = e.message; };
        s.onclose = () => resolve(got);
      });
      for (let i = 0; i < 5; i++) console.log(await one());
    `);
    assert.equal(out, 'message\nmessage\nmessage\nmessage\nWebSocket failed: the execution received more than 4194304 bytes from the network (the per-execution limit, shared with fetch response bodies)\n');
  });

  g.test('an open socket keeps the run alive; the run ends by its timeout and the server sees the socket close', async (ctx) => {
    const from = ws.connections.length;
    const res = await ctx.run(`const s = new WebSocket('${ws.base}/echo'); s.onopen = () => console.log('open');`, { timeoutMs: 1500 });
    assert.equal(res.outcome.status, 'timed_out');
    assert.equal(res.output, 'open\n');
    const [c] = since(from);
    await c!.closed; // never resolves (the test times out) if the worker kept the socket
    assert.equal(c!.closeCode, 1005, 'the closing handshake was started');
  });

  g.test('a run that fails with an open socket closes it', async (ctx) => {
    const from = ws.connections.length;
    const res = await ctx.run(`
      const s = new WebSocket('${ws.base}/echo');
      await new Promise((r) => { s.onopen = r; });
      throw new Error('boom');
    `);
    assert.equal(res.outcome.status, 'failed');
    const [c] = since(from);
    await c!.closed;
  });
}, allow);

guestSuite('WebSocket handshake timeout', (g) => {
  g.test('a handshake that never completes fails after the handshake timeout', async (ctx) => {
    const out = await ctx.output(`
      const s = new WebSocket('${ws.base}/hang');
      const e = await new Promise((r) => { s.onerror = r; });
      console.log(e.error.code, e.message);
      console.log((await new Promise((r) => { s.onclose = r; })).code);
    `);
    assert.equal(out, `ERR_RUNJS_WEBSOCKET_TIMEOUT WebSocket handshake with ${ws.base}/hang did not complete within 800 ms\n1006\n`);
  });

}, { pool: { network: { fetchDefault: 'allow' as const }, hostOpLimits: shortHandshake } });


guestSuite('WebSocket without a policy', (g) => {
  g.test('is denied by default (--fetch-default deny), before any connection: error with the reason, close 1006, and the decision is logged', async (ctx) => {
    const from = ws.connections.length;
    const res = await ctx.run(`
      const s = new WebSocket('${ws.base}/echo?token=s3cret', ['p1']);
      s.onopen = () => console.log('opened');
      s.onerror = (e) => console.log(e.constructor.name, e.message, e.error.code);
      const c = await new Promise((r) => { s.onclose = r; });
      console.log(c.code, c.wasClean, s.readyState);
    `);
    assert.equal(res.outcome.status, 'completed');
    assert.equal(res.output, 'ErrorEvent websocket denied by policy: no websocket policy is configured ERR_POLICY_DENIED\n1006 false 3\n');
    assert.equal(ws.connections.length, from, 'no connection was made');
    const entries = res.decisions?.entries ?? [];
    assert.equal(entries.length, 1);
    const e = entries[0]!;
    assert.deepEqual([e.category, e.phase, e.configured, e.verdict, e.reason], ['websocket', 'decide', false, 'deny', 'no websocket policy is configured']);
    const input = e.input as { operation: string; protocols: string[]; headers: Record<string, string>; url_parsed: Record<string, unknown> };
    assert.deepEqual([input.operation, input.protocols, input.headers], ['connect', ['p1'], {}]);
    assert.deepEqual(input.url_parsed, { scheme: 'ws', host: '127.0.0.1', port: ws.port, path: '/echo', query: input.url_parsed['query'] });
    assert.doesNotMatch(JSON.stringify(e), /s3cret/, 'secrets are redacted from the log');
  });
});

const hookDir = mkdtempSync(join(tmpdir(), 'runjs-ws-hooks-'));
function hook(name: string, code: string): string {
  writeFileSync(join(hookDir, name), code);
  return pathToFileURL(join(hookDir, name)).href;
}

guestSuite('WebSocket under a policy, with header injection', (g) => {
  g.test('a JavaScript policy allows /echo: the injected credential reaches the server and the policy, never the script or the log', async (ctx) => {
    const from = ws.connections.length;
    const res = await ctx.run(`
      const s = new WebSocket('${ws.base}/echo', 'p1');
      await new Promise((r, j) => { s.onopen = r; s.onerror = (e) => j(new Error(e.message)); });
      s.send('hi');
      console.log((await new Promise((r) => { s.onmessage = r; })).data);
      console.log(JSON.stringify(Object.keys(s)), JSON.stringify(s).includes('ws-secret'));
      s.close();
      await new Promise((r) => { s.onclose = r; });
    `);
    assert.equal(res.outcome.status, 'completed', JSON.stringify(res));
    assert.equal(res.output, 'hi\n[] false\n');
    const [c] = since(from);
    assert.equal(c!.headers['authorization'], 'Bearer ws-secret-1');
    const [e] = res.decisions?.entries ?? [];
    assert.deepEqual([e!.category, e!.configured, e!.verdict], ['websocket', true, 'allow']);
    const input = e!.input as { url: string; protocols: string[]; headers: Record<string, string> };
    assert.deepEqual([input.url, input.protocols, input.headers], [`${ws.base}/echo`, ['p1'], { authorization: '[redacted]' }]);
    assert.doesNotMatch(JSON.stringify(res.decisions), /ws-secret/);
  });

  g.test("the policy's denial reaches the script as the error event's message; nothing connects", async (ctx) => {
    const from = ws.connections.length;
    const out = await ctx.output(`
      const s = new WebSocket('${ws.base}/private');
      s.onerror = (e) => console.log(e.message, e.error.code);
      console.log((await new Promise((r) => { s.onclose = r; })).code);
    `);
    assert.equal(out, 'websocket denied by policy: /private is not allowed ERR_POLICY_DENIED\n1006\n');
    assert.equal(ws.connections.length, from);
  });

  g.test('a pre hook rewrites the URL the handshake goes to', async (ctx) => {
    const from = ws.connections.length;
    const out = await ctx.output(`
      const s = new WebSocket('${ws.base}/rewrite-me');
      await new Promise((r) => { s.onopen = r; });
      console.log(s.url);
      s.close();
      await new Promise((r) => { s.onclose = r; });
    `);
    assert.equal(out, `${ws.base}/rewrite-me\n`);
    assert.deepEqual(since(from).map((c) => c.path), ['/echo']);
  });

  g.test('an OAuth token that cannot be had fails the connection before the policy is asked', async (ctx) => {
    const from = ws.connections.length;
    const res = await ctx.run(`
      const s = new WebSocket('ws://localhost:${ws.port}/echo');
      s.onerror = (e) => console.log(e.message, e.error.code);
      console.log((await new Promise((r) => { s.onclose = r; })).code);
    `);
    assert.equal(res.output, "dynamic credential injection failed for header 'X-Token' during token acquisition ERR_RUNJS_CREDENTIAL_INJECTION\n1006\n");
    assert.equal(ws.connections.length, from);
    assert.equal(res.decisions?.entries.length ?? 0, 0);
  });
}, {
  pool: {
    network: { fetchDefault: 'deny' as const },
    headerRules: parseHeaderConfig([
      { host: '127.0.0.1', headers: { Authorization: 'Bearer ws-secret-1' } },
      { host: 'localhost', auth: { type: 'oauth_client_credentials', header: 'X-Token', token_url: 'http://127.0.0.1:1/token', client_id: 'runjs', client_secret: 'never-shown' } },
    ]),
    get policies() {
      return parsePolicyConfig({
        websocket: {
          pre: [{ url: hook('rewrite.js', "export default (input) => input.url.includes('/rewrite-me') ? { input: { ...input, url: input.url.replace('/rewrite-me', '/echo'), url_parsed: { ...input.url_parsed, path: '/echo' } } } : undefined;") }],
          policies: [{
            url: hook('allow-echo.js', `export default (input) => {
              if (input.operation !== 'connect' || input.headers.authorization !== 'Bearer ws-secret-1') return { allow: false, reason: 'no credential' };
              return input.url_parsed.path === '/echo' ? true : { allow: false, reason: input.url_parsed.path + ' is not allowed' };
            };`),
          }],
        },
      });
    },
  },
});
