// Binding an HTTP listener and closing it without waiting on open event streams.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  readonly server: Server;
  /** `http://host:port` as clients on this machine reach it (a wildcard bind shows as localhost). */
  readonly url: string;
  close(): Promise<void>;
}

function displayHost(address: string): string {
  if (address === '0.0.0.0' || address === '::') return 'localhost';
  return address.includes(':') ? `[${address}]` : address;
}

/** Listens on host:port; `::` is dual-stack (IPv4 too), Node's default for that address. */
export function listen(handler: RequestListener, port: number, host: string): Promise<Listening> {
  // Node's timeouts apply to receiving requests, not to long responses, so event streams and a
  // 300 s stateless run_js are unaffected by them.
  const server = createServer(handler);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      resolve({
        server,
        url: `http://${displayHost(address.address)}:${address.port}`,
        close: () => new Promise<void>((done) => {
          server.close(() => done());
          server.closeAllConnections();
        }),
      });
    });
  });
}
