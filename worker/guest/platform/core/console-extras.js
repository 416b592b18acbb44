// Stubs for the console methods prelude.js does not define (table, dir, group, count, time,
// assert, …); web/console-extras.js builds them on their first call.
import { requirePart } from './parts.js';

/** Adds the missing methods to the prelude's console; their bodies are built on first call. */
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
}
const EXTRA_NAMES = ['dir', 'dirxml', 'group', 'groupCollapsed', 'groupEnd', 'clear', 'count', 'countReset', 'assert', 'time', 'timeLog', 'timeEnd', 'table'];

