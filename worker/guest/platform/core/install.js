// Defining globals the way Web IDL does: writable, configurable, not enumerable.
const g = globalThis;

export function defineGlobal(name, value) {
  Object.defineProperty(g, name, { value, writable: true, enumerable: false, configurable: true });
}

/**
 * Many globals at once (one defineProperties call: booting a realm is on every run's path):
 * plain `values`, and for each name in `lazy`, an accessor that calls `load(name)` on first use.
 */
export function defineGlobals(values, lazy, load) {
  const descriptors = {};
  for (const name in values) descriptors[name] = { value: values[name], writable: true, enumerable: false, configurable: true };
  for (const name in lazy) {
    descriptors[name] = {
      configurable: true,
      enumerable: false,
      get() {
        const value = load(name);
        defineGlobal(name, value);
        return value;
      },
      set(value) {
        defineGlobal(name, value);
      },
    };
  }
  Object.defineProperties(g, descriptors);
}

/** Non-enumerable methods/values on an object, as builtin prototypes have them. */
export function defineHidden(target, props) {
  for (const key of Reflect.ownKeys(props)) {
    Object.defineProperty(target, key, { value: props[key], writable: true, enumerable: false, configurable: true });
  }
}
