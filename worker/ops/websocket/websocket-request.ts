// What the guest's `new WebSocket()` hands the host, checked again (the guest glue already threw
// the standard's SyntaxErrors): an absolute ws(s) URL without a fragment, distinct subprotocol
// tokens, and the handshake headers a script may add (undici's `{protocols, headers}` form, as in
// Node), as the guest's Headers class normalised them.
import { OpError } from '../op-types.ts';

export interface ConnectRequest {
  readonly url: URL;
  readonly protocols: readonly string[];
  /** The script's own handshake headers: lowercased names, combined values. */
  readonly headers: readonly (readonly [string, string])[];
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const MAX_PROTOCOLS = 64;
const MAX_HEADERS = 256;
const MAX_HEADER_BYTES = 64 * 1024;
/** A header value as the Fetch Standard allows it: no NUL, CR or LF. */
const VALUE = /^[^\0\r\n]*$/;

function checkHeaders(raw: unknown): [string, string][] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.length > MAX_HEADERS) throw new OpError(`WebSocket: at most ${MAX_HEADERS} handshake headers`, 'TypeError');
  let size = 0;
  const pairs: [string, string][] = [];
  for (const h of raw) {
    if (!Array.isArray(h) || h.length !== 2 || typeof h[0] !== 'string' || typeof h[1] !== 'string' || !TOKEN.test(h[0]) || !VALUE.test(h[1])) {
      throw new OpError('websocket.open: malformed headers', 'TypeError');
    }
    size += h[0].length + h[1].length;
    pairs.push([h[0].toLowerCase(), h[1]]);
  }
  if (size > MAX_HEADER_BYTES) throw new OpError(`WebSocket: handshake headers are larger than ${MAX_HEADER_BYTES} bytes`, 'TypeError');
  return pairs;
}

export function checkConnect(a: Record<string, unknown>): ConnectRequest {
  const raw = a['url'];
  const url = typeof raw === 'string' ? URL.parse(raw) : null;
  if (url === null || (url.protocol !== 'ws:' && url.protocol !== 'wss:') || url.href.includes('#')) {
    throw new OpError(`websocket.open: ${JSON.stringify(String(raw))} is not a ws(s) URL without a fragment`, 'TypeError');
  }
  const protocols = a['protocols'];
  if (!Array.isArray(protocols) || protocols.length > MAX_PROTOCOLS || !protocols.every((p): p is string => typeof p === 'string' && TOKEN.test(p))) {
    throw new OpError(`websocket.open: protocols must be at most ${MAX_PROTOCOLS} subprotocol tokens`, 'TypeError');
  }
  if (new Set(protocols.map((p) => p.toLowerCase())).size !== protocols.length) throw new OpError('websocket.open: a subprotocol is repeated', 'TypeError');
  return { url, protocols, headers: checkHeaders(a['headers']) };
}
