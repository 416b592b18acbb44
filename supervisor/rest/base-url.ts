// Absolute URLs to this server. `--public-url` wins (behind a proxy the request's own Host and
// scheme are not what clients can reach); otherwise the request's scheme and Host header, and
// when Host is missing or not a plain host[:port], the address the request arrived on.
import type { Request } from 'express';

const HOST = /^(?:[A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

export function baseUrl(req: Request, publicBaseUrl: string | undefined): string {
  if (publicBaseUrl !== undefined && publicBaseUrl !== '') return publicBaseUrl.replace(/\/+$/, '');
  const host = req.headers.host;
  if (host !== undefined && HOST.test(host)) return `${req.protocol}://${host}`;
  const { localAddress = '127.0.0.1', localPort } = req.socket;
  const address = localAddress.includes(':') ? `[${localAddress}]` : localAddress;
  return `${req.protocol}://${address}:${String(localPort)}`;
}
