// node:url: the WHATWG URL classes (core), file-URL helpers, and the legacy url.parse/format/
// resolve API (parsed on the host by Node's own legacy parser, op url.legacy).
import core from 'runjs:part/core';
import { qs } from './querystring.js';

const { op, nodeError, invalidArgType } = core.shared;
const { URL, URLSearchParams } = core.globals;
const str = (v) => { if (typeof v === 'symbol') throw new TypeError('Cannot convert a Symbol value to a string'); return `${v}`; };

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
  parse(input, parseQueryString = false, slashesDenoteHost = false) {
    const parsed = parseUrl(input, parseQueryString, slashesDenoteHost);
    for (const k of Object.keys(parsed)) this[k] = parsed[k];
    return this;
  }
  format() { return format(this); }
  resolve(relative) { return resolveObjectOn(this, legacyUrlArg(relative), true); }
  resolveObject(relative) { return resolveObjectOn(this, relative, false); }
  /** Node's: splits `host` into `hostname` and `port` (a trailing `:digits`). */
  parseHost() {
    let host = this.host;
    const port = /:[0-9]*$/.exec(host);
    if (port !== null) {
      if (port[0] !== ':') this.port = port[0].slice(1);
      host = host.slice(0, host.length - port[0].length);
    }
    if (host) this.hostname = host;
  }
}
// Node assigns Url's methods to its prototype, so they are enumerable (for…in over a Url lists them).
for (const name of ['parse', 'format', 'resolve', 'resolveObject', 'parseHost']) {
  Object.defineProperty(Url.prototype, name, { enumerable: true });
}

/** What Node's legacy functions accept where they call url.parse: a string or a Url. */
function legacyUrlArg(v) {
  if (typeof v !== 'string' && !(v instanceof Url)) throw invalidArgType('url', 'of type string', v);
  return v;
}

/**
 * An operand of the host's Url#resolveObject: a string as it is, an object as its own fields
 * (Node treats a Url's missing fields as null, a plain object's as undefined, hence `url`).
 */
function legacyOperand(v) {
  if (typeof v === 'string') return v;
  const fields = {};
  if ((typeof v === 'object' || typeof v === 'function') && v !== null) {
    for (const k of Object.keys(v)) if (typeof v[k] !== 'function') fields[k] = v[k];
  }
  return { url: v instanceof Url, fields };
}

/** Node's Url#resolveObject, run on the host: a new Url, or (asString) url.resolve's string. */
function resolveObjectOn(source, relative, asString) {
  const result = legacyOp({ fn: 'resolveObject', source: legacyOperand(source), relative: legacyOperand(relative), format: asString });
  if (asString) return result;
  const u = new Url();
  Object.assign(u, result.fields);
  for (const k of result.undefinedKeys) u[k] = undefined;
  return u;
}

/** Node 24 warns on the first url.parse() of a process (DEP0169); runjs once per realm. */
let parseWarned = false;
/** And once when a parsed host keeps a `:` that is no port (DEP0170): the host says which URL. */
let portWarned = false;

/** A legacy-parser op (parse, format, resolve, resolveObject): its value, after Node's DEP0170. */
function legacyOp(args) {
  const { value, invalidPortUrl } = op('url.legacy', args);
  if (invalidPortUrl !== null && !portWarned) {
    portWarned = true;
    process.emitWarning(`The URL ${invalidPortUrl} is invalid. Future versions of Node.js will throw an error.`, 'DeprecationWarning', 'DEP0170');
  }
  return value;
}

function parse(input, parseQueryString = false, slashesDenoteHost = false) {
  if (!parseWarned) {
    parseWarned = true;
    process.emitWarning('`url.parse()` behavior is not standardized and prone to errors that have security implications. Use the WHATWG URL API instead. CVEs are not issued for `url.parse()` vulnerabilities.', 'DeprecationWarning', 'DEP0169');
  }
  return parseUrl(input, parseQueryString, slashesDenoteHost);
}

/** url.parse without the warning: what format, resolve and resolveObject use, as Node's do. */
function parseUrl(input, parseQueryString = false, slashesDenoteHost = false) {
  if (input instanceof Url) return input;
  if (typeof input !== 'string') throw invalidArgType('url', 'of type string', input);
  let fields;
  try {
    fields = legacyOp({ fn: 'parse', input, slashesDenoteHost: !!slashesDenoteHost });
  } catch (e) {
    if (e !== null && typeof e === 'object' && e.code === 'ERR_INVALID_URL') e.input = input; // as Node's error
    throw e;
  }
  const u = new Url();
  Object.assign(u, fields);
  if (parseQueryString) u.query = qs.parse(typeof u.query === 'string' ? u.query : '');
  return u;
}

function format(obj, options = undefined) {
  if (typeof obj === 'string') obj = parseUrl(obj);
  else if (typeof obj !== 'object' || obj === null) throw invalidArgType('urlObject', 'one of type object or string', obj);
  if (obj instanceof URL) {
    if (options) validateObject(options, 'options');
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
  return legacyOp({ fn: 'format', object: plain });
}

/** url.resolve(from, to): Node parses both (strings or Urls) and formats the resolved Url. */
function resolve(from, to) {
  legacyUrlArg(from);
  legacyUrlArg(to);
  if (typeof from === 'string' && typeof to === 'string') return legacyOp({ fn: 'resolve', base: from, input: to });
  return resolveObjectOn(from, to, true);
}

/** url.resolveObject(source, relative): a falsy source gives `relative` back, as in Node. */
function resolveObject(source, relative) {
  if (!source) return relative;
  return resolveObjectOn(legacyUrlArg(source), relative, false);
}

function validateObject(value, name) {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidArgType(name, 'of type object', value);
}

function fileURLToPath(url, options = undefined) {
  const u = typeof url === 'string' ? new URL(url) : url;
  if (!(u instanceof URL)) throw invalidArgType('path', 'of type string or an instance of URL', url);
  if (u.protocol !== 'file:') throw nodeError(TypeError, 'ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
  if (options?.windows) return windowsPath(u);
  if (u.hostname !== '') throw nodeError(TypeError, 'ERR_INVALID_FILE_URL_HOST', 'File URL host must be "localhost" or empty on linux');
  const pathname = u.pathname;
  if (/%2f/i.test(pathname)) throw nodeError(TypeError, 'ERR_INVALID_FILE_URL_PATH', 'File URL path must not include encoded / characters');
  return decodeURIComponent(pathname);
}

/** Node's getPathFromURLWin32: drive-letter paths and UNC hosts, backslashes. */
function windowsPath(u) {
  let pathname = u.pathname;
  if (/%(2f|5c)/i.test(pathname)) throw nodeError(TypeError, 'ERR_INVALID_FILE_URL_PATH', 'File URL path must not include encoded \\ or / characters');
  pathname = decodeURIComponent(pathname.replaceAll('/', '\\'));
  if (u.hostname !== '') return `\\\\${url.domainToUnicode(u.hostname)}${pathname}`;
  const letter = pathname.codePointAt(1) | 0x20;
  if (letter < 97 || letter > 122 || pathname[2] !== ':') throw nodeError(TypeError, 'ERR_INVALID_FILE_URL_PATH', 'File URL path must be absolute');
  return pathname.slice(1);
}

function fileURLToPathBuffer(u, options = undefined) {
  return core.shared.requirePart('buffer').globals.Buffer.from(fileURLToPath(u, options));
}

/**
 * The characters Node 24's pathToFileURL escapes beyond what the pathname setter escapes (and `%`
 * first, so a path's own `%` survives): ada's file-path conversion also escapes `[`, `]`, `|`
 * and `~`, and newline, CR and tab (which the setter would drop).
 */
const escapePathChars = (path) => path.replace(/%/g, '%25').replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/\t/g, '%09')
  .replace(/\[/g, '%5B').replace(/\]/g, '%5D').replace(/\|/g, '%7C').replace(/~/g, '%7E');

/** A path string as util.inspect shows it in ERR_INVALID_ARG_VALUE (single quotes, `\\` doubled). */
const shownPath = (p) => `'${p.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function pathToFileURL(path, options = undefined) {
  if (typeof path !== 'string') throw invalidArgType('path', 'of type string', path);
  if (options?.windows) {
    // A UNC path (`\\server\share\…`, or the extended `\\?\UNC\server\…`) names its server as the
    // URL's host, as in Node; `\\?\C:\…` is the extended form of a drive path.
    const extended = path.startsWith('\\\\?\\') && !path.startsWith('\\\\?\\UNC\\');
    const unc = !extended && path.startsWith('\\\\');
    let resolved = unc ? path : core.shared.requirePart('path').modules.path.win32.resolve(extended ? path.slice(4) : path);
    if (unc) {
      const prefix = resolved.startsWith('\\\\?\\UNC\\') ? 8 : 2;
      const hostEnd = resolved.indexOf('\\', prefix);
      if (hostEnd === -1) throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'path' Missing UNC resource path. Received ${shownPath(resolved)}`);
      if (hostEnd === 2) throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'path' Empty UNC servername. Received ${shownPath(resolved)}`);
      const u = new URL('file://');
      u.hostname = resolved.slice(prefix, hostEnd);
      u.pathname = escapePathChars(resolved.slice(hostEnd)).replace(/\\/g, '/');
      return u;
    }
    if ((path.endsWith('\\') || path.endsWith('/')) && !resolved.endsWith('\\')) resolved += '/';
    const u = new URL('file://');
    u.pathname = escapePathChars(resolved).replace(/\\/g, '/');
    return u;
  }
  let resolved = core.shared.requirePart('path').modules.path.resolve(path);
  if (path.endsWith('/') && !resolved.endsWith('/')) resolved += '/';
  const u = new URL('file://');
  u.pathname = escapePathChars(resolved).replace(/\\/g, '%5C');
  return u;
}

/**
 * Node's urlToHttpOptions: each component read once, so a plain copy of a URL (`{ ...url }`, which
 * has none of the accessors) gives undefined components, an empty path and a NaN port.
 */
function urlToHttpOptions(url) {
  const { hostname, pathname, port, username, password, search } = url;
  const options = {
    __proto__: null,
    ...url, // as Node: properties a script added to the URL object
    protocol: url.protocol,
    hostname: hostname && hostname.startsWith('[') ? hostname.slice(1, -1) : hostname,
    hash: url.hash,
    search,
    pathname,
    path: `${pathname || ''}${search || ''}`,
    href: url.href,
  };
  if (port !== '') options.port = Number(port);
  if (username || password) options.auth = `${decodeURIComponent(username)}:${decodeURIComponent(password)}`;
  return options;
}

export const url = {
  URL,
  URLSearchParams,
  // Its own part, evaluated when first read (an import of node:url reads it).
  get URLPattern() { return core.host.requirePart('urlpattern').globals.URLPattern; },
  Url,
  parse,
  format,
  resolve,
  resolveObject,
  fileURLToPath,
  fileURLToPathBuffer,
  pathToFileURL,
  urlToHttpOptions,
  domainToASCII(domain) {
    if (arguments.length < 1) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "domain" argument must be specified');
    return op('url.legacy', { fn: 'domainToASCII', input: str(domain) });
  },
  domainToUnicode(domain) {
    if (arguments.length < 1) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "domain" argument must be specified');
    return op('url.legacy', { fn: 'domainToUnicode', input: str(domain) });
  },
};
