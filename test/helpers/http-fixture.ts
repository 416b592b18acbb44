// A real HTTP server on 127.0.0.1 for the network tests: a few routes that answer in every way a
// fetch has to handle (bodies, echo, redirects, streaming, a response that never comes), and a
// record of the sockets it saw close (so a test can wait for a run's connections to end).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

export interface HttpFixture {
  readonly base: string;
  readonly port: number;
  /** Requests seen, in order (method and path). */
  readonly seen: string[];
  /** The same requests with the headers they arrived with (recorded server-side: no route echoes them but /echo). */
  readonly received: { readonly method: string; readonly host: string; readonly path: string; readonly headers: Readonly<Record<string, string | string[] | undefined>> }[];
  /** Resolves when every socket opened so far has closed. */
  allClosed(): Promise<void>;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

async function route(req: IncomingMessage, res: ServerResponse, base: string): Promise<void> {
  const url = new URL(req.url ?? '/', base);
  switch (url.pathname) {
    case '/hello':
      res.writeHead(200, 'Fine', { 'content-type': 'text/plain', 'x-test': 'yes' }).end('hello');
      return;
    case '/echo': {
      const body = await readBody(req);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method, headers: req.headers, body: body.toString('utf8') }));
      return;
    }
    case '/redirect':
      res.writeHead(Number(url.searchParams.get('status') ?? 302), { location: url.searchParams.get('to') ?? '/hello' }).end();
      return;
    case '/chunks':
      res.writeHead(200, { 'content-type': 'text/plain' });
      for (const part of ['one ', 'two ', 'three']) res.write(part);
      res.end();
      return;
    case '/big':
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(Number(url.searchParams.get('bytes') ?? 2 * 1024 * 1024), 0x61));
      return;
    case '/binary': // not UTF-8
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0xff, 0x00, 0x80, 0xfe, 0x61]));
      return;
    case '/no-content':
      res.writeHead(204).end();
      return;
    case '/never':
      return; // no answer: the client gives up, or its run ends
    default:
      res.writeHead(404).end('not found');
  }
}

/** With `tls`, the same routes over https (a key and certificate chain, e.g. from test-ca.ts). */
export async function startHttpFixture(opts: { tls?: { key: string; cert: string } } = {}): Promise<HttpFixture> {
  const seen: string[] = [];
  const received: HttpFixture['received'] = [];
  const sockets = new Set<Socket>();
  let drained: (() => void)[] = [];
  let base = '';
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    seen.push(`${req.method} ${req.url}`);
    received.push({ method: req.method ?? '', host: req.headers.host ?? '', path: req.url ?? '', headers: { ...req.headers } });
    route(req, res, base).catch(() => res.destroy());
  };
  const server: Server = opts.tls ? createHttpsServer({ key: opts.tls.key, cert: opts.tls.cert }, handle) : createServer(handle);
  server.on(opts.tls ? 'secureConnection' : 'connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => {
      sockets.delete(s);
      if (sockets.size === 0) for (const d of drained.splice(0)) d();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  base = `${opts.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  return {
    base, port, seen, received,
    allClosed: () => (sockets.size === 0 ? Promise.resolve() : new Promise((r) => { drained.push(r); })),
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); drained = []; }),
  };
}
