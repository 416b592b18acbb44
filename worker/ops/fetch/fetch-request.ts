// What the guest's fetch() hands the host, checked: an absolute http(s) URL, a method token,
// header pairs of strings, the redirect mode, and how the body comes (none, the bytes with the
// call, or a stream of fetch.write calls).
import { OpError } from '../op-types.ts';

export type RedirectMode = 'follow' | 'error' | 'manual';

export interface FetchRequest {
  readonly url: URL;
  readonly method: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly redirect: RedirectMode;
  readonly body: { readonly kind: 'none' } | { readonly kind: 'bytes'; readonly bytes: Uint8Array } | { readonly kind: 'stream' };
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const MAX_HEADERS = 256;
const MAX_HEADER_BYTES = 64 * 1024;

export function checkRequest(a: Record<string, unknown>, bytes: Uint8Array | undefined): FetchRequest {
  const rawUrl = a['url'];
  const url = typeof rawUrl === 'string' ? URL.parse(rawUrl) : null;
  if (url === null) throw new OpError(`Failed to parse URL from ${String(rawUrl)}`, 'TypeError');
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OpError(`fetch failed: the URL scheme '${url.protocol.slice(0, -1)}' is not supported (only http and https)`, 'TypeError');
  }
  const method = a['method'];
  if (typeof method !== 'string' || !TOKEN.test(method)) throw new OpError(`'${String(method)}' is not a valid HTTP method.`, 'TypeError');
  const headers = a['headers'];
  if (!Array.isArray(headers) || headers.length > MAX_HEADERS) throw new OpError(`fetch failed: at most ${MAX_HEADERS} request headers`, 'TypeError');
  let size = 0;
  const pairs: [string, string][] = [];
  for (const h of headers) {
    if (!Array.isArray(h) || h.length !== 2 || typeof h[0] !== 'string' || typeof h[1] !== 'string') throw new OpError('fetch.open: malformed headers', 'TypeError');
    size += h[0].length + h[1].length;
    pairs.push([h[0], h[1]]);
  }
  if (size > MAX_HEADER_BYTES) throw new OpError(`fetch failed: request headers are larger than ${MAX_HEADER_BYTES} bytes`, 'TypeError');
  const redirect = a['redirect'];
  if (redirect !== 'follow' && redirect !== 'error' && redirect !== 'manual') throw new OpError('fetch.open: malformed redirect mode', 'TypeError');
  const kind = a['body'];
  const body = kind === 'bytes' ? { kind: 'bytes' as const, bytes: bytes ?? new Uint8Array(0) } : kind === 'stream' ? { kind: 'stream' as const } : { kind: 'none' as const };
  return { url, method, headers: pairs, redirect, body };
}
