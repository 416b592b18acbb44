// node:http2, the client side (what gRPC libraries use): sessions and streams are held by the host
// (worker/ops/http2/), which decides them by the `http2` policy (no policy: the connection is
// refused) and injects the operator's headers into every stream. A session keeps one
// `http2.session_next` op pending until it closes, and each stream one `http2.stream_next`; the ops
// answer their next event, so responses arrive without polling and an open session keeps the run
// alive (until `session.unref()`), as it keeps a Node process alive. Server APIs throw.
import core from 'runjs:part/core';
import bufferPart from 'runjs:part/buffer';
import eventsPart from 'runjs:part/events';
import streamPart from 'runjs:part/stream';

const { op, invalidArgType, nodeError } = core.shared;
const { Buffer } = bufferPart.globals;
const EventEmitter = eventsPart.modules.events;
const { Duplex } = streamPart.modules.stream;

const NGHTTP2_NO_ERROR = 0;
const NGHTTP2_INTERNAL_ERROR = 2;
const NGHTTP2_CANCEL = 8;
const ERROR_NAMES = [
  'NGHTTP2_NO_ERROR', 'NGHTTP2_PROTOCOL_ERROR', 'NGHTTP2_INTERNAL_ERROR', 'NGHTTP2_FLOW_CONTROL_ERROR',
  'NGHTTP2_SETTINGS_TIMEOUT', 'NGHTTP2_STREAM_CLOSED', 'NGHTTP2_FRAME_SIZE_ERROR', 'NGHTTP2_REFUSED_STREAM',
  'NGHTTP2_CANCEL', 'NGHTTP2_COMPRESSION_ERROR', 'NGHTTP2_CONNECT_ERROR', 'NGHTTP2_ENHANCE_YOUR_CALM',
  'NGHTTP2_INADEQUATE_SECURITY', 'NGHTTP2_HTTP_1_1_REQUIRED',
];
const NO_PAYLOAD_METHODS = ['DELETE', 'GET', 'HEAD'];
const sensitiveHeaders = Symbol('nodejs.http2.sensitiveHeaders');

/** Starts an async op whose pending state can be unref'd; resolves with its answer. */
function pending(name, args, refd) {
  let id;
  const promise = new Promise((resolve, reject) => {
    id = op(name, args, undefined, (ok, value) => (ok ? resolve(value) : reject(value)));
  });
  if (!refd) op('timers.ref', { id, ref: false });
  return { id, promise };
}

function hostError(event) {
  const err = new Error(event.message);
  if (event.code !== undefined) err.code = event.code;
  return err;
}

function authorityUrl(authority) {
  if (authority instanceof URL) return authority;
  if (typeof authority === 'string') {
    try {
      return new URL(authority);
    } catch {
      return new URL(`https://${authority}`);
    }
  }
  if (authority !== null && typeof authority === 'object') {
    const protocol = authority.protocol ?? 'https:';
    const host = authority.host ?? authority.hostname ?? 'localhost';
    const port = authority.port !== undefined ? `:${authority.port}` : '';
    return new URL(`${protocol}//${host}${port}`);
  }
  throw invalidArgType('authority', 'of type string or an instance of URL', authority);
}

/** A request's headers as the host takes them: lowercased names, string values. */
function normalizeHeaders(headers) {
  if (headers === null || typeof headers !== 'object') throw invalidArgType('headers', 'of type object', headers);
  const out = {};
  for (const key of Object.keys(headers)) {
    const value = headers[key];
    if (value === undefined) continue;
    const name = key.toLowerCase();
    if (Array.isArray(value)) out[name] = value.map(String).join(name === 'cookie' ? '; ' : ', ');
    else out[name] = String(value);
  }
  return out;
}

export class ClientHttp2Stream extends Duplex {
  constructor(session, headers) {
    // Closed by the host's close event (which carries rstCode), not when both sides are done.
    super({ allowHalfOpen: true, decodeStrings: false, autoDestroy: false });
    this.session = session;
    this.sentHeaders = headers;
    this.sentTrailers = undefined;
    this.sentInfoHeaders = [];
    this.rstCode = undefined;
    this.aborted = false;
    this.pending = true;
    this.id = undefined;
    this._h2 = { id: 0, closed: false, wake: null, ended: false };
  }

  get closed() { return this._h2.closed; }
  get state() { return {}; }
  get bufferSize() { return this.writableLength; }

  _read() {
    const wake = this._h2.wake;
    this._h2.wake = null;
    wake?.();
  }

  _write(chunk, encoding, callback) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
    if (this._h2.closed) {
      callback();
      return;
    }
    // Settles when the host session has taken the bytes: backpressure for the writer.
    const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    op('http2.stream_write', { id: this._h2.id }, view, (ok, value) => (ok ? callback() : callback(value)));
  }

  _final(callback) {
    if (!this._h2.closed) op('http2.stream_end', { id: this._h2.id });
    callback();
  }

  _destroy(err, callback) {
    if (!this._h2.closed) {
      this._h2.closed = true;
      op('http2.stream_close', { id: this._h2.id, code: err ? NGHTTP2_INTERNAL_ERROR : NGHTTP2_CANCEL });
    }
    callback(err);
  }

  close(code = NGHTTP2_NO_ERROR, callback) {
    if (typeof code !== 'number' || code < 0 || code > 0xffffffff) throw invalidArgType('code', 'of type number', code);
    if (typeof callback === 'function') this.once('close', callback);
    if (this._h2.closed) return;
    op('http2.stream_close', { id: this._h2.id, code });
  }

  setTimeout(_ms, callback) {
    if (typeof callback === 'function') this.once('timeout', callback);
    return this;
  }

  priority() {}

  sendTrailers() {
    throw nodeError(Error, 'ERR_HTTP2_TRAILERS_NOT_READY', 'Trailing headers cannot be sent until after the wantTrailers event is emitted');
  }
}

async function pumpStream(stream) {
  const s = stream._h2;
  for (;;) {
    let event;
    try {
      event = await pending('http2.stream_next', { id: s.id }, true).promise;
    } catch (e) {
      event = { type: 'error', message: String(e?.message ?? e), code: e?.code };
      s.closed = true;
      stream.destroy(hostError(event));
      return;
    }
    if (event instanceof Uint8Array) {
      if (!stream.destroyed && !stream.push(Buffer.from(event.buffer, event.byteOffset, event.byteLength))) {
        await new Promise((resolve) => { s.wake = resolve; });
      }
      continue;
    }
    switch (event.type) {
      case 'response':
        stream.pending = false;
        stream.emit('response', event.headers, event.flags);
        break;
      case 'headers':
        stream.emit('headers', event.headers, event.flags);
        break;
      case 'trailers':
        stream.emit('trailers', event.headers, event.flags);
        break;
      case 'end':
        s.ended = true;
        stream.push(null);
        // As Node does: 'end' comes once the data is consumed, even on a paused stream (gRPC
        // pauses between messages and waits for 'end'/'close' to report the call's status).
        stream.read(0);
        break;
      case 'error':
        s.error ??= hostError(event);
        break;
      case 'close': {
        s.closed = true;
        stream.rstCode = event.rstCode;
        if (s.error !== undefined) {
          stream.destroy(s.error);
        } else if (event.rstCode !== NGHTTP2_NO_ERROR && !s.ended) {
          stream.aborted = true;
          stream.destroy(nodeError(Error, 'ERR_HTTP2_STREAM_ERROR', `Stream closed with error code ${ERROR_NAMES[event.rstCode] ?? event.rstCode}`));
        } else {
          if (!s.ended) stream.push(null);
          if (stream.readableEnded) stream.destroy();
          else stream.once('end', () => stream.destroy());
        }
        return;
      }
      default:
    }
  }
}

export class ClientHttp2Session extends EventEmitter {
  constructor(authority, options, listener) {
    super();
    const url = authorityUrl(authority);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw nodeError(Error, 'ERR_HTTP2_UNSUPPORTED_PROTOCOL', `protocol "${url.protocol}" is unsupported.`);
    }
    this.type = 0;
    this.connecting = true;
    this.closed = false;
    this.destroyed = false;
    this.encrypted = url.protocol === 'https:';
    this.alpnProtocol = undefined;
    this.originSet = undefined;
    // The connection is the host's: a stand-in answering what clients read of it. A library that
    // made its own socket (net/tls stand-ins, parts/net.js) passes it as `createConnection`: that
    // socket then stands for the session's connection, which the host opens to `authority`.
    const given = typeof options?.createConnection === 'function' ? options.createConnection(url, options) : undefined;
    this.socket = given ?? {
      remoteAddress: url.hostname.replace(/^\[|\]$/g, ''), remotePort: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
      encrypted: url.protocol === 'https:', alpnProtocol: undefined, servername: url.hostname,
      getPeerCertificate: () => ({}), setTimeout() {}, setNoDelay() {}, setKeepAlive() {}, ref() {}, unref() {},
    };
    this.state = {};
    this.localSettings = {};
    this.remoteSettings = {};
    this.pendingSettingsAck = false;
    this._h2 = { id: 0, url, refd: true, next: null };
    if (typeof listener === 'function') this.once('connect', listener);
    this._h2.id = op('http2.connect', { url: url.href });
    pumpSession(this);
  }

  request(headers = {}, options = {}) {
    if (this.closed || this.destroyed) throw nodeError(Error, 'ERR_HTTP2_INVALID_SESSION', 'The session has been destroyed');
    const h = normalizeHeaders(headers);
    h[':method'] ??= 'GET';
    h[':path'] ??= '/';
    const endStream = options?.endStream ?? NO_PAYLOAD_METHODS.includes(h[':method']);
    const stream = new ClientHttp2Stream(this, h);
    stream._h2.id = op('http2.request', { session: this._h2.id, headers: h, endStream });
    if (endStream) stream.end();
    if (options?.signal) {
      const onAbort = () => stream.destroy(Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR' }));
      if (options.signal.aborted) queueMicrotask(onAbort);
      else options.signal.addEventListener('abort', onAbort, { once: true });
    }
    pumpStream(stream);
    return stream;
  }

  close(callback) {
    if (typeof callback === 'function') this.once('close', callback);
    if (this.closed || this.destroyed) return;
    this.closed = true;
    op('http2.session_close', { id: this._h2.id });
  }

  destroy(error, code) {
    if (this.destroyed) return;
    this.closed = true;
    this.destroyed = true;
    op('http2.session_close', { id: this._h2.id, destroy: true, code: typeof code === 'number' ? code : error ? NGHTTP2_INTERNAL_ERROR : NGHTTP2_NO_ERROR });
    if (error) queueMicrotask(() => this.emit('error', error));
  }

  /** An unref'd session does not keep the run alive (gRPC clients unref idle sessions). */
  unref() {
    this._h2.refd = false;
    if (this._h2.next !== null) op('timers.ref', { id: this._h2.next, ref: false });
  }

  ref() {
    this._h2.refd = true;
    if (this._h2.next !== null) op('timers.ref', { id: this._h2.next, ref: true });
  }

  setTimeout(_ms, callback) {
    if (typeof callback === 'function') this.once('timeout', callback);
    return this;
  }

  ping(payload, callback) {
    if (typeof payload === 'function') callback = payload;
    // Answered locally: the host session's own keep-alive is Node's.
    if (typeof callback === 'function') queueMicrotask(() => callback(null, 0, Buffer.alloc(8)));
    return true;
  }

  settings() {}
  goaway() {}
  setLocalWindowSize() {}
}

async function pumpSession(session) {
  const s = session._h2;
  for (;;) {
    let event;
    try {
      const p = pending('http2.session_next', { id: s.id }, s.refd);
      s.next = p.id;
      event = await p.promise;
    } catch (e) {
      event = { type: 'error', message: String(e?.message ?? e), code: e?.code };
      session.emit('error', hostError(event));
      event = { type: 'close' };
    } finally {
      s.next = null;
    }
    switch (event.type) {
      case 'connect':
        session.connecting = false;
        session.alpnProtocol = event.alpnProtocol ?? (session.encrypted ? 'h2' : 'h2c');
        session.socket.alpnProtocol = session.alpnProtocol;
        session.originSet = [s.url.origin];
        session.emit('connect', session, session.socket);
        break;
      case 'error':
        session.emit('error', hostError(event));
        break;
      case 'goaway':
        session.emit('goaway', event.errorCode, event.lastStreamID, Buffer.alloc(0));
        break;
      case 'remoteSettings':
        session.remoteSettings = event.settings;
        session.emit('remoteSettings', event.settings);
        break;
      case 'close':
        session.connecting = false;
        session.closed = true;
        session.destroyed = true;
        session.emit('close');
        session.socket.destroy?.();
        return;
      default:
    }
  }
}

export function connect(authority, options, listener) {
  if (typeof options === 'function') {
    listener = options;
    options = undefined;
  }
  return new ClientHttp2Session(authority, options ?? {}, listener);
}

const server = (name) => () => op('http2.unsupported', { name });

let constantsCache;
const http2 = {
  connect,
  ClientHttp2Session,
  ClientHttp2Stream,
  createServer: server('createServer'),
  createSecureServer: server('createSecureServer'),
  getDefaultSettings: () => ({ headerTableSize: 4096, enablePush: true, initialWindowSize: 65535, maxFrameSize: 16384, maxConcurrentStreams: 4294967295, maxHeaderListSize: 65535, maxHeaderSize: 65535, enableConnectProtocol: false }),
  getPackedSettings: () => Buffer.alloc(0),
  getUnpackedSettings: () => ({}),
  sensitiveHeaders,
};
Object.defineProperty(http2, 'constants', {
  get: () => (constantsCache ??= Object.freeze(op('http2.constants', {}))),
  enumerable: true,
});

export const modules = { http2 };
export const globals = {};
