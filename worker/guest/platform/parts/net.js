// node:net, node:tls, node:dns and node:http as far as HTTP/2 client libraries (gRPC) need them.
// Scripts have no raw sockets: every connection is the host's, made by `http2.connect` under the
// `http2` policy. A library such as @grpc/grpc-js first opens a socket itself (`net.connect`,
// then `tls.connect({ socket })`) and hands it to `http2.connect({ createConnection })`; here those
// sockets are stand-ins that "connect" at once and carry nothing but the session http2 opens on
// the host for the authority the library names (node:http2, parts/http2.js). Writing to one, and
// every server API, throws ERR_RUNJS_NET_UNSUPPORTED. `dns` answers without the network: names
// are resolved by the host when the connection is made (docs/network.md).
import core from 'runjs:part/core';
import eventsPart from 'runjs:part/events';
import { isIP, isIPv4, isIPv6 } from './node/ip.js';

const { op, invalidArgType } = core.shared;
const EventEmitter = eventsPart.modules.events;

const unsupported = (name) => () => op('net.unsupported', { name });

/** A socket stand-in: connected at once, usable only as an http2 session's `createConnection`. */
export class Socket extends EventEmitter {
  constructor(options = {}) {
    super();
    this.remoteAddress = options.host ?? 'localhost';
    this.remotePort = options.port;
    this.remoteFamily = isIPv6(this.remoteAddress) ? 'IPv6' : 'IPv4';
    this.connecting = true;
    this.destroyed = false;
    this.closed = false;
    this.encrypted = false;
    this.readyState = 'opening';
  }

  _connected(event, listener) {
    if (typeof listener === 'function') this.once(event, listener);
    queueMicrotask(() => {
      if (this.destroyed) return;
      this.connecting = false;
      this.readyState = 'open';
      this.emit(event);
    });
    return this;
  }

  write() { return unsupported(`writing to a ${this.encrypted ? 'tls' : 'net'} socket`)(); }
  end() { this.destroy(); return this; }
  destroy(error) {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.closed = true;
    this.readyState = 'closed';
    queueMicrotask(() => {
      if (error) this.emit('error', error);
      this.emit('close', error !== undefined);
    });
    return this;
  }

  setNoDelay() { return this; }
  setKeepAlive() { return this; }
  setTimeout(_ms, callback) { if (typeof callback === 'function') this.once('timeout', callback); return this; }
  ref() { return this; }
  unref() { return this; }
  address() { return {}; }
}

function connectArgs(args) {
  const [a, b, c] = args;
  if (a !== null && typeof a === 'object') return { options: a, listener: typeof b === 'function' ? b : undefined };
  if (typeof a === 'number' || typeof a === 'string') {
    return { options: { port: Number(a), host: typeof b === 'string' ? b : 'localhost' }, listener: typeof b === 'function' ? b : typeof c === 'function' ? c : undefined };
  }
  throw invalidArgType('options', 'of type object', a);
}

function netConnect(...args) {
  const { options, listener } = connectArgs(args);
  if (typeof options.path === 'string') return unsupported('a Unix socket connection')();
  return new Socket(options)._connected('connect', listener);
}

export class TLSSocket extends Socket {
  constructor(socket, options = {}) {
    super({ host: options.host ?? socket?.remoteAddress, port: options.port ?? socket?.remotePort });
    this.encrypted = true;
    this.servername = options.servername ?? options.host ?? socket?.remoteAddress;
    // The host negotiates h2 (or fails the session) and verifies the certificate against its trusted CAs.
    this.alpnProtocol = 'h2';
    this.authorized = true;
    this.authorizationError = null;
  }

  getPeerCertificate() { return {}; }
  getProtocol() { return 'TLSv1.3'; }
}

function tlsConnect(...args) {
  const { options, listener } = connectArgs(args);
  return new TLSSocket(options.socket, options)._connected('secureConnect', listener);
}

/** What a secure context would hold: the host's TLS settings decide (its trusted CA list). */
function createSecureContext(options = {}) {
  return { context: {}, options };
}

const net = {
  Socket, Stream: Socket, connect: netConnect, createConnection: netConnect, isIP, isIPv4, isIPv6,
  createServer: unsupported('net.createServer'), Server: unsupported('net.Server'),
};

const tls = {
  TLSSocket, connect: tlsConnect, createSecureContext, checkServerIdentity: () => undefined,
  DEFAULT_MIN_VERSION: 'TLSv1.2', DEFAULT_MAX_VERSION: 'TLSv1.3', DEFAULT_ECDH_CURVE: 'auto', rootCertificates: Object.freeze([]),
  getCiphers: () => ['tls_aes_128_gcm_sha256', 'tls_aes_256_gcm_sha384', 'tls_chacha20_poly1305_sha256'],
  createServer: unsupported('tls.createServer'), Server: unsupported('tls.Server'),
};

/** dns.lookup: an IP literal is itself; `localhost` is 127.0.0.1; any other name is answered as itself (family 0), resolved by the host when connected to. */
function answer(hostname, options) {
  if (typeof hostname !== 'string') throw invalidArgType('hostname', 'of type string', hostname);
  const family = isIP(hostname);
  const address = hostname === 'localhost' ? '127.0.0.1' : hostname;
  const one = { address, family: family !== 0 ? family : hostname === 'localhost' ? 4 : 0 };
  return (typeof options === 'object' && options?.all === true) ? [one] : one;
}

function noRecords(hostname) {
  const err = new Error(`queryTxt ENODATA ${hostname}`);
  err.code = 'ENODATA';
  err.hostname = hostname;
  return err;
}

class PromisesResolver {
  async resolveTxt(hostname) { throw noRecords(hostname); }
  async resolve4(hostname) { return [answer(hostname).address]; }
  setServers() {}
  getServers() { return []; }
  cancel() {}
}

const dnsPromises = {
  lookup: async (hostname, options) => answer(hostname, options),
  resolveTxt: async (hostname) => { throw noRecords(hostname); },
  Resolver: PromisesResolver,
};

class Resolver {
  resolveTxt(hostname, callback) { queueMicrotask(() => callback(noRecords(hostname))); }
  setServers() {}
  getServers() { return []; }
  cancel() {}
}

const dns = {
  lookup(hostname, options, callback) {
    const cb = typeof options === 'function' ? options : callback;
    const result = answer(hostname, typeof options === 'function' ? undefined : options);
    queueMicrotask(() => (Array.isArray(result) ? cb(null, result) : cb(null, result.address, result.family)));
  },
  resolveTxt: (hostname, callback) => queueMicrotask(() => callback(noRecords(hostname))),
  Resolver,
  promises: dnsPromises,
  NODATA: 'ENODATA', NOTFOUND: 'ENOTFOUND',
};

const METHODS = ['CONNECT', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'TRACE'];
const http = {
  METHODS,
  STATUS_CODES: { 200: 'OK', 204: 'No Content', 301: 'Moved Permanently', 302: 'Found', 304: 'Not Modified', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable' },
  request: unsupported('http.request (use fetch)'), get: unsupported('http.get (use fetch)'),
  Agent: unsupported('http.Agent'), createServer: unsupported('http.createServer'),
};

export const modules = { net, tls, dns, 'dns/promises': dnsPromises, http };
export const globals = {};
