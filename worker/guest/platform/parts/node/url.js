// node:url: the WHATWG URL classes (core), file-URL helpers, and the legacy url.parse/format/
// resolve API (parsed on the host by Node's own legacy parser, op url.legacy).
import core from 'runjs:part/core';
import { qs } from './querystring.js';

const { op, nodeError, invalidArgType } = core.shared;
const { URL, URLSearchParams } = core.globals;

export class Url {
  constructor() {
    this.protocol = null;
    this.slashes = null;
    this.auth = null;
    this.host = null;
    this.port = null;
    this.hostname = null;
    this.hash = null;
    this.search = null;
    this.query = null;
    this.pathname = null;
    this.path = null;
    this.href = null;
  }
  format() { return format(this); }
  resolve(relative) { return resolve(this.href, relative); }
}

function parse(input, parseQueryString = false, slashesDenoteHost = false) {
  if (input instanceof Url) return input;
  if (typeof input !== 'string') throw invalidArgType('url', 'of type string', input);
  const fields = op('url.legacy', { fn: 'parse', input, slashesDenoteHost: !!slashesDenoteHost });
  const u = new Url();
  Object.assign(u, fields);
  if (parseQueryString) u.query = qs.parse(typeof u.query === 'string' ? u.query : '');
  return u;
}

function format(obj, options = undefined) {
  if (typeof obj === 'string') obj = parse(obj);
  else if (typeof obj !== 'object' || obj === null) throw invalidArgType('urlObject', 'one of type object or string', obj);
  if (obj instanceof URL) {
    const o = { auth: true, fragment: true, search: true, unicode: false, ...options };
    let out = `${obj.protocol}`;
    if (obj.host !== '' || obj.protocol === 'file:') out += '//';
    if (o.auth && (obj.username !== '' || obj.password !== '')) out += `${obj.username}${obj.password !== '' ? `:${obj.password}` : ''}@`;
    out += o.unicode ? op('url.legacy', { fn: 'domainToUnicode', input: obj.hostname }) + (obj.port ? `:${obj.port}` : '') : obj.host;
    out += obj.pathname;
    if (o.search) out += obj.search;
    if (o.fragment) out += obj.hash;
    return out;
  }
  const plain = {};
  for (const k of ['protocol', 'slashes', 'auth', 'host', 'port', 'hostname', 'hash', 'search', 'pathname', 'path', 'href']) {
    if (obj[k] !== undefined) plain[k] = obj[k];
  }
  if (obj.query !== undefined && obj.query !== null) plain.query = typeof obj.query === 'object' ? qs.stringify(obj.query) : obj.query;
  if (typeof plain.query === 'string' && plain.search === undefined) plain.search = plain.query ? `?${plain.query}` : '';
  return op('url.legacy', { fn: 'format', object: plain });
}

function resolve(from, to) {
  return op('url.legacy', { fn: 'resolve', base: String(from), input: String(to) });
}

function fileURLToPath(url) {
  const u = typeof url === 'string' ? new URL(url) : url;
  if (!(u instanceof URL)) throw invalidArgType('path', 'of type string or an instance of URL', url);
  if (u.protocol !== 'file:') throw nodeError(TypeError, 'ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
  if (u.hostname !== '') throw nodeError(TypeError, 'ERR_INVALID_FILE_URL_HOST', 'File URL host must be "localhost" or empty on linux');
  const pathname = u.pathname;
  if (/%2f/i.test(pathname)) throw nodeError(TypeError, 'ERR_INVALID_FILE_URL_PATH', 'File URL path must not include encoded / characters');
  return decodeURIComponent(pathname);
}

function pathToFileURL(path) {
  if (typeof path !== 'string') throw invalidArgType('path', 'of type string', path);
  let resolved = core.shared.requirePart('path').modules.path.resolve(path);
  if (path.endsWith('/') && !resolved.endsWith('/')) resolved += '/';
  const encoded = resolved.replace(/%/g, '%25').replace(/\\/g, '%5C').replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/\t/g, '%09');
  const u = new URL('file://');
  u.pathname = encoded;
  return u;
}

function urlToHttpOptions(url) {
  const options = {
    protocol: url.protocol,
    hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
    hash: url.hash,
    search: url.search,
    pathname: url.pathname,
    path: `${url.pathname || ''}${url.search || ''}`,
    href: url.href,
  };
  if (url.port !== '') options.port = Number(url.port);
  if (url.username || url.password) options.auth = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return options;
}

export const url = {
  URL,
  URLSearchParams,
  Url,
  parse,
  format,
  resolve,
  resolveObject: (from, to) => parse(resolve(from, to)),
  fileURLToPath,
  pathToFileURL,
  urlToHttpOptions,
  domainToASCII: (d) => op('url.legacy', { fn: 'domainToASCII', input: String(d) }),
  domainToUnicode: (d) => op('url.legacy', { fn: 'domainToUnicode', input: String(d) }),
};
