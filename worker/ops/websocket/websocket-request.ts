// What the guest's `new WebSocket()` hands the host, checked again (the guest glue already threw
// the standard's SyntaxErrors): an absolute ws(s) URL without a fragment, and distinct subprotocol
// tokens.
import { OpError } from '../op-types.ts';

export interface ConnectRequest {
  readonly url: URL;
  readonly protocols: readonly string[];
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const MAX_PROTOCOLS = 64;

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
  return { url, protocols };
}
