// WebSocket (WHATWG WebSockets Standard; Node 22+'s global, which is undici's): the connection is
// made and held by the host (worker/ops/websocket/), which decides it by policy. Each socket keeps
// one `websocket.next` op pending until it closes; the op answers the socket's next event (open, a
// message, error, close), so events arrive without polling and an open socket keeps the run alive,
// as it keeps a Node process alive. The standard's exceptions are thrown here, before the host is
// asked: SyntaxError (URL, scheme, fragment, subprotocols, a close reason over 123 bytes),
// InvalidAccessError (a close code), InvalidStateError (send while connecting).
import core from 'runjs:part/core';

const { op, opAsync, utf8Encode, requirePart, trusted } = core.shared;
const { EventTarget, Event, MessageEvent, ErrorEvent, CloseEvent, DOMException, URL } = core.globals;

const CONNECTING = 0;
const OPEN = 1;
const CLOSING = 2;
const CLOSED = 3;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HANDLERS = ['open', 'message', 'error', 'close'];

const sockets = new WeakMap(); // WebSocket → its state

function stateOf(ws) {
  const s = sockets.get(ws);
  if (s === undefined) throw new TypeError('Illegal invocation');
  return s;
}

function constructError(message) {
  return new DOMException(`Failed to construct 'WebSocket': ${message}`, 'SyntaxError');
}

/** The standard's "get a URL record": parsed, http(s) → ws(s), only ws(s), no fragment. */
function urlRecord(input) {
  const text = String(input);
  let url;
  try {
    url = new URL(text);
  } catch {
    throw constructError(`The URL '${text}' is invalid.`);
  }
  if (url.protocol === 'http:') url.protocol = 'ws:';
  else if (url.protocol === 'https:') url.protocol = 'wss:';
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') {
    throw constructError(`The URL's scheme must be either 'http', 'https', 'ws', or 'wss'. '${url.protocol}' is not allowed.`);
  }
  if (url.href.includes('#')) {
    throw constructError(`The URL contains a fragment identifier ('${url.hash.slice(1)}'). Fragment identifiers are not allowed in WebSocket URLs.`);
  }
  return url;
}

/**
 * The second argument as Node reads it (`DOMString or sequence<DOMString> or WebSocketInit`): a
 * subprotocol, a list of them, or undici's `{protocols, headers}` (a `dispatcher` is ignored).
 */
function connectOptions(arg) {
  if (arg !== null && typeof arg === 'object' && typeof arg[Symbol.iterator] !== 'function') {
    const headers = arg.headers === undefined ? [] : [...new (requirePart('fetch').globals.Headers)(arg.headers)];
    return { protocols: protocolList(arg.protocols ?? []), headers };
  }
  return { protocols: protocolList(arg), headers: [] };
}

function protocolList(protocols) {
  let list;
  if (typeof protocols === 'string') list = [protocols];
  else if (protocols !== null && typeof protocols === 'object' && typeof protocols[Symbol.iterator] === 'function') list = Array.from(protocols, String);
  else list = [String(protocols)];
  const seen = new Set();
  for (const p of list) {
    if (!TOKEN.test(p)) throw constructError(`The subprotocol '${p}' is invalid.`);
    const key = p.toLowerCase();
    if (seen.has(key)) throw constructError(`The subprotocol '${p}' is duplicated.`);
    seen.add(key);
  }
  return list;
}

/** WebIDL `[Clamp] unsigned short`. */
function clampShort(v) {
  const n = Number(v);
  if (Number.isNaN(n)) return 0;
  const c = Math.min(Math.max(n, 0), 65535);
  const f = Math.floor(c);
  const diff = c - f;
  if (diff > 0.5 || (diff === 0.5 && f % 2 === 1)) return f + 1;
  return f;
}

function byteView(data) {
  if (data instanceof ArrayBuffer) return new Uint8Array(data.slice(0));
  return new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
}

export class WebSocket extends EventTarget {
  constructor(url, protocols = []) {
    if (arguments.length < 1) throw new TypeError("Failed to construct 'WebSocket': 1 argument required, but only 0 present.");
    const record = urlRecord(url);
    const options = connectOptions(protocols);
    super();
    const s = {
      id: 0, url: record.href, origin: record.origin, readyState: CONNECTING, protocol: '', extensions: '',
      binaryType: 'blob', handlers: { open: null, message: null, error: null, close: null },
      /** Bytes sent after the socket stopped being open (the standard still counts them). */
      lateBytes: 0,
      /** Blob sends read their bytes asynchronously: later sends wait behind them, in order. */
      sendChain: null,
    };
    sockets.set(this, s);
    s.id = op('websocket.open', { url: record.href, protocols: options.protocols, headers: options.headers });
    pump(this, s);
  }

  get url() { return stateOf(this).url; }
  get readyState() { return stateOf(this).readyState; }
  get protocol() { return stateOf(this).protocol; }
  get extensions() { return stateOf(this).extensions; }
  get bufferedAmount() {
    const s = stateOf(this);
    return (s.readyState === CONNECTING ? 0 : op('websocket.buffered', { id: s.id })) + s.lateBytes;
  }
  get binaryType() { return stateOf(this).binaryType; }
  set binaryType(v) {
    const s = stateOf(this);
    const t = String(v);
    // An enumeration attribute ignores values it does not know.
    if (t === 'blob' || t === 'arraybuffer') s.binaryType = t;
  }

  send(data) {
    const s = stateOf(this);
    if (arguments.length < 1) throw new TypeError("Failed to execute 'send' on 'WebSocket': 1 argument required, but only 0 present.");
    if (s.readyState === CONNECTING) throw new DOMException("Failed to execute 'send' on 'WebSocket': Still in CONNECTING state.", 'InvalidStateError');
    let bytes;
    let text = false;
    let blob;
    if (typeof data === 'string') {
      bytes = utf8Encode(data);
      text = true;
    } else if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) {
      bytes = byteView(data);
    } else if (data !== null && typeof data === 'object' && data instanceof requirePart('fetch').globals.Blob) {
      blob = data;
    } else {
      bytes = utf8Encode(String(data));
      text = true;
    }
    const length = blob !== undefined ? blob.size : bytes.byteLength;
    if (s.readyState !== OPEN) {
      s.lateBytes += length;
      return;
    }
    if (blob === undefined && s.sendChain === null) {
      op('websocket.send', text ? { id: s.id, text: true } : { id: s.id }, bytes);
      return;
    }
    const after = s.sendChain ?? Promise.resolve();
    const chain = after
      .then(() => (blob !== undefined ? blob.arrayBuffer() : null))
      .then((buffer) => {
        if (s.readyState !== OPEN) return;
        const payload = buffer === null ? bytes : new Uint8Array(buffer);
        op('websocket.send', text ? { id: s.id, text: true } : { id: s.id }, payload);
      })
      .finally(() => { if (s.sendChain === chain) s.sendChain = null; });
    s.sendChain = chain;
  }

  close(code = undefined, reason = undefined) {
    const s = stateOf(this);
    let c;
    if (code !== undefined) {
      c = clampShort(code);
      if (c !== 1000 && (c < 3000 || c > 4999)) {
        throw new DOMException(`Failed to execute 'close' on 'WebSocket': The close code must be either 1000, or between 3000 and 4999. ${c} is neither.`, 'InvalidAccessError');
      }
    }
    let r = '';
    if (reason !== undefined) {
      r = String(reason);
      if (utf8Encode(r).byteLength > 123) {
        throw new DOMException("Failed to execute 'close' on 'WebSocket': The close reason must not be greater than 123 UTF-8 bytes.", 'SyntaxError');
      }
    }
    if (s.readyState === CLOSING || s.readyState === CLOSED) return;
    const connecting = s.readyState === CONNECTING;
    s.readyState = CLOSING;
    const args = { id: s.id, reason: r, connecting };
    if (c !== undefined) args.code = c;
    op('websocket.close', args);
  }
}

for (const type of HANDLERS) {
  Object.defineProperty(WebSocket.prototype, `on${type}`, {
    get() { return stateOf(this).handlers[type]; },
    set(fn) {
      const s = stateOf(this);
      if (s.handlers[type] !== null) EventTarget.prototype.removeEventListener.call(this, type, s.handlers[type]);
      s.handlers[type] = typeof fn === 'function' || (fn !== null && typeof fn === 'object') ? fn : null;
      if (s.handlers[type] !== null) EventTarget.prototype.addEventListener.call(this, type, s.handlers[type]);
    },
    enumerable: true,
    configurable: true,
  });
}
const STATES = { CONNECTING: { value: CONNECTING, enumerable: true }, OPEN: { value: OPEN, enumerable: true }, CLOSING: { value: CLOSING, enumerable: true }, CLOSED: { value: CLOSED, enumerable: true } };
Object.defineProperties(WebSocket, STATES);
Object.defineProperties(WebSocket.prototype, STATES);
Object.defineProperty(WebSocket.prototype, Symbol.toStringTag, { value: 'WebSocket', configurable: true });

/** Fires the socket's events as the host answers them, until its close event. */
async function pump(ws, s) {
  for (;;) {
    let event;
    try {
      event = await opAsync('websocket.next', { id: s.id });
    } catch (e) {
      // The host lost the socket (an earlier run's socket in a restored heap): it failed.
      deliver(ws, s, { type: 'error', message: String(e?.message ?? e) });
      deliver(ws, s, { type: 'close', code: 1006, reason: '', wasClean: false });
      return;
    }
    if (deliver(ws, s, event)) return;
  }
}

/** Fires one host event; true once the socket is closed. */
function deliver(ws, s, event) {
  if (event instanceof Uint8Array) {
    if (s.readyState !== OPEN) return false;
    const data = s.binaryType === 'arraybuffer'
      ? event.buffer.slice(event.byteOffset, event.byteOffset + event.byteLength)
      : new (requirePart('fetch').globals.Blob)([event]);
    ws.dispatchEvent(trusted(new MessageEvent('message', { data, origin: s.origin })));
    return false;
  }
  switch (event.type) {
    case 'open':
      // Closed while connecting: the connection fails (its error and close follow), never opens.
      if (s.readyState !== CONNECTING) return false;
      s.readyState = OPEN;
      s.protocol = event.protocol;
      s.extensions = event.extensions;
      ws.dispatchEvent(trusted(new Event('open')));
      return false;
    case 'text':
      if (s.readyState !== OPEN) return false;
      ws.dispatchEvent(trusted(new MessageEvent('message', { data: event.data, origin: s.origin })));
      return false;
    case 'error': {
      const error = new Error(event.message);
      if (event.code !== undefined) error.code = event.code;
      ws.dispatchEvent(trusted(new ErrorEvent('error', { message: event.message, error })));
      return false;
    }
    case 'close':
      s.readyState = CLOSED;
      ws.dispatchEvent(trusted(new CloseEvent('close', { wasClean: event.wasClean, code: event.code, reason: event.reason })));
      return true;
    default:
      return false;
  }
}

export const globals = { WebSocket };
export const modules = {};
