// One hop with undici's dispatcher.request (worker/ops/fetch/http-hop.ts) against a real server on
// 127.0.0.1: what undici's fetch did for the exchange and the hop must keep — the default request
// headers, content decoding, the reason phrase, null bodies (drained), the blocked
// ports, and failures whose cause keeps its code.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync, zstdCompressSync } from 'node:zlib';
import { undici } from '../../../../worker/network/undici.ts';
import { HopError, sendHop, withDefaultHeaders, type HopResponse } from '../../../../worker/ops/fetch/http-hop.ts';

const BIG = Buffer.from(randomBytes(3 << 19).toString('base64'));
const ENCODE: Record<string, (b: Buffer) => Buffer> = { gzip: gzipSync, 'x-gzip': gzipSync, deflate: deflateSync, br: brotliCompressSync, zstd: zstdCompressSync };

let server: Server;
let base = '';
const agent = new (undici().Agent)({ keepAliveTimeout: 4_000 });

before(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/headers') { res.end(JSON.stringify(req.rawHeaders.slice(2))); return; } // without host (its port varies)
    if (url.pathname === '/encoded') {
      // `c` lists the codings in the order they were applied, as Content-Encoding does.
      const codings = (url.searchParams.get('c') ?? '').split(',');
      let body: Buffer = Buffer.from('hello, decoded world');
      for (const c of codings) body = c === 'raw-deflate' ? deflateRawSync(body) : ENCODE[c]?.(body) ?? body;
      res.writeHead(200, { 'content-encoding': codings.map((c) => (c === 'raw-deflate' ? 'deflate' : c)).join(', ') }).end(body);
      return;
    }
    if (url.pathname === '/status') {
      res.writeHead(Number(url.searchParams.get('s')), url.searchParams.get('text') ?? undefined, { 'x-a': '1' }).end();
      return;
    }
    if (url.pathname === '/big-gzip') {
      // 2 MiB of base64 text (it compresses only to ≈ 1.5 MiB), sent in 64 KiB writes: many chunks, decoded as they come.
      const gz = gzipSync(BIG);
      res.writeHead(200, { 'content-encoding': 'gzip' });
      for (let i = 0; i < gz.length; i += 65536) res.write(gz.subarray(i, i + 65536));
      res.end();
      return;
    }
    if (url.pathname === '/cookies') {
      res.writeHead(200, [['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2'], ['X-Many', 'x'], ['X-Many', 'y'], ['B-First', 'z']]).end('ok');
      return;
    }
    res.end('hello');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  await agent.close();
  await new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); });
});

function hop(path: string, method = 'GET', headers: [string, string][] = [], body: Uint8Array | null = null): Promise<HopResponse> {
  return sendHop(agent, new URL(`${base}${path}`), method, new Map(headers), body, new AbortController().signal);
}

async function bytes(res: HopResponse): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for (let r = await res.body!.read(); !r.done; r = await res.body!.read()) chunks.push(r.value);
  return Buffer.concat(chunks);
}

async function text(res: HopResponse): Promise<string> {
  return (await bytes(res)).toString('utf8');
}

test("the request headers undici's fetch sends: its defaults fill what the script left out; sec-fetch-mode is always cors", async () => {
  assert.deepEqual(JSON.parse(await text(await hop('/headers'))), ['connection', 'keep-alive', 'accept', '*/*', 'accept-language', '*', 'sec-fetch-mode', 'cors', 'user-agent', 'undici', 'accept-encoding', 'gzip, deflate']);
  assert.deepEqual(JSON.parse(await text(await hop('/headers', 'POST'))).slice(-4), ['accept-encoding', 'gzip, deflate', 'content-length', '0']);
  assert.deepEqual(JSON.parse(await text(await hop('/headers', 'PUT', [], new Uint8Array(3)))).slice(-2), ['content-length', '3']);
  assert.deepEqual(JSON.parse(await text(await hop('/headers', 'DELETE'))).slice(-2), ['accept-encoding', 'gzip, deflate']);
  assert.deepEqual(JSON.parse(await text(await hop('/headers', 'GET', [['range', 'bytes=0-1'], ['sec-fetch-mode', 'navigate'], ['accept', 'x/y'], ['user-agent', 'me']]))), [
    'connection', 'keep-alive', 'range', 'bytes=0-1', 'sec-fetch-mode', 'cors', 'accept', 'x/y', 'user-agent', 'me', 'accept-language', '*', 'accept-encoding', 'identity',
  ]);
  // Over https, brotli is offered too; a streamed body has no length (it is sent chunked).
  assert.deepEqual(withDefaultHeaders(new URL('https://h/'), 'POST', new Map(), 'stream'), { accept: '*/*', 'accept-language': '*', 'sec-fetch-mode': 'cors', 'user-agent': 'undici', 'accept-encoding': 'br, gzip, deflate' });
});

test('content codings are decoded as by undici fetch (gzip, x-gzip, zlib and raw deflate, br, zstd, stacked); an unknown one leaves the body as sent; more than 5 fail', async () => {
  for (const c of ['gzip', 'x-gzip', 'deflate', 'raw-deflate', 'br', 'zstd', 'gzip,br', 'deflate,gzip,zstd']) {
    const res = await hop(`/encoded?c=${c}`);
    assert.equal(await text(res), 'hello, decoded world', c);
  }
  const unknown = await hop('/encoded?c=gzip,compress');
  assert.equal(unknown.headers.find(([k]) => k === 'content-encoding')?.[1], 'gzip, compress');
  assert.deepEqual((await bytes(unknown)).subarray(0, 2), Buffer.from([0x1f, 0x8b])); // gzip's magic bytes: not decoded
  await assert.rejects(hop('/encoded?c=gzip,gzip,gzip,gzip,gzip,gzip'), (e: unknown) => e instanceof HopError && e.message === 'too many content-encodings in response: 6, maximum allowed is 5');
});

test('status text, the final URL without its fragment, and headers as a fetch Headers lists them (sorted, joined, set-cookie apart)', async () => {
  const res = await hop('/status?s=418&text=I%20Am%20A%20Teapot#frag');
  assert.deepEqual([res.status, res.statusText, res.url], [418, 'I Am A Teapot', `${base}/status?s=418&text=I%20Am%20A%20Teapot`]);
  assert.equal(await text(res), '');
  const cookies = await hop('/cookies');
  assert.deepEqual(cookies.headers.filter(([k]) => k !== 'date' && k !== 'connection' && k !== 'keep-alive' && k !== 'transfer-encoding'), [['b-first', 'z'], ['set-cookie', 'a=1'], ['set-cookie', 'b=2'], ['x-many', 'x, y']]);
  assert.equal(await text(cookies), 'ok');
});

test('HEAD and null-body statuses (204, 304) have no body (drained: the exchange after them is answered)', async () => {
  for (const [path, method] of [['/', 'HEAD'], ['/status?s=204', 'GET'], ['/status?s=304', 'GET'], ['/', 'GET']] as const) {
    const res = await hop(path, method);
    if (method === 'HEAD' || path !== '/') assert.equal(res.body, null, `${method} ${path}`);
    else assert.equal(await text(res), 'hello');
  }
});

test('failures keep their cause: a refused connection its code, a blocked port is refused before connecting', async () => {
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((r) => closed.close(() => r()));
  await assert.rejects(sendHop(agent, new URL(`http://127.0.0.1:${port}/`), 'GET', new Map(), null, new AbortController().signal), (e: unknown) => {
    const err = e as { code?: unknown; message?: unknown };
    return err.code === 'ECONNREFUSED' && err.message === `connect ECONNREFUSED 127.0.0.1:${port}`;
  });
  await assert.rejects(sendHop(agent, new URL('http://127.0.0.1:6000/'), 'GET', new Map(), null, new AbortController().signal), (e: unknown) => e instanceof HopError && e.message === 'bad port');
});

test('a large gzip body is decoded whole, chunk by chunk; one cancelled or aborted mid-body stops without an uncaught error', async () => {
  const whole = await bytes(await hop('/big-gzip'));
  assert.equal(whole.length, 2 << 20);
  assert.ok(whole.equals(BIG));
  const cancelled = await hop('/big-gzip');
  const first = await cancelled.body!.read();
  assert.equal(first.done, false);
  cancelled.body!.cancel();
  const controller = new AbortController();
  const aborted = await sendHop(agent, new URL(`${base}/big-gzip`), 'GET', new Map(), null, controller.signal);
  assert.equal((await aborted.body!.read()).done, false);
  const reason = new Error('the run has ended');
  controller.abort(reason);
  await assert.rejects(async () => { for (;;) if ((await aborted.body!.read()).done) break; }, (e: unknown) => e === reason);
  // The agent still answers afterwards (nothing was left in a broken state).
  assert.equal(await text(await hop('/')), 'hello');
});
