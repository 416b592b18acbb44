// Defining properties the way builtins have them.

/** Non-enumerable methods/values on an object, as builtin prototypes have them. */
export function defineHidden(target, props) {
  for (const key of Reflect.ownKeys(props)) {
    Object.defineProperty(target, key, { value: props[key], writable: true, enumerable: false, configurable: true });
  }
}
