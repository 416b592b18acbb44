// The worker's one connection pool (worker/ops/fetch/fetch-ops.ts): a keep-alive connection an
// earlier run left is reused by the next run on the same worker, and a run that ends with a
// response unread (completed, or cancelled mid-body) leaves no socket behind: the server sees it
// close, and the next run is answered on a new connection, cleanly. Which socket served a request
// is told by the server (each socket gets a number), never by timing.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { guestSuite } from '../helpers/both-engines.ts';

let server: Server;
let base = '';
const socketIds = new WeakMap<Socket, number>();
const closed = new Map<number, Promise<void>>();
let sockets = 0;
before(async () => {
  server = createServer((req, res) => {
    const id = socketIds.get(req.socket)!;
    if (req.url === '/endless') {
      // A head and a first chunk, then nothing: the body never ends on its own.
      res.writeHead(200, { 'content-type': 'text/plain', 'x-socket': String(id) });
      res.write('first chunk');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain', 'x-socket': String(id) }).end('hello');
  });
  server.on('connection', (s: Socket) => {
    const id = ++sockets;
    socketIds.set(s, id);
    closed.set(id, new Promise((r) => s.once('close', () => r())));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));

/** A script that fetches /hello and prints `<status> <body> <socket number>`. */
const hello = (): string => `const r = await fetch('${base}/hello'); console.log(r.status, await r.text(), r.headers.get('x-socket'));`;

/** Parses `200 hello <n>` into the socket number, asserting the rest. */
function socketOf(line: string): number {
  const m = /^200 hello (\d+)\n$/.exec(line);
  assert.ok(m, `unexpected output ${JSON.stringify(line)}`);
  return Number(m[1]);
}

guestSuite('fetch connections across runs', (g) => {
  g.test('a keep-alive connection opened by one run is reused by the next run on the same worker', async (ctx) => {
    const first = socketOf(await ctx.output(hello()));
    const second = socketOf(await ctx.output(hello()));
    assert.equal(second, first);
  });

  g.test('a run that completes with a response body unread: its socket is closed, the next run gets a clean answer on a new one', async (ctx) => {
    const out = await ctx.output(`
      const r = await fetch('${base}/endless');
      const { value } = await r.body.getReader().read();
      console.log(r.status, new TextDecoder().decode(value), r.headers.get('x-socket'));
    `);
    const m = /^200 first chunk (\d+)\n$/.exec(out);
    assert.ok(m, `unexpected output ${JSON.stringify(out)}`);
    const used = Number(m[1]);
    await closed.get(used); // never settles (the test times out) if the worker kept the half-read socket
    assert.notEqual(socketOf(await ctx.output(hello())), used);
  });

  g.test('a run cancelled mid-body (its timeout): its socket is closed, the next run gets a clean answer on a new one', async (ctx) => {
    const res = await ctx.run(`
      const r = await fetch('${base}/endless');
      await r.body.getReader().read();
      console.log('socket', r.headers.get('x-socket'));
      await new Promise((r) => setTimeout(r, 60_000)); // the run's timeout ends it first
    `, { timeoutMs: 1500 });
    assert.equal(res.outcome.status, 'timed_out');
    const m = /^socket (\d+)\n$/.exec(res.output);
    assert.ok(m, `unexpected output ${JSON.stringify(res.output)}`);
    const used = Number(m[1]);
    await closed.get(used);
    assert.notEqual(socketOf(await ctx.output(hello())), used);
  });
}, { pool: { network: { fetchDefault: 'allow' } } });
