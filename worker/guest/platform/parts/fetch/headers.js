// Headers (Fetch Standard): lowercased names, combined values, sorted iteration with
// Set-Cookie kept apart, and the immutable guard of Response.error()/redirect() headers.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const state = new WeakMap(); // Headers → { list: [[name, value]], guard }

function h(headers) {
  const s = state.get(headers);
  if (s === undefined) throw new TypeError('Illegal invocation');
  return s;
}

// A ByteString (WebIDL): a code unit above 0xFF is a TypeError, not a lossy conversion.
function byteString(v, method) {
  const str = `${v}`; // ToString: a Symbol is a TypeError
  if (/[^\0-\xff]/.test(str)) throw new TypeError(`Headers.${method}: cannot convert "${str}" to a ByteString (a character is above U+00FF).`);
  return str;
}

function normalizeValue(v, method) {
  return byteString(v, method).replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
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
  if (init === undefined) return;
  if (init === null) throw new TypeError("Failed to construct 'Headers': The provided value is not of type '(record<ByteString, ByteString> or sequence<sequence<ByteString>>)'.");
  if (typeof init !== 'object' && typeof init !== 'function') throw new TypeError("Failed to construct 'Headers': The provided value is not of type '(record<ByteString, ByteString> or sequence<sequence<ByteString>>)'.");
  const method = init[Symbol.iterator]; // read once (WebIDL union conversion)
  // Another Headers is a sequence like any other; its list is copied directly unless a script
  // gave it an @@iterator of its own, which is then what is iterated.
  // (A brand check, not `instanceof`: that would run a Proxy's getPrototypeOf trap, a step
  // WebIDL's record conversion does not take.)
  if (state.has(init) && method === Headers.prototype[Symbol.iterator]) {
    for (const [k, v] of h(init).list) headers.append(k, v);
    return;
  }
  if (method !== undefined && method !== null) {
    if (typeof method !== 'function') throw new TypeError("Failed to construct 'Headers': @@iterator is not callable.");
    for (const pair of { [Symbol.iterator]: () => method.call(init) }) {
      const arr = typeof pair === 'string' ? [] : [...pair];
      if (arr.length !== 2) throw new TypeError("Failed to construct 'Headers': Invalid value");
      headers.append(arr[0], arr[1]);
    }
    return;
  }
  // record<ByteString, ByteString> (WebIDL § 3.2.25): every own key, symbols included (a TypeError),
  // each enumerable one's value read right after its descriptor.
  const pairs = [];
  for (const key of Reflect.ownKeys(init)) {
    const desc = Reflect.getOwnPropertyDescriptor(init, key);
    if (desc === undefined || !desc.enumerable) continue;
    pairs.push([byteString(key, 'append'), byteString(init[key], 'append')]);
  }
  for (const [name, value] of pairs) headers.append(name, value);
}

export class Headers {
  constructor(init = undefined) {
    state.set(this, { list: [], guard: 'none', version: 0 });
    fill(this, init);
  }
  append(name, value) {
    const s = h(this);
    const n = `${name}`;
    const v = normalizeValue(value, 'append');
    validate(n, v, 'append');
    checkGuard(s);
    s.list.push([n.toLowerCase(), v]);
    s.version++;
  }
  delete(name) {
    const s = h(this);
    const n = `${name}`;
    validate(n, undefined, 'delete');
    checkGuard(s);
    const lower = n.toLowerCase();
    s.list = s.list.filter(([k]) => k !== lower);
    s.version++;
  }
  get(name) {
    const n = `${name}`;
    validate(n, undefined, 'get');
    const lower = n.toLowerCase();
    const values = h(this).list.filter(([k]) => k === lower).map(([, v]) => v);
    return values.length === 0 ? null : values.join(', ');
  }
  getSetCookie() {
    return h(this).list.filter(([k]) => k === 'set-cookie').map(([, v]) => v);
  }
  has(name) {
    const n = `${name}`;
    validate(n, undefined, 'has');
    const lower = n.toLowerCase();
    return h(this).list.some(([k]) => k === lower);
  }
  set(name, value) {
    const s = h(this);
    const n = `${name}`;
    const v = normalizeValue(value, 'set');
    validate(n, v, 'set');
    checkGuard(s);
    const lower = n.toLowerCase();
    const i = s.list.findIndex(([k]) => k === lower);
    s.version++;
    if (i < 0) { s.list.push([lower, v]); return; }
    s.list[i] = [lower, v];
    s.list = s.list.filter(([k], j) => j <= i || k !== lower);
  }
  forEach(callback, thisArg = undefined) {
    for (const [k, v] of this) callback.call(thisArg, v, k, this);
  }
  entries() { return iterator(this, 'entries'); }
  keys() { return iterator(this, 'keys'); }
  values() { return iterator(this, 'values'); }
  [Symbol.iterator]() { return iterator(this, 'entries'); }
  [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {
    const obj = {};
    for (const [k, v] of this) obj[k] = v;
    return `Headers ${inspect(obj, options)}`;
  }
}
Object.defineProperty(Headers.prototype, Symbol.toStringTag, { value: 'Headers', configurable: true });

// Iteration (Fetch § 5.2 and WebIDL pair iterators): the pairs are the header list sorted by name
// and combined, except Set-Cookie values, which stay apart. They are recomputed when the list
// changes, so an iterator sees deletions made while iterating, as in Node and browsers.
function sortAndCombine(s) {
  const names = [...new Set(s.list.map(([k]) => k))].sort();
  const pairs = [];
  for (const name of names) {
    const values = s.list.filter(([k]) => k === name).map(([, v]) => v);
    if (name === 'set-cookie') for (const v of values) pairs.push([name, v]);
    else pairs.push([name, values.join(', ')]);
  }
  return pairs;
}

/* global __runjs_P */ // the captured primordials
const iterators = new WeakMap(); // Headers iterator → { headers, kind, index, pairs, version }
const HeadersIteratorPrototype = Object.create(__runjs_P.boot_Iterator_proto, {
  next: {
    value: function next() {
      const it = iterators.get(this);
      if (it === undefined) throw new TypeError('Illegal invocation');
      const s = h(it.headers);
      if (it.version !== s.version) { it.pairs = sortAndCombine(s); it.version = s.version; }
      if (it.index >= it.pairs.length) return { value: undefined, done: true };
      const [k, v] = it.pairs[it.index++];
      return { value: it.kind === 'keys' ? k : it.kind === 'values' ? v : [k, v], done: false };
    },
    writable: true, enumerable: true, configurable: true,
  },
  [Symbol.toStringTag]: { value: 'Headers Iterator', configurable: true },
});

function iterator(headers, kind) {
  const s = h(headers);
  const it = Object.create(HeadersIteratorPrototype);
  iterators.set(it, { headers, kind, index: 0, pairs: sortAndCombine(s), version: s.version });
  return it;
}
