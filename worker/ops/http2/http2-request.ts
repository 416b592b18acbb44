// What the guest's node:http2 hands the host, checked again: a session's origin (an http: URL is
// h2c with prior knowledge, https: is TLS with ALPN h2), and a stream's headers as the guest's
// ClientHttp2Session.request() normalised them (lowercased names, string values; the pseudo-headers
// :method, :path, :scheme, :authority).
import { OpError } from '../op-types.ts';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9a-z]+$/;
const VALUE = /^[^\0\r\n]*$/;
const PSEUDO = new Set([':method', ':path', ':scheme', ':authority']);
const MAX_HEADERS = 256;
const MAX_HEADER_BYTES = 64 * 1024;
/** Connection-specific headers HTTP/2 forbids (RFC 9113 §8.2.2): Node refuses them too. */
const FORBIDDEN = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'host']);

export function checkOrigin(raw: unknown): URL {
  const url = typeof raw === 'string' ? URL.parse(raw) : null;
  if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
    throw new OpError(`http2.connect: ${JSON.stringify(String(raw))} is not an http(s) URL`, 'TypeError', 'ERR_INVALID_ARG_VALUE');
  }
  return new URL(url.origin);
}

export interface StreamHeaders {
  readonly method: string;
  readonly path: string;
  /** :authority as the script set it; absent: the session's. */
  readonly authority?: string;
  /** Regular headers, lowercased names. */
  readonly headers: Map<string, string>;
}

export function checkHeaders(raw: unknown): StreamHeaders {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new OpError('http2.request: malformed headers', 'TypeError');
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length > MAX_HEADERS) throw new OpError(`http2: at most ${MAX_HEADERS} request headers`, 'TypeError', 'ERR_HTTP2_HEADERS_TOO_LARGE');
  let size = 0;
  const headers = new Map<string, string>();
  const pseudo = new Map<string, string>();
  for (const [name, value] of entries) {
    if (typeof value !== 'string' || !VALUE.test(value)) throw new OpError(`Invalid value "${String(value)}" for header "${name}"`, 'TypeError', 'ERR_HTTP2_INVALID_HEADER_VALUE');
    size += name.length + value.length;
    if (name.startsWith(':')) {
      if (!PSEUDO.has(name)) throw new OpError(`"${name}" is an invalid pseudoheader or is used incorrectly`, 'TypeError', 'ERR_HTTP2_INVALID_PSEUDOHEADER');
      pseudo.set(name, value);
      continue;
    }
    if (!TOKEN.test(name)) throw new OpError(`Header name must be a valid HTTP token ["${name}"]`, 'TypeError', 'ERR_INVALID_HTTP_TOKEN');
    if (FORBIDDEN.has(name) || (name === 'te' && value !== 'trailers')) throw new OpError(`HTTP/1 Connection specific headers are forbidden: "${name}"`, 'TypeError', 'ERR_HTTP2_INVALID_CONNECTION_HEADERS');
    headers.set(name, value);
  }
  if (size > MAX_HEADER_BYTES) throw new OpError(`http2: request headers are larger than ${MAX_HEADER_BYTES} bytes`, 'TypeError', 'ERR_HTTP2_HEADERS_TOO_LARGE');
  const method = pseudo.get(':method') ?? 'GET';
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(method)) throw new OpError(`Invalid value "${method}" for header ":method"`, 'TypeError', 'ERR_HTTP2_INVALID_HEADER_VALUE');
  const authority = pseudo.get(':authority');
  return { method, path: pseudo.get(':path') ?? '/', ...(authority !== undefined ? { authority } : {}), headers };
}
