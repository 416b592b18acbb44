// Defining globals the way Web IDL does: writable, configurable, not enumerable — but for the
// ones Node defines enumerable (Web IDL's regular operations of the global are enumerable too).
const g = globalThis;

/** Node's enumerable data globals (`Object.keys(globalThis)` in Node lists them). */
const ENUMERABLE = new Set(['global', 'atob', 'btoa', 'fetch', 'queueMicrotask', 'structuredClone', 'setImmediate', 'clearImmediate']);

export function defineGlobal(name, value) {
  Object.defineProperty(g, name, { value, writable: true, enumerable: ENUMERABLE.has(name), configurable: true });
}

/**
 * Many globals at once (one defineProperties call: booting a realm is on every run's path):
 * plain `values`, and for each name in `lazy`, an accessor that calls `load(name)` on first use.
 * Returns the lazy accessors' getters by name (for showLazyGlobalsAsData).
 */
/**
 * Globals Node defines as enumerable accessors (its lazy getters), not data properties: Web IDL
 * makes `crypto` and `navigator` readonly attributes of the global (a getter, no setter; WPT's
 * idlharness checks "Window interface: attribute crypto" has one) and `performance` a
 * [Replaceable] one (a setter that replaces it with the value).
 */
const ACCESSOR_GLOBALS = {
  // Node's `crypto` getter checks its receiver (idlharness: "calling getter on wrong object type").
  crypto: { replaceable: false, checksThis: true },
  navigator: { replaceable: false, checksThis: false },
  performance: { replaceable: true, checksThis: false },
};

/** Node's ERR_INVALID_THIS for a global's getter called on something that is not the global. */
function invalidThis() {
  const e = new TypeError('Value of "this" must be of type nullish or must be the global object');
  Object.defineProperty(e, 'code', { value: 'ERR_INVALID_THIS', writable: true, enumerable: true, configurable: true });
  return e;
}

/** `name`'s final property once its part loaded `value`: Node's accessor shape, or a data property. */
function settleGlobal(name, value) {
  const shape = ACCESSOR_GLOBALS[name];
  if (shape === undefined) return defineGlobal(name, value);
  // Named like Node's (`get crypto`), so util.inspect and stacks show the same.
  const { get } = Object.getOwnPropertyDescriptor({
    get [name]() {
      if (shape.checksThis && this != null && this !== g) throw invalidThis();
      return value;
    },
  }, name);
  const set = shape.replaceable ? { set [name](v) { Object.defineProperty(g, name, { value: v, writable: true, enumerable: true, configurable: true }); } } : undefined;
  Object.defineProperty(g, name, { get, set: set && Object.getOwnPropertyDescriptor(set, name).set, enumerable: true, configurable: true });
}

export function defineGlobals(values, lazy, load) {
  const descriptors = {};
  const getters = {};
  for (const name in values) descriptors[name] = { value: values[name], writable: true, enumerable: ENUMERABLE.has(name), configurable: true };
  for (const name in lazy) {
    const get = function get() {
      const value = load(name);
      settleGlobal(name, value);
      return value;
    };
    getters[name] = get;
    const accessor = Object.hasOwn(ACCESSOR_GLOBALS, name);
    descriptors[name] = {
      configurable: true,
      enumerable: accessor || ENUMERABLE.has(name),
      get,
      set(value) {
        if (accessor && !ACCESSOR_GLOBALS[name].replaceable) throw new TypeError(`Cannot set property ${name} of #<Object> which has only a getter`);
        defineGlobal(name, value);
      },
    };
  }
  Object.defineProperties(g, descriptors);
  return getters;
}

/**
 * Web IDL (and Node) define globals as data properties, which scripts check with
 * `Object.getOwnPropertyDescriptor(globalThis, 'URL')`. A lazy global is an accessor until its
 * first use, so these two functions treat the question as a use: a lazy global still an accessor
 * is loaded first and its descriptor is the data property it becomes. Anything else (another
 * object, a script's own accessor, a key that is not a string) goes straight to the builtin.
 * `Object.getOwnPropertyDescriptors(globalThis)` is left as it is: it would load every part.
 */
export function showLazyGlobalsAsData(getters) {
  const getDescriptor = Object.getOwnPropertyDescriptor;
  const reflectGetDescriptor = Reflect.getOwnPropertyDescriptor;
  const load = (target, key) => {
    if (target !== g || typeof key !== 'string' || !Object.hasOwn(getters, key)) return;
    const d = getDescriptor(g, key);
    if (d === undefined || d.get !== getters[key]) return;
    try {
      d.get.call(g);
    } catch {
      // The part failed to load: the accessor stays, and using the global throws that error.
    }
  };
  const replacements = {
    getOwnPropertyDescriptor(o, p) {
      load(o, p);
      return getDescriptor(o, p);
    },
  };
  const reflectReplacements = {
    getOwnPropertyDescriptor(o, p) {
      load(o, p);
      return reflectGetDescriptor(o, p);
    },
  };
  Object.defineProperty(Object, 'getOwnPropertyDescriptor', { value: replacements.getOwnPropertyDescriptor, writable: true, enumerable: false, configurable: true });
  Object.defineProperty(Reflect, 'getOwnPropertyDescriptor', { value: reflectReplacements.getOwnPropertyDescriptor, writable: true, enumerable: false, configurable: true });
}

/** Non-enumerable methods/values on an object, as builtin prototypes have them. */
export function defineHidden(target, props) {
  for (const key of Reflect.ownKeys(props)) {
    Object.defineProperty(target, key, { value: props[key], writable: true, enumerable: false, configurable: true });
  }
}
