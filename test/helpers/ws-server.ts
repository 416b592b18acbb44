// A WebSocket server on 127.0.0.1 for tests, written on Node's http 'upgrade' with a minimal RFC
// 6455 frame codec (no extensions): every connection is recorded (its handshake headers, the
// subprotocol chosen, the close code the client sent, when its TCP socket closed). What a
// connection does depends on its path:
//   /echo            sends every text and binary message back as it came
//   /close?code=&reason=   closes from the server side at once with that code and reason
//   /big?bytes=N     sends one binary message of N bytes, then echoes
//   /flood?count=N&bytes=B   sends N binary messages of B bytes at once, then echoes
//   /hang            never answers the handshake
// A client's subprotocols: the server picks `?pick=` when given, else the first one offered.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { createHash } from 'node:crypto';

export interface WsConnection {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly protocol: string | undefined;
  /** The close code in the client's close frame (1005 for a close frame without one); undefined if it sent none. */
  closeCode: number | undefined;
  closeReason: string;
  /** Resolves when the TCP connection has closed. */
  readonly closed: Promise<void>;
}

export interface WsFixture {
  readonly port: number;
  /** `ws://127.0.0.1:<port>` (`wss://` with TLS) */
  readonly base: string;
  readonly connections: WsConnection[];
  /** Connections whose TCP socket is still open. */
  openCount(): number;
  close(): Promise<void>;
}

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

function frame(opcode: number, payload: Buffer): Buffer {
  const n = payload.length;
  const head = n < 126 ? Buffer.from([0x80 | opcode, n]) : n < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  if (n >= 126 && n < 65536) {
    head[0] = 0x80 | opcode;
    head[1] = 126;
    head.writeUInt16BE(n, 2);
  } else if (n >= 65536) {
    head[0] = 0x80 | opcode;
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(n), 2);
  }
  return Buffer.concat([head, payload]);
}

function closeFrame(code: number, reason: string): Buffer {
  const body = Buffer.alloc(2 + Buffer.byteLength(reason));
  body.writeUInt16BE(code, 0);
  body.write(reason, 2);
  return frame(0x8, body);
}

/** Decodes the client's (masked) frames as they arrive; calls `onFrame` per complete message or control frame. */
function decoder(onFrame: (opcode: number, payload: Buffer) => void): (chunk: Buffer) => void {
  let buf = Buffer.alloc(0);
  let fragments: Buffer[] = [];
  let fragmentOpcode = 0;
  return (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    for (;;) {
      if (buf.length < 2) return;
      const fin = (buf[0]! & 0x80) !== 0;
      const opcode = buf[0]! & 0x0f;
      const masked = (buf[1]! & 0x80) !== 0;
      let len = buf[1]! & 0x7f;
      let off = 2;
      if (len === 126) {
        if (buf.length < 4) return;
        len = buf.readUInt16BE(2);
        off = 4;
      } else if (len === 127) {
        if (buf.length < 10) return;
        len = Number(buf.readBigUInt64BE(2));
        off = 10;
      }
      const maskAt = off;
      if (masked) off += 4;
      if (buf.length < off + len) return;
      const payload = Buffer.from(buf.subarray(off, off + len));
      if (masked) for (let i = 0; i < len; i++) payload[i]! ^= buf[maskAt + (i % 4)]!;
      buf = buf.subarray(off + len);
      if (opcode >= 0x8) { onFrame(opcode, payload); continue; }
      if (opcode !== 0) fragmentOpcode = opcode;
      fragments.push(payload);
      if (fin) {
        const whole = Buffer.concat(fragments);
        fragments = [];
        onFrame(fragmentOpcode, whole);
      }
    }
  };
}

/** With `tls` (a key and certificate chain, e.g. from test-ca.ts), the same server over wss. */
export async function startWsFixture(opts: { tls?: { key: string; cert: string } } = {}): Promise<WsFixture> {
  const connections: WsConnection[] = [];
  const sockets = new Set<Socket>();
  const refuse = (_req: IncomingMessage, res: import('node:http').ServerResponse): void => { res.writeHead(426).end('upgrade required'); };
  const server: Server = opts.tls ? createHttpsServer({ key: opts.tls.key, cert: opts.tls.cert }, refuse) : createServer(refuse);
  server.on(opts.tls ? 'secureConnection' : 'connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('upgrade', (req: IncomingMessage, socket: Socket) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/hang') return; // never answered: the client's handshake timeout ends it
    const offered = String(req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim()).filter((p) => p !== '');
    const pick = url.searchParams.get('pick');
    const protocol = offered.length === 0 ? undefined : pick ?? offered[0];
    let onClosed!: () => void;
    const conn: WsConnection = {
      path: url.pathname, headers: req.headers, protocol, closeCode: undefined, closeReason: '',
      closed: new Promise<void>((r) => { onClosed = r; }),
    };
    connections.push(conn);
    socket.on('close', () => onClosed());
    socket.on('error', () => {});
    const accept = createHash('sha1').update(`${String(req.headers['sec-websocket-key'])}${GUID}`).digest('base64');
    socket.write([
      'HTTP/1.1 101 Switching Protocols', 'Upgrade: websocket', 'Connection: Upgrade', `Sec-WebSocket-Accept: ${accept}`,
      ...(protocol !== undefined ? [`Sec-WebSocket-Protocol: ${protocol}`] : []), '', '',
    ].join('\r\n'));
    let sentClose = false;
    const send = (b: Buffer): void => { if (!socket.destroyed) socket.write(b); };
    socket.on('data', decoder((opcode, payload) => {
      switch (opcode) {
        case 0x1: case 0x2:
          if (!sentClose) send(frame(opcode, payload));
          return;
        case 0x8:
          conn.closeCode = payload.length >= 2 ? payload.readUInt16BE(0) : 1005;
          conn.closeReason = payload.subarray(2).toString();
          if (!sentClose) { sentClose = true; send(frame(0x8, payload)); } // echoes code and reason
          socket.end();
          return;
        case 0x9:
          send(frame(0xa, payload));
          return;
        default:
      }
    }));
    if (url.pathname === '/close') {
      sentClose = true;
      send(closeFrame(Number(url.searchParams.get('code') ?? 1000), url.searchParams.get('reason') ?? ''));
    } else if (url.pathname === '/flood') {
      for (let i = 0; i < Number(url.searchParams.get('count') ?? 0); i++) send(frame(0x2, Buffer.alloc(Number(url.searchParams.get('bytes') ?? 0), i & 0xff)));
    } else if (url.pathname === '/big') {
      send(frame(0x2, Buffer.alloc(Number(url.searchParams.get('bytes') ?? 0), 0x61)));
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    base: `${opts.tls ? "wss" : "ws"}://127.0.0.1:${port}`,
    connections,
    openCount: () => sockets.size,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
