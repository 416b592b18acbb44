// URLPattern (WHATWG URL Pattern, as Node 24 has it: global and node:url). Matching is Node's own
// (ada's url_pattern) on the host: the guest keeps the constructor's arguments, op url.pattern
// compiles them (the component patterns, or Node's TypeError) and runs test/exec against them.
import { op } from './host.js';

const INIT_KEYS = ['protocol', 'username', 'password', 'hostname', 'port', 'pathname', 'search', 'hash', 'baseURL'];
const COMPONENTS = ['protocol', 'username', 'password', 'hostname', 'port', 'pathname', 'search', 'hash'];
const state = new WeakMap();

/** A URLPatternInit as plain strings (WebIDL: each member present is converted once); other input as it is, for Node to reject. */
function convertInput(input) {
  if (typeof input !== 'object' || input === null) return input;
  const init = {};
  for (const key of INIT_KEYS) {
    const v = input[key];
    if (v !== undefined) init[key] = String(v);
  }
  return init;
}

function initDictionary(input) {
  const init = {};
  for (const key of INIT_KEYS) init[key] = input[key] === undefined ? undefined : String(input[key]);
  return init;
}

/** `(input, baseURL)` as the host receives them: no trailing undefined. */
function matchArgs(input, baseURL) {
  if (input === undefined && baseURL === undefined) return [];
  const args = [input === undefined ? {} : convertInput(input)];
  if (baseURL !== undefined) args.push(String(baseURL));
  return args;
}

function brand(p) {
  const s = state.get(p);
  if (s === undefined) throw new TypeError('Receiver must be an instance of class URLPattern');
  return s;
}

export class URLPattern {
  constructor(input = undefined, baseURL = undefined, options = undefined) {
    const args = [];
    if (typeof baseURL === 'object' && baseURL !== null && options === undefined) {
      options = baseURL;
      baseURL = undefined;
    }
    if (input !== undefined || baseURL !== undefined || options !== undefined) args.push(input === undefined ? {} : convertInput(input));
    if (baseURL !== undefined) args.push(String(baseURL));
    // Node's two forms: (input, baseURL, options) and (input, options).
    if (options !== undefined && options !== null) args.push({ ignoreCase: Boolean(options.ignoreCase) });
    const sent = args;
    const parts = op('url.pattern', [sent, null]);
    state.set(this, { args: sent, parts });
  }
  get protocol() { return brand(this).parts[0]; }
  get username() { return brand(this).parts[1]; }
  get password() { return brand(this).parts[2]; }
  get hostname() { return brand(this).parts[3]; }
  get port() { return brand(this).parts[4]; }
  get pathname() { return brand(this).parts[5]; }
  get search() { return brand(this).parts[6]; }
  get hash() { return brand(this).parts[7]; }
  get hasRegExpGroups() { return brand(this).parts[8]; }

  test(input = undefined, baseURL = undefined) {
    return op('url.pattern', [brand(this).args, { fn: 'test', input: matchArgs(input, baseURL) }]);
  }

  exec(input = undefined, baseURL = undefined) {
    const r = op('url.pattern', [brand(this).args, { fn: 'exec', input: matchArgs(input, baseURL) }]);
    if (r === null) return null;
    // As Node's: a null-prototype result with its keys in this (alphabetical) order, `inputs` holding
    // an init as its converted dictionary (every member, undefined where absent), each `groups` an
    // object one plain object away from Object.prototype, and a group that did not match undefined.
    const out = Object.create(null);
    const shown = typeof input === 'object' && input !== null ? initDictionary(input) : input;
    const inputs = baseURL === undefined ? [shown] : [shown, baseURL];
    for (const key of ['hash', 'hostname', 'inputs', 'password', 'pathname', 'port', 'protocol', 'search', 'username']) {
      if (key === 'inputs') { out.inputs = inputs; continue; }
      const [text, groups] = r[COMPONENTS.indexOf(key)];
      const g = Object.create({});
      for (const [k, v] of groups) g[k] = v === null ? undefined : v;
      out[key] = { groups: g, input: text };
    }
    return out;
  }
}
