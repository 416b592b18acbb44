// Response (Fetch Standard), including Response.json(), Response.error() and Response.redirect().
import core from 'runjs:part/core';
import { Headers, setGuard } from './headers.js';
import { extractBody, setBody, mixinBody, cloneBody } from './body.js';

const { URL } = core.globals;
const state = new WeakMap();
const NULL_BODY = [101, 103, 204, 205, 304];
const REDIRECT = [301, 302, 303, 307, 308];

function r(res) {
  const s = state.get(res);
  if (s === undefined) throw new TypeError('Illegal invocation');
  return s;
}

function init(res, options, body) {
  const o = options ?? {};
  const status = o.status === undefined ? 200 : Number(o.status);
  if (!Number.isInteger(status) || status < 200 || status > 599) {
    throw new RangeError(`Failed to construct 'Response': The status provided (${String(o.status)}) is outside the range [200, 599].`);
  }
  const statusText = o.statusText === undefined ? '' : String(o.statusText);
  if (/[^\t\x20-\x7e\x80-\xff]/.test(statusText)) throw new TypeError(`Failed to construct 'Response': Invalid statusText`);
  const headers = new Headers(o.headers);
  state.set(res, { status, statusText, headers, type: 'default', url: '', redirected: false });
  if (body !== null) {
    if (NULL_BODY.includes(status)) throw new TypeError(`Failed to construct 'Response': Response with null body status cannot have body`);
    if (body.type !== null && !headers.has('content-type')) headers.set('content-type', body.type);
    setBody(res, body);
  } else setBody(res, { bytes: null, stream: null, type: null });
}

export class Response {
  constructor(body = null, options = undefined) {
    init(this, options, body === null || body === undefined ? null : extractBody(body));
  }
  static error() {
    const res = new Response(null, { status: 200 });
    const s = r(res);
    s.status = 0;
    s.type = 'error';
    setGuard(s.headers, 'immutable');
    return res;
  }
  static redirect(url, status = 302) {
    const parsed = URL.parse(String(url));
    if (parsed === null) throw new TypeError(`Failed to parse URL from ${String(url)}`);
    if (!REDIRECT.includes(Number(status))) throw new RangeError(`Invalid status code ${status}`);
    const res = new Response(null, { status: Number(status), headers: { location: parsed.href } });
    setGuard(r(res).headers, 'immutable');
    return res;
  }
  static json(data, options = undefined) {
    const text = JSON.stringify(data);
    if (text === undefined) throw new TypeError('Value is not JSON serializable');
    const body = extractBody(text);
    body.type = 'application/json';
    const res = Object.create(Response.prototype);
    init(res, options, body);
    return res;
  }
  get type() { return r(this).type; }
  get url() { return r(this).url; }
  get redirected() { return r(this).redirected; }
  get status() { return r(this).status; }
  get ok() { const s = r(this).status; return s >= 200 && s <= 299; }
  get statusText() { return r(this).statusText; }
  get headers() { return r(this).headers; }
  clone() {
    const s = r(this);
    const copy = Object.create(Response.prototype);
    state.set(copy, { ...s, headers: new Headers(s.headers) });
    if (s.headers && s.type === 'error') setGuard(r(copy).headers, 'immutable');
    setBody(copy, cloneBody(this));
    return copy;
  }
}
mixinBody(Response);
Object.defineProperty(Response.prototype, Symbol.toStringTag, { value: 'Response', configurable: true });

/**
 * A Response as fetch() produced it (not a constructor call: any status the network sends,
 * the final URL, immutable headers); its body a stream, or `bytes` when the whole body is here.
 */
export function networkResponse({ status, statusText, headers, url, redirected, body, bytes = null }) {
  const res = Object.create(Response.prototype);
  const h = new Headers(headers);
  setGuard(h, 'immutable');
  state.set(res, { status, statusText, headers: h, type: 'basic', url, redirected });
  setBody(res, { bytes, stream: body, type: null });
  return res;
}
