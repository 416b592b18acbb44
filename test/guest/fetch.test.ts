// fetch() on both engines against a real HTTP server on 127.0.0.1: bodies both ways (streamed
// too), redirects followed by the host (every hop decided), manual and error modes, aborts, Node's
// error shapes, the per-run limits, the default deny, and sockets that close when the run ends.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { guestSuite } from '../helpers/both-engines.ts';
import { startHttpFixture, type HttpFixture } from '../helpers/http-fixture.ts';
import { DEFAULT_HOST_OP_LIMITS } from '../../shared/worker-settings.ts';
import { createServer, type AddressInfo } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parsePolicyConfig } from '../../supervisor/config/policy-config.ts';

let http: HttpFixture;
/** A port nobody listens on (taken, then released). */
let closedPort: number;
before(async () => {
  http = await startHttpFixture();
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
});
after(() => http.close());

const allow = { pool: { network: { fetchDefault: 'allow' as const }, hostOpLimits: { ...DEFAULT_HOST_OP_LIMITS, fetch: { ...DEFAULT_HOST_OP_LIMITS.fetch, maxResponseBytesPerRun: 1024 * 1024, maxRedirects: 3 } } } };

guestSuite('fetch', (g) => {
  g.test('GET: status, statusText, headers, url, text; a body read in chunks as the server sent it', async (ctx) => {
    const out = await ctx.output(`
      const r = await fetch('${http.base}/hello');
      console.log(r.status, r.statusText, r.ok, r.headers.get('x-test'), r.headers.get('content-type'), r.url === '${http.base}/hello', r.redirected, r.type);
      console.log(await r.text(), r.bodyUsed);
      const c = await fetch('${http.base}/chunks');
      let s = '';
      for await (const part of c.body) s += new TextDecoder().decode(part);
      console.log(s);
    `);
    assert.equal(out, '200 Fine true yes text/plain true false basic\nhello true\none two three\n');
  });

  g.test('POST bodies: a string, JSON, bytes, and a ReadableStream streamed up; headers arrive as sent', async (ctx) => {
    const out = await ctx.output(`
      const echo = async (init) => (await (await fetch('${http.base}/echo', init)).json());
      let e = await echo({ method: 'POST', body: 'plain text', headers: { 'X-Custom': 'v1' } });
      console.log(e.method, e.body, e.headers['x-custom'], e.headers['content-type']);
      e = await echo({ method: 'PUT', body: new Uint8Array([104, 105]) });
      console.log(e.method, e.body);
      const stream = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode('streamed ')); c.enqueue(new TextEncoder().encode('up')); c.close(); } });
      e = await echo({ method: 'POST', body: stream, duplex: 'half' });
      console.log(e.body, e.headers['transfer-encoding']);
    `);
    assert.equal(out, 'POST plain text v1 text/plain;charset=UTF-8\nPUT hi\nstreamed up chunked\n');
  });

  g.test('redirects: followed hop by hop (303 after POST becomes GET), manual returns the 3xx, error rejects, too many rejects', async (ctx) => {
    const out = await ctx.output(`
      let r = await fetch('${http.base}/redirect?to=/hello');
      console.log(r.status, r.redirected, r.url === '${http.base}/hello', await r.text());
      r = await fetch('${http.base}/redirect?status=303&to=/echo', { method: 'POST', body: 'dropped' });
      const e = await r.json();
      console.log(e.method, JSON.stringify(e.body));
      r = await fetch('${http.base}/redirect?to=/hello', { redirect: 'manual' });
      console.log(r.status, r.headers.get('location'));
      for (const url of ['${http.base}/redirect?to=/hello', '/redirect?to=' + encodeURIComponent('/redirect?to=/redirect?to=/redirect?to=/hello')]) {
        try { await fetch(url.startsWith('/') ? '${http.base}' + url : url, { redirect: url.startsWith('/') ? 'follow' : 'error' }); console.log('no error'); }
        catch (err) { console.log(err.name, err.message, err.cause?.message); }
      }
    `, { timeoutMs: 20_000 });
    assert.equal(out, [
      '200 true true hello',
      'GET ""',
      '302 /hello',
      'TypeError fetch failed unexpected redirect',
      'TypeError fetch failed redirect count exceeded',
      '',
    ].join('\n'));
  });

  g.test("errors have Node's shape: refused connections, unsupported schemes, aborts", async (ctx) => {
    const out = await ctx.output(`
      try { await fetch('http://127.0.0.1:${closedPort}/'); } catch (e) { console.log(e.name, e.message, e.cause?.code); }
      try { await fetch('http://127.0.0.1:1/'); } catch (e) { console.log(e.name, e.message, e.cause?.message); }
      try { await fetch('file:///etc/passwd'); } catch (e) { console.log(e.name, e.message); }
      const ac = new AbortController();
      const p = fetch('${http.base}/never', { signal: ac.signal });
      setTimeout(() => ac.abort(), 50);
      try { await p; } catch (e) { console.log(e.name, e.message); }
      try { await fetch('${http.base}/hello', { signal: AbortSignal.abort(new Error('mine')) }); } catch (e) { console.log(e.message); }
    `);
    assert.equal(out, [
      'TypeError fetch failed ECONNREFUSED',
      'TypeError fetch failed bad port',
      "TypeError fetch failed: the URL scheme 'file' is not supported (only http and https)",
      'AbortError This operation was aborted',
      'mine',
      '',
    ].join('\n'));
  });

  g.test('a body that came whole with the head: text() and clone() read it; body is a byte stream made on first access, read once', async (ctx) => {
    const out = await ctx.output(`
      const a = await fetch('${http.base}/hello');
      const { value } = await a.body.getReader({ mode: 'byob' }).read(new Uint8Array(16));
      console.log(new TextDecoder().decode(value), a.bodyUsed);
      try { await a.text(); } catch (e) { console.log(e.name, e.message); }
      const b = await fetch('${http.base}/hello');
      const c = b.clone();
      console.log(await b.text(), await c.text(), b.bodyUsed, c.bodyUsed);
    `);
    assert.equal(out, 'hello true\nTypeError Body is unusable: Body has already been read\nhello hello true true\n');
  });

  g.test('a 204 has no body; HEAD has no body', async (ctx) => {
    const out = await ctx.output(`
      const r = await fetch('${http.base}/no-content');
      console.log(r.status, r.body, await r.text() === '');
      const h = await fetch('${http.base}/hello', { method: 'HEAD' });
      console.log(h.status, h.body, h.headers.get('x-test'));
    `);
    assert.equal(out, '204 null true\n200 null yes\n');
  });

  g.test('response bytes per run are capped', async (ctx) => {
    const out = await ctx.output(`
      const ok = await (await fetch('${http.base}/big?bytes=700000')).arrayBuffer();
      console.log(ok.byteLength);
      try { await (await fetch('${http.base}/big?bytes=700000')).arrayBuffer(); } catch (e) { console.log(e.name, e.message); }
    `);
    assert.equal(out, '700000\nTypeError fetch failed: the execution read more than 1048576 bytes of response bodies (the per-execution limit)\n');
  });

  g.test('a pending fetch keeps the run alive (as in Node); when the run ends, its connections are closed', async (ctx) => {
    const { outcome } = await ctx.run(`await fetch('${http.base}/never')`, { timeoutMs: 1500 });
    assert.equal(outcome.status, 'timed_out');
    await http.allClosed(); // never resolves (the test times out) if the worker kept the socket
    const out = await ctx.output(`(await fetch('${http.base}/hello')).status`);
    assert.equal(out, '');
  });
}, allow);

guestSuite('fetch without a policy', (g) => {
  g.test('is denied by default, before any connection is made, and the decision is logged', async (ctx) => {
    const before = http.seen.length;
    const res = await ctx.run(`try { await fetch('${http.base}/hello?token=s3cret', { headers: { authorization: 'Bearer abc' } }); } catch (e) { console.log(e.name, e.code, e.message); }`);
    assert.equal(res.output, 'Error ERR_POLICY_DENIED fetch denied by policy: no fetch policy is configured\n');
    assert.equal(http.seen.length, before);
    const entries = res.decisions?.entries ?? [];
    assert.equal(entries.length, 1);
    const e = entries[0]!;
    assert.deepEqual([e.category, e.phase, e.configured, e.verdict, e.reason], ['fetch', 'decide', false, 'deny', 'no fetch policy is configured']);
    const input = e.input as { operation: string; method: string; headers: Record<string, string>; url_parsed: Record<string, unknown> };
    assert.equal(input.operation, 'fetch');
    assert.equal(input.method, 'GET');
    assert.deepEqual(input.url_parsed, { scheme: 'http', host: '127.0.0.1', port: http.port, path: '/hello', query: input.url_parsed['query'] });
    assert.doesNotMatch(JSON.stringify(e), /s3cret|Bearer abc/, 'secrets are redacted from the log');
  });
});

const hookDir = mkdtempSync(join(tmpdir(), 'runjs-fetch-hooks-'));
function hook(name: string, code: string): string {
  writeFileSync(join(hookDir, name), code);
  return pathToFileURL(join(hookDir, name)).href;
}
let opaBase = '';
const opaAsked: string[] = [];
let stopOpa = (): void => {};
after(() => stopOpa());
before(async () => {
  // An OPA-compatible policy server: 127.0.0.1 may be fetched, nothing else (every hop asks).
  const opa = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString(); });
    req.on('end', () => {
      const input = (JSON.parse(body) as { input: { url: string; url_parsed: { host: string } } }).input;
      opaAsked.push(input.url);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result: { allow: input.url_parsed.host === '127.0.0.1', reason: `${input.url_parsed.host} is not on the allow-list` } }));
    });
  });
  await new Promise<void>((r) => opa.listen(0, '127.0.0.1', r));
  opaBase = `http://127.0.0.1:${(opa.address() as AddressInfo).port}`;
  stopOpa = () => { opa.closeAllConnections(); opa.close(); };
});

guestSuite('fetch under a policy', (g) => {
  g.test('an OPA allow-list decides every hop: a redirect to another host is refused at that hop', async (ctx) => {
    const res = await ctx.run(`
      console.log((await fetch('${http.base}/hello')).status);
      try { await fetch('${http.base}/redirect?to=' + encodeURIComponent('http://localhost:${http.port}/hello')); } catch (e) { console.log(e.code, e.message); }
    `);
    assert.equal(res.output, '200\nERR_POLICY_DENIED fetch denied by policy: localhost is not on the allow-list\n');
    assert.deepEqual(res.decisions?.entries.map((e) => [e.verdict, (e.input as { url: string }).url]), [
      ['allow', `${http.base}/hello`],
      ['allow', `${http.base}/redirect?to=${encodeURIComponent(`http://localhost:${http.port}/hello`)}`],
      ['deny', `http://localhost:${http.port}/hello`],
    ]);
  });

  g.test('a JavaScript pre hook rewrites the URL the request goes to', async (ctx) => {
    const out = await ctx.output(`const r = await fetch('${http.base}/secret-path'); console.log(r.status, await r.text())`);
    assert.equal(out, '200 hello\n');
  });
}, {
  pool: {
    network: { fetchDefault: 'deny' as const },
    get policies() {
      return parsePolicyConfig({
        fetch: {
          pre: [{ url: hook('rewrite.js', "export default (input) => input.url.includes('/secret-path') ? { input: { ...input, url: input.url.replace('/secret-path', '/hello') } } : undefined;") }],
          policies: [{ url: opaBase }],
        },
      });
    },
  },
});
