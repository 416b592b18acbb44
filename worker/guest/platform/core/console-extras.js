// Stubs for the console methods prelude.js does not define (table, dir, group, count, time,
// assert, …); web/console-extras.js builds them on their first call.
import { requirePart } from './parts.js';

/** Adds the missing methods to the prelude's console (their bodies are built on first call) and
 * shapes it as a namespace object. */
export function installConsoleExtras(c) {
  let impl;
  const descriptors = {};
  for (const name of EXTRA_NAMES) {
    if (Object.prototype.hasOwnProperty.call(c, name)) continue;
    descriptors[name] = {
      value: (...args) => (impl ??= requirePart('web').extendConsole(c))[name](...args),
      writable: true,
      enumerable: true,
      configurable: true,
    };
  }
  Object.defineProperties(c, descriptors);
  // A namespace object (WebIDL § 3.13): its prototype is an empty object whose prototype is
  // Object.prototype, and its class string is "console", as in Node and browsers.
  Object.setPrototypeOf(c, {});
  Object.defineProperty(c, Symbol.toStringTag, { value: 'console', writable: false, enumerable: false, configurable: true });
}
const EXTRA_NAMES = ['dir', 'dirxml', 'group', 'groupCollapsed', 'groupEnd', 'clear', 'count', 'countReset', 'assert', 'time', 'timeLog', 'timeEnd', 'table'];

