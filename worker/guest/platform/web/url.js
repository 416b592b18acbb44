// URL and URLSearchParams (URL Standard). Parsing and the setters run on the host's WHATWG URL
// parser (op url.parse / url.set: Node's ada, which passes the WPT url suite); URLSearchParams
// and the application/x-www-form-urlencoded rules are implemented here.
import { createObjectURL, revokeObjectURL } from './object-urls.js';
import { op } from './host.js';
import { nodeError } from './errors.js';
import { utf8Encode, utf8Decode } from './encoding.js';
import { describeType } from './microtask.js';

// The component record the host returns, by index.
const HREF = 0, ORIGIN = 1, PROTOCOL = 2, USERNAME = 3, PASSWORD = 4, HOST = 5, HOSTNAME = 6, PORT = 7, PATHNAME = 8, SEARCH = 9, HASH = 10;

const urls = new WeakMap(); // URL → { parts, params }

function invalidUrl(input, base) {
  const e = nodeError(TypeError, 'ERR_INVALID_URL', 'Invalid URL');
  e.input = input;
  if (base !== undefined) e.base = base;
  return e;
}

/**
 * The URL's state, or the TypeError V8 gives Node's URL class for a receiver that is not a URL:
 * its private-field checks. `toString`, `toJSON` and the `href`/`search` getters go through a
 * brand check ("Receiver must be an instance of class URL"); the other accessors read the private
 * `#context` (or `#searchParams`) directly. Both engines throw V8's text.
 */
function u(url, member = undefined) {
  const s = urls.get(url);
  if (s === undefined) {
    throw new TypeError(member === undefined ? 'Receiver must be an instance of class URL' : `Cannot read private member ${member} from an object whose class did not declare it`);
  }
  return s;
}
const C = '#context';

/** ToString as WebIDL's DOMString/USVString conversions do it: a Symbol throws (V8's text on both engines). */
export function str(v) {
  if (typeof v === 'symbol') throw new TypeError('Cannot convert a Symbol value to a string');
  return `${v}`;
}

/**
 * Parse results by input (and base): parsing is a pure function of them, and scripts often parse
 * the same URLs again and again (each op is a host round trip). The records are never changed in
 * place (setters replace a URL's record), so URLs can share them. Bounded: cleared when full.
 */
const parsed = new Map();
const PARSED_MAX = 512;

function parse(input, base) {
  // The base's length leads the key: a NUL inside the base or the input cannot make two
  // (input, base) pairs share one key.
  const key = base === undefined ? input : `${base.length}:${base}\u0000${input}`;
  const hit = parsed.get(key);
  if (hit !== undefined) return hit;
  const parts = op('url.parse', base === undefined ? [input] : [input, base]);
  if (parsed.size >= PARSED_MAX) parsed.clear();
  parsed.set(key, parts);
  return parts;
}

/** Node defines its URL classes' string-named members enumerable (Web IDL's shape); classes do not. */
function makeEnumerable(target) {
  for (const name of Object.getOwnPropertyNames(target)) {
    if (name === 'constructor' || name === 'prototype' || name === 'length' || name === 'name') continue;
    const d = Object.getOwnPropertyDescriptor(target, name);
    d.enumerable = true;
    Object.defineProperty(target, name, d);
  }
}

/** Redefines `names` on `target`, enumerable and in this order (the order for…in lists them in). */
function inNodeOrder(target, names) {
  for (const name of names) {
    const d = Object.getOwnPropertyDescriptor(target, name);
    delete target[name];
    d.enumerable = true;
    Object.defineProperty(target, name, d);
  }
}

function setPart(url, name, value) {
  const s = u(url, C);
  const parts = op('url.set', [s.parts[HREF], name, str(value)]);
  if (parts === null) return false;
  s.parts = parts;
  if (s.params !== undefined && (name === 'search' || name === 'href')) replaceList(s.params, parseUrlencoded(parts[SEARCH].slice(1)));
  return true;
}

/** The nearest `constructor` own property on the prototype chain (Node's getConstructorOf). */
function constructorOf(obj) {
  for (let o = obj; o !== null; o = Object.getPrototypeOf(o)) {
    const d = Object.getOwnPropertyDescriptor(o, 'constructor');
    if (d !== undefined && typeof d.value === 'function' && d.value.name !== '') return d.value;
  }
  return undefined;
}

const contextForInspect = Symbol('context');
/** ada's marker for an absent component (uint32_t(-1)). */
const OMITTED = 4294967295;
const SCHEME_TYPES = { 'http:': 0, 'https:': 2, 'ws:': 3, 'ftp:': 4, 'wss:': 5, 'file:': 6 };

/**
 * Node's URLContext: the offsets of ada's url_aggregator into href, which
 * `inspect(url, { showHidden: true })` shows. runjs keeps components, not offsets; they are
 * worked out from the href and the components (a path never holds a raw `?` or `#`).
 */
class URLContext {
  href = '';
  protocol_end = 0;
  username_end = 0;
  host_start = 0;
  host_end = 0;
  pathname_start = 0;
  search_start = 0;
  hash_start = 0;
  port = 0;
  scheme_type = 1;
  get hasPort() { return this.port !== OMITTED; }
  get hasSearch() { return this.search_start !== OMITTED; }
  get hasHash() { return this.hash_start !== OMITTED; }
}
Object.defineProperty(URLContext, 'name', { value: 'URLContext' });

function urlContext(p) {
  const c = new URLContext();
  const href = p[HREF];
  c.href = href;
  let i = p[PROTOCOL].length;
  c.protocol_end = i;
  if (href.startsWith('//', i)) {
    i += 2 + p[USERNAME].length;
    c.username_end = i;
    if (p[PASSWORD] !== '') i += 1 + p[PASSWORD].length;
    c.host_start = i; // at the "@" when there are credentials
    if (p[USERNAME] !== '' || p[PASSWORD] !== '') i += 1;
    i += p[HOSTNAME].length;
    c.host_end = i;
  } else {
    c.username_end = c.host_start = c.host_end = i;
    // A path starting "//" without a host is serialized after "/." (which is not the path's).
    if (href.startsWith('/.', i) && p[PATHNAME].startsWith('//')) i += 2;
  }
  if (p[PORT] !== '') {
    c.port = Number(p[PORT]);
    i += 1 + p[PORT].length;
  } else c.port = OMITTED;
  c.pathname_start = i;
  const hash = href.indexOf('#', i);
  const search = href.indexOf('?', i);
  c.search_start = search !== -1 && (hash === -1 || search < hash) ? search : OMITTED;
  c.hash_start = hash !== -1 ? hash : OMITTED;
  c.scheme_type = Object.hasOwn(SCHEME_TYPES, p[PROTOCOL]) ? SCHEME_TYPES[p[PROTOCOL]] : 1;
  return c;
}

export class URL {
  constructor(url, base = undefined) {
    if (arguments.length === 0) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "url" argument must be specified');
    const input = str(url);
    const b = base === undefined ? undefined : str(base);
    const parts = parse(input, b);
    if (parts === null) throw invalidUrl(input, b);
    urls.set(this, { parts, params: undefined });
  }
  static canParse(url, base = undefined) {
    if (arguments.length === 0) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "url" argument must be specified');
    return parse(str(url), base === undefined ? undefined : str(base)) !== null;
  }
  static createObjectURL(obj) { return createObjectURL(obj); }
  static revokeObjectURL(url) { if (arguments.length === 0) revokeObjectURL(); else revokeObjectURL(url); }
  static parse(url, base = undefined) {
    if (arguments.length === 0) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "url" argument must be specified');
    const parts = parse(str(url), base === undefined ? undefined : str(base));
    if (parts === null) return null;
    const result = Object.create(URL.prototype);
    urls.set(result, { parts, params: undefined });
    return result;
  }
  get href() { return u(this).parts[HREF]; }
  set href(v) {
    u(this, C);
    const input = str(v);
    if (!setPart(this, 'href', input)) throw invalidUrl(input);
  }
  get origin() { return u(this, C).parts[ORIGIN]; }
  get protocol() { return u(this, C).parts[PROTOCOL]; }
  set protocol(v) { setPart(this, 'protocol', v); }
  get username() { return u(this, C).parts[USERNAME]; }
  set username(v) { setPart(this, 'username', v); }
  get password() { return u(this, C).parts[PASSWORD]; }
  set password(v) { setPart(this, 'password', v); }
  get host() { return u(this, C).parts[HOST]; }
  set host(v) { setPart(this, 'host', v); }
  get hostname() { return u(this, C).parts[HOSTNAME]; }
  set hostname(v) { setPart(this, 'hostname', v); }
  get port() { return u(this, C).parts[PORT]; }
  set port(v) { setPart(this, 'port', v); }
  get pathname() { return u(this, C).parts[PATHNAME]; }
  set pathname(v) { setPart(this, 'pathname', v); }
  get search() { return u(this).parts[SEARCH]; }
  set search(v) { setPart(this, 'search', v); }
  get searchParams() {
    const s = u(this, '#searchParams');
    if (s.params === undefined) {
      // The URL's query is parsed as it is: a second "?" (a URL "??a=b") is part of the first
      // name, not a prefix the URLSearchParams constructor would strip from a string.
      s.params = new URLSearchParams();
      replaceList(s.params, parseUrlencoded(s.parts[SEARCH].slice(1)));
      paramsOwner.set(s.params, this);
    }
    return s.params;
  }
  get hash() { return u(this, C).parts[HASH]; }
  set hash(v) { setPart(this, 'hash', v); }
  toString() { return u(this).parts[HREF]; }
  toJSON() { return u(this).parts[HREF]; }
  [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
    // As Node: past the depth limit the URL is shown as an object without own properties; the
    // components are read through the getters (a subclass's own show) under its class's name,
    // and showHidden adds the parser's record (Node's URLContext, ada's offsets).
    if (typeof depth === 'number' && depth < 0) return this;
    const p = u(this).parts;
    const obj = {
      href: this.href, origin: this.origin, protocol: this.protocol, username: this.username, password: this.password,
      host: this.host, hostname: this.hostname, port: this.port, pathname: this.pathname, search: this.search,
      searchParams: this.searchParams, hash: this.hash,
    };
    if (options.showHidden) obj[contextForInspect] = urlContext(p);
    return `${constructorOf(this)?.name ?? 'URL'} ${inspect(obj, options)}`;
  }
}
// Node's order (for…in over a URL lists toString, the accessors, toJSON; URL's statics parse first)
// is set here rather than by the class body's order: that order, as written, left the QuickJS base
// image 14 pages (0.9 MB) larger — the allocator's layout while the preloaded parts load — and
// made every QuickJS run ~15 % dearer in CPU (restoring the image); this one keeps it at 130.
inNodeOrder(URL.prototype, ['toString', 'href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'searchParams', 'hash', 'toJSON']);
inNodeOrder(URL, ['parse', 'canParse', 'createObjectURL', 'revokeObjectURL']);
Object.defineProperty(URL.prototype, Symbol.toStringTag, { value: 'URL', configurable: true });

// --- application/x-www-form-urlencoded ---

function percentDecode(s) {
  if (!s.includes('%')) return s;
  const bytes = utf8Encode(s);
  const out = new Uint8Array(bytes.length);
  let o = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x25 && i + 2 < bytes.length && isHex(bytes[i + 1]) && isHex(bytes[i + 2])) {
      out[o++] = (hexValue(bytes[i + 1]) << 4) | hexValue(bytes[i + 2]);
      i += 2;
    } else out[o++] = b;
  }
  return utf8Decode(out.subarray(0, o));
}
function isHex(b) {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
}
function hexValue(b) {
  return b <= 0x39 ? b - 0x30 : (b | 0x20) - 0x61 + 10;
}

/** Parses a query string (no leading "?") into [name, value] pairs. */
export function parseUrlencoded(input) {
  const list = [];
  for (const seq of input.split('&')) {
    if (seq === '') continue;
    const eq = seq.indexOf('=');
    const name = eq >= 0 ? seq.slice(0, eq) : seq;
    const value = eq >= 0 ? seq.slice(eq + 1) : '';
    list.push([percentDecode(name.replace(/\+/g, ' ')), percentDecode(value.replace(/\+/g, ' '))]);
  }
  return list;
}

const HEX = '0123456789ABCDEF';
function serializeComponent(s) {
  const bytes = utf8Encode(s);
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x20) out += '+';
    else if (b === 0x2a || b === 0x2d || b === 0x2e || b === 0x5f || (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a)) {
      out += String.fromCharCode(b);
    } else out += `%${HEX[b >> 4]}${HEX[b & 15]}`;
  }
  return out;
}

export function serializeUrlencoded(list) {
  const parts = [];
  for (const [k, v] of list) parts.push(`${serializeComponent(k)}=${serializeComponent(v)}`);
  return parts.join('&');
}

// --- URLSearchParams ---

const lists = new WeakMap(); // URLSearchParams → [[name, value], …]
const paramsOwner = new WeakMap(); // URLSearchParams → URL

function l(p) {
  const v = lists.get(p);
  if (v === undefined) throw nodeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type URLSearchParams');
  return v;
}

function replaceList(params, list) {
  const cur = l(params);
  cur.length = 0;
  for (const pair of list) cur.push(pair);
}

/** USVString conversion: lone surrogates become U+FFFD. */
function usv(v) {
  const s = str(v);
  return s.isWellFormed === undefined ? s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd') : s.toWellFormed();
}

function stripColors(s) {
  return s.replace(/\u001b\[\d\d?m/g, '');
}

function update(params) {
  const url = paramsOwner.get(params);
  if (url === undefined) return;
  const s = urls.get(url);
  // An empty query leaves the URL without "?" (its query becomes null), as the update steps say.
  s.parts = op('url.set', [s.parts[HREF], 'search', serializeUrlencoded(l(params))]);
}

const tupleError = () => nodeError(TypeError, 'ERR_INVALID_TUPLE', 'Each query pair must be an iterable [name, value] tuple');

export class URLSearchParams {
  constructor(init = undefined) {
    let list = [];
    // null is no init, as in Node's current tests (Node 24 itself reads it as the string "null").
    if (init === undefined || init === null) list = [];
    else if (typeof init === 'object' || typeof init === 'function') {
      const method = init[Symbol.iterator]; // read once (WebIDL union conversion)
      // Another URLSearchParams is a sequence like any other: its list is copied directly unless
      // a script gave it an @@iterator of its own, which is then what is iterated.
      if (init instanceof URLSearchParams && method === URLSearchParams.prototype[Symbol.iterator] && lists.has(init)) list = l(init).map(([k, v]) => [k, v]);
      else if (method !== undefined && method !== null) {
        if (typeof method !== 'function') throw nodeError(TypeError, 'ERR_ARG_NOT_ITERABLE', 'Query pairs must be iterable');
        // As Node: every pair is read first; then each, in turn, must have two members and is converted.
        const pairs = [];
        for (const pair of { [Symbol.iterator]: () => method.call(init) }) {
          if ((typeof pair !== 'object' && typeof pair !== 'function') || pair === null || typeof pair[Symbol.iterator] !== 'function') throw tupleError();
          const arr = [];
          for (const x of pair) arr.push(x);
          pairs.push(arr);
        }
        for (const pair of pairs) {
          if (pair.length !== 2) throw tupleError();
          list.push([usv(pair[0]), usv(pair[1])]);
        }
      } else {
        // A record: two keys that convert to the same string keep the first's place, the last's value.
        const seen = new Map();
        for (const key of Reflect.ownKeys(init)) {
          const d = Reflect.getOwnPropertyDescriptor(init, key);
          if (d === undefined || !d.enumerable) continue;
          const k = usv(key);
          const v = usv(init[key]);
          const at = seen.get(k);
          if (at === undefined) seen.set(k, list.push([k, v]) - 1);
          else list[at][1] = v;
        }
      }
    } else {
      let s = usv(init);
      if (s.startsWith('?')) s = s.slice(1);
      list = parseUrlencoded(s);
    }
    lists.set(this, list);
  }
  // Every member checks its receiver first (ERR_INVALID_THIS), then its arguments, as Node's do.
  get size() { return l(this).length; }
  append(name, value) {
    const list = l(this);
    if (arguments.length < 2) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "name" and "value" arguments must be specified');
    list.push([usv(name), usv(value)]);
    update(this);
  }
  delete(name, value = undefined) {
    const list = l(this);
    if (arguments.length < 1) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "name" argument must be specified');
    const n = usv(name);
    const v = value === undefined ? undefined : usv(value);
    for (let i = list.length - 1; i >= 0; i--) if (list[i][0] === n && (v === undefined || list[i][1] === v)) list.splice(i, 1);
    update(this);
  }
  get(name) {
    const list = l(this);
    if (arguments.length < 1) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "name" argument must be specified');
    const n = usv(name);
    for (const [k, v] of list) if (k === n) return v;
    return null;
  }
  getAll(name) {
    const list = l(this);
    if (arguments.length < 1) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "name" argument must be specified');
    const n = usv(name);
    const out = [];
    for (const [k, v] of list) if (k === n) out.push(v);
    return out;
  }
  has(name, value = undefined) {
    const list = l(this);
    if (arguments.length < 1) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "name" argument must be specified');
    const n = usv(name);
    const v = value === undefined ? undefined : usv(value);
    for (const [k, val] of list) if (k === n && (v === undefined || val === v)) return true;
    return false;
  }
  set(name, value) {
    const list = l(this);
    if (arguments.length < 2) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "name" and "value" arguments must be specified');
    const n = usv(name);
    const v = usv(value);
    let found = false;
    for (let i = 0; i < list.length; i++) {
      if (list[i][0] !== n) continue;
      if (!found) { list[i] = [n, v]; found = true; } else { list.splice(i, 1); i--; }
    }
    if (!found) list.push([n, v]);
    update(this);
  }
  sort() {
    const list = l(this);
    // Stable sort by UTF-16 code units of the names.
    const indexed = list.map((pair, i) => [pair, i]);
    indexed.sort((a, b) => (a[0][0] < b[0][0] ? -1 : a[0][0] > b[0][0] ? 1 : a[1] - b[1]));
    replaceList(this, indexed.map((x) => x[0]));
    update(this);
  }
  entries() { return iterate(this, 2); }
  forEach(callback, thisArg = undefined) {
    const list = l(this);
    if (typeof callback !== 'function') throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "callback" argument must be of type function. Received ${describeType(callback)}`);
    for (let i = 0; i < list.length; i++) callback.call(thisArg, list[i][1], list[i][0], this);
  }
  keys() { return iterate(this, 0); }
  values() { return iterate(this, 1); }
  toString() { return serializeUrlencoded(l(this)); }
  [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
    // Node's layout: one line while it fits `breakLength`, else one pair per line.
    const list = l(this);
    if (typeof depth === 'number' && depth < 0) return options.stylize('[Object]', 'special');
    const inner = depth === null ? options : { ...options, depth: depth - 1 };
    const output = list.map(([k, v]) => `${inspect(k, inner)} => ${inspect(v, inner)}`);
    const name = this.constructor.name;
    if (output.length === 0) return `${name} {}`;
    const length = output.reduce((n, s) => n + stripColors(s).length + 2, -2);
    return length > options.breakLength ? `${name} {\n  ${output.join(',\n  ')} }` : `${name} { ${output.join(', ')} }`;
  }
}
makeEnumerable(URLSearchParams.prototype);
// As Web IDL's iterable declaration: @@iterator is `entries` itself (not enumerable).
Object.defineProperty(URLSearchParams.prototype, Symbol.iterator, { value: URLSearchParams.prototype.entries, writable: true, enumerable: false, configurable: true });
Object.defineProperty(URLSearchParams.prototype, Symbol.toStringTag, { value: 'URLSearchParams', configurable: true });

/* global __runjs_P */ // the captured primordials
const IteratorPrototype = __runjs_P.boot_Iterator_proto;
const ParamsIteratorPrototype = Object.create(IteratorPrototype, {
  next: {
    value: function next() {
      const it = iterators.get(this);
      if (it === undefined) throw nodeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type URLSearchParamsIterator');
      const list = l(it.params);
      if (it.index >= list.length) return { value: undefined, done: true };
      const [k, v] = list[it.index++];
      return { value: it.kind === 0 ? k : it.kind === 1 ? v : [k, v], done: false };
    },
    writable: true,
    configurable: true,
  },
  [Symbol.toStringTag]: { value: 'URLSearchParams Iterator', configurable: true },
  // Node shows the entries still to come.
  [Symbol.for('nodejs.util.inspect.custom')]: {
    value: function inspectIterator(depth, options, inspect) {
      const it = iterators.get(this);
      if (it === undefined) throw nodeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type URLSearchParamsIterator');
      if (typeof depth === 'number' && depth < 0) return options.stylize('[Object]', 'special');
      const inner = depth === null ? options : { ...options, depth: depth - 1 };
      const output = l(it.params).slice(it.index).map(([k, v]) => (it.kind === 0 ? k : it.kind === 1 ? v : [k, v]));
      const strs = output.map((x) => inspect(x, inner));
      const body = inspect(output, inner).includes('\n') ? `\n  ${strs.join(',\n  ')}` : ` ${strs.join(', ')}`;
      return `URLSearchParams Iterator {${body} }`;
    },
    writable: true,
    configurable: true,
  },
});
const iterators = new WeakMap();
function iterate(params, kind) {
  l(params);
  const it = Object.create(ParamsIteratorPrototype);
  iterators.set(it, { params, kind, index: 0 });
  return it;
}

// Bundling may rename these classes (a global of the same name is referenced elsewhere).
Object.defineProperty(URL, 'name', { value: 'URL' });
Object.defineProperty(URLSearchParams, 'name', { value: 'URLSearchParams' });
