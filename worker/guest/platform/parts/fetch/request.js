// Request (Fetch Standard): a value scripts build, read, clone and pass to fetch();
// its URL must be absolute (there is no document base URL).
import core from 'runjs:part/core';
import { Headers, fill } from './headers.js';
import { extractBody, setBody, bodyOf, hasBody, mixinBody, cloneBody } from './body.js';

const { URL, AbortController } = core.globals;
const state = new WeakMap();
const NORMALIZED = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH'];
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function r(req) {
  const s = state.get(req);
  if (s === undefined) throw new TypeError('Illegal invocation');
  return s;
}

function enumValue(v, allowed, name, fallback) {
  if (v === undefined) return fallback;
  const s = String(v);
  if (!allowed.includes(s)) throw new TypeError(`Failed to construct 'Request': The provided value '${s}' is not a valid enum value of type ${name}.`);
  return s;
}

export class Request {
  constructor(input, init = undefined) {
    if (arguments.length === 0) throw new TypeError("Failed to construct 'Request': 1 argument required, but only 0 present.");
    const o = init ?? {};
    const from = input instanceof Request ? r(input) : undefined;
    let url;
    if (from !== undefined) url = from.url;
    else {
      const parsed = URL.parse(String(input));
      if (parsed === null) throw new TypeError(`Failed to parse URL from ${String(input)}`);
      if (parsed.username !== '' || parsed.password !== '') throw new TypeError(`Request cannot be constructed from a URL that includes credentials: ${String(input)}`);
      url = parsed.href;
    }
    let method = from?.method ?? 'GET';
    if (o.method !== undefined) {
      const m = String(o.method);
      if (!TOKEN.test(m)) throw new TypeError(`'${m}' is not a valid HTTP method.`);
      const upper = m.toUpperCase();
      if (upper === 'CONNECT' || upper === 'TRACE' || upper === 'TRACK') throw new TypeError(`'${m}' HTTP method is unsupported.`);
      method = NORMALIZED.includes(upper) ? upper : m;
    }
    const signalSource = o.signal !== undefined ? o.signal : from?.signal;
    if (signalSource !== undefined && signalSource !== null && !(signalSource instanceof core.globals.AbortSignal)) {
      throw new TypeError("Failed to construct 'Request': member signal is not of type AbortSignal.");
    }
    const controller = new AbortController();
    if (signalSource) {
      if (signalSource.aborted) controller.abort(signalSource.reason);
      else signalSource.addEventListener('abort', () => controller.abort(signalSource.reason), { once: true });
    }
    const headers = new Headers(o.headers !== undefined ? o.headers : from !== undefined ? input.headers : undefined);
    state.set(this, {
      url,
      method,
      headers,
      signal: controller.signal,
      redirect: enumValue(o.redirect, ['follow', 'error', 'manual'], 'RequestRedirect', from?.redirect ?? 'follow'),
      mode: enumValue(o.mode, ['cors', 'no-cors', 'same-origin', 'navigate'], 'RequestMode', from?.mode ?? 'cors'),
      credentials: enumValue(o.credentials, ['omit', 'same-origin', 'include'], 'RequestCredentials', from?.credentials ?? 'same-origin'),
      cache: enumValue(o.cache, ['default', 'no-store', 'reload', 'no-cache', 'force-cache', 'only-if-cached'], 'RequestCache', from?.cache ?? 'default'),
      referrer: o.referrer !== undefined ? (String(o.referrer) === '' ? '' : 'about:client') : from?.referrer ?? 'about:client',
      referrerPolicy: o.referrerPolicy !== undefined ? String(o.referrerPolicy) : from?.referrerPolicy ?? '',
      integrity: o.integrity !== undefined ? String(o.integrity) : from?.integrity ?? '',
      keepalive: o.keepalive !== undefined ? !!o.keepalive : from?.keepalive ?? false,
      duplex: o.duplex ?? 'half',
    });
    const bodyInit = o.body !== undefined ? o.body : undefined;
    if ((bodyInit !== undefined && bodyInit !== null) && (method === 'GET' || method === 'HEAD')) {
      throw new TypeError('Request with GET/HEAD method cannot have body.');
    }
    if (bodyInit !== undefined && bodyInit !== null) {
      const body = extractBody(bodyInit);
      if (body.type !== null && !headers.has('content-type')) headers.set('content-type', body.type);
      setBody(this, body);
    } else if (from !== undefined && bodyInit === undefined) {
      const src = bodyOf(input);
      if (src.used) throw new TypeError('Cannot construct a Request with a Request object that has already been used.');
      setBody(this, { bytes: src.bytes, stream: src.stream, type: null });
      src.used = hasBody(input);
    } else setBody(this, { bytes: null, stream: null, type: null });
  }
  get url() { return r(this).url; }
  get method() { return r(this).method; }
  get headers() { return r(this).headers; }
  get signal() { return r(this).signal; }
  get redirect() { return r(this).redirect; }
  get mode() { return r(this).mode; }
  get credentials() { return r(this).credentials; }
  get cache() { return r(this).cache; }
  get referrer() { return r(this).referrer; }
  get referrerPolicy() { return r(this).referrerPolicy; }
  get integrity() { return r(this).integrity; }
  get keepalive() { return r(this).keepalive; }
  get destination() { return ''; }
  get isHistoryNavigation() { return false; }
  get isReloadNavigation() { return false; }
  get duplex() { return r(this).duplex; }
  clone() {
    const s = r(this);
    const copy = new Request(s.url, { method: s.method, headers: s.headers, signal: s.signal, redirect: s.redirect, mode: s.mode, credentials: s.credentials, cache: s.cache, integrity: s.integrity, keepalive: s.keepalive });
    setBody(copy, cloneBody(this));
    return copy;
  }
}
mixinBody(Request);
Object.defineProperty(Request.prototype, Symbol.toStringTag, { value: 'Request', configurable: true });
