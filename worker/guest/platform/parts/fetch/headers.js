// Headers (Fetch Standard): lowercased names, combined values, sorted iteration with
// Set-Cookie kept apart, and the immutable guard of Response.error()/redirect() headers.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const state = new WeakMap(); // Headers → { list: [[name, value]], guard }

function h(headers) {
  const s = state.get(headers);
  if (s === undefined) throw new TypeError('Illegal invocation');
  return s;
}

function normalizeValue(v) {
  return String(v).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
}

function validate(name, value, method) {
  if (!TOKEN.test(name)) throw new TypeError(`Headers.${method}: "${name}" is an invalid header name.`);
  if (value !== undefined && /[\0\r\n]/.test(value)) throw new TypeError(`Headers.${method}: "${value}" is an invalid header value.`);
}

function checkGuard(s) {
  if (s.guard === 'immutable') throw new TypeError('Headers are immutable');
}

export function setGuard(headers, guard) {
  h(headers).guard = guard;
}

export function fill(headers, init) {
  if (init === undefined || init === null) return;
  if (init instanceof Headers) {
    for (const [k, v] of h(init).list) headers.append(k, v);
    return;
  }
  if (typeof init !== 'object') throw new TypeError("Failed to construct 'Headers': The provided value is not of type '(record<ByteString, ByteString> or sequence<sequence<ByteString>>)'.");
  if (typeof init[Symbol.iterator] === 'function') {
    for (const pair of init) {
      const arr = typeof pair === 'string' ? [] : [...pair];
      if (arr.length !== 2) throw new TypeError("Failed to construct 'Headers': Invalid value");
      headers.append(arr[0], arr[1]);
    }
    return;
  }
  for (const key of Object.keys(init)) headers.append(key, init[key]);
}

export class Headers {
  constructor(init = undefined) {
    state.set(this, { list: [], guard: 'none' });
    fill(this, init);
  }
  append(name, value) {
    const s = h(this);
    const n = String(name);
    const v = normalizeValue(value);
    validate(n, v, 'append');
    checkGuard(s);
    s.list.push([n.toLowerCase(), v]);
  }
  delete(name) {
    const s = h(this);
    const n = String(name);
    validate(n, undefined, 'delete');
    checkGuard(s);
    const lower = n.toLowerCase();
    s.list = s.list.filter(([k]) => k !== lower);
  }
  get(name) {
    const n = String(name);
    validate(n, undefined, 'get');
    const lower = n.toLowerCase();
    const values = h(this).list.filter(([k]) => k === lower).map(([, v]) => v);
    return values.length === 0 ? null : values.join(', ');
  }
  getSetCookie() {
    return h(this).list.filter(([k]) => k === 'set-cookie').map(([, v]) => v);
  }
  has(name) {
    const n = String(name);
    validate(n, undefined, 'has');
    const lower = n.toLowerCase();
    return h(this).list.some(([k]) => k === lower);
  }
  set(name, value) {
    const s = h(this);
    const n = String(name);
    const v = normalizeValue(value);
    validate(n, v, 'set');
    checkGuard(s);
    const lower = n.toLowerCase();
    const i = s.list.findIndex(([k]) => k === lower);
    if (i < 0) { s.list.push([lower, v]); return; }
    s.list[i] = [lower, v];
    s.list = s.list.filter(([k], j) => j <= i || k !== lower);
  }
  forEach(callback, thisArg = undefined) {
    for (const [k, v] of this) callback.call(thisArg, v, k, this);
  }
  *entries() {
    const s = h(this);
    const names = [...new Set(s.list.map(([k]) => k))].sort();
    for (const name of names) {
      if (name === 'set-cookie') {
        for (const v of this.getSetCookie()) yield [name, v];
      } else yield [name, this.get(name)];
    }
  }
  *keys() { for (const [k] of this.entries()) yield k; }
  *values() { for (const [, v] of this.entries()) yield v; }
  [Symbol.iterator]() { return this.entries(); }
  [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
    const obj = {};
    for (const [k, v] of this) obj[k] = v;
    return `Headers ${inspect(obj, options)}`;
  }
}
Object.defineProperty(Headers.prototype, Symbol.toStringTag, { value: 'Headers', configurable: true });
