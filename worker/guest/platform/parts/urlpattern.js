// The URLPattern global and node:url's URLPattern (Node 24 has both), from urlpattern-polyfill:
// the WHATWG URL Pattern standard written in JavaScript, so the regular expressions a pattern
// compiles to run in the guest, under the run's own limits (Node's is ada's C++ on V8's RegExp).
// This class gives it Node 24's argument errors (codes and texts) and Node's member order in
// exec()'s results; the polyfill itself is a part of its own (parts/urlpattern-polyfill.js),
// evaluated when the first URLPattern is made, so importing node:url does not pay for it.
import core from 'runjs:part/core';

const { nodeError } = core.shared;
let polyfillClass;
const polyfill = () => (polyfillClass ??= core.host.requirePart('urlpattern-polyfill').URLPattern);

const isInput = (v) => typeof v === 'string' || (typeof v === 'object' && v !== null);

// exec() returns WebIDL dictionaries: URLPatternResult and its component results with their
// members in lexicographic order (`hash` first, `groups` before `input`); an input given as a
// URLPatternInit keeps its members in the dictionary's declared order. So Node's come out.
const INIT_ORDER = ['protocol', 'username', 'password', 'hostname', 'port', 'pathname', 'search', 'hash', 'baseURL'];
function sorted(dict) {
  const out = {};
  for (const k of Object.keys(dict).sort()) out[k] = dict[k];
  return out;
}
function initInOrder(init) {
  if (typeof init !== 'object' || init === null) return init;
  const out = {};
  for (const k of INIT_ORDER) if (init[k] !== undefined) out[k] = init[k];
  return out;
}
function resultInOrder(result) {
  if (result === null || result === undefined) return result;
  const out = sorted(result);
  for (const k of Object.keys(out)) out[k] = k === 'inputs' ? out[k].map(initInOrder) : sorted(out[k]);
  return out;
}

/** Node's checks of exec()/test()'s arguments, then the polyfill's answer (its TypeError as Node's). */
function match(pattern, method, input, baseURL, argc) {
  if (input !== undefined && input !== null && !isInput(input)) {
    throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'URLPattern input needs to be a string or an object');
  }
  try {
    return Reflect.apply(polyfill().prototype[method], pattern, argc > 1 ? [input ?? {}, baseURL] : [input ?? {}]);
  } catch (e) {
    if (e instanceof TypeError) throw nodeError(TypeError, 'ERR_OPERATION_FAILED', `Failed to ${method} URLPattern`);
    throw e;
  }
}

// Not a subclass: the polyfill's instance, made with this class's prototype, so the attributes
// are URLPattern.prototype's own enumerable accessors and exec/test its enumerable methods (WebIDL's
// shape, and Node's), and the class inherits from Function.prototype, not from the polyfill.
export class URLPattern {
  constructor(input = undefined, baseURL = undefined, options = undefined) {
    if (input !== undefined && input !== null && !isInput(input)) {
      throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'Input must be an object or a string');
    }
    if (arguments.length >= 3) {
      if (typeof baseURL !== 'string') throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'second argument must be a string');
      if (options !== undefined && (typeof options !== 'object' || options === null)) throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'options must be an object');
    } else if (baseURL !== undefined && !isInput(baseURL)) {
      throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'second argument must be a string or object');
    }
    const args = arguments.length >= 3 ? [input ?? {}, baseURL, options] : arguments.length === 2 ? [input ?? {}, baseURL] : [input ?? {}];
    try {
      return Reflect.construct(polyfill(), args, new.target);
    } catch (e) {
      // Node gives no detail either; a pattern that does not parse, or a relative string
      // without a base URL, is this one error.
      if (e instanceof TypeError) throw nodeError(TypeError, 'ERR_INVALID_URL_PATTERN', 'Failed to construct URLPattern');
      throw e;
    }
  }

  exec(input = undefined, baseURL = undefined) {
    return resultInOrder(match(this, 'exec', input, baseURL, arguments.length));
  }

  test(input = undefined, baseURL = undefined) {
    return match(this, 'test', input, baseURL, arguments.length);
  }
}
for (const key of ['exec', 'test']) Object.defineProperty(URLPattern.prototype, key, { enumerable: true });
for (const key of ['protocol', 'username', 'password', 'hostname', 'port', 'pathname', 'search', 'hash', 'hasRegExpGroups']) {
  // The polyfill's getter, found when first called (an instance exists only once it is loaded).
  const { get } = Object.getOwnPropertyDescriptor({ get [key]() { return Reflect.apply(Object.getOwnPropertyDescriptor(polyfill().prototype, key).get, this, []); } }, key);
  Object.defineProperty(URLPattern.prototype, key, { get, enumerable: true, configurable: true });
}
Object.defineProperty(URLPattern.prototype, Symbol.toStringTag, { value: 'URLPattern', configurable: true });

export const globals = { URLPattern };
export const modules = {};
