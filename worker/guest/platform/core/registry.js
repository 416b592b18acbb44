// The builtin-module registry. Import wrappers (worker/guest/builtin-modules.ts) read modules
// through `globalThis[Symbol.for('runjs.builtin')](name)`: a documented, harmless door — it
// returns exactly what `import` returns. `require()` for scripts written CommonJS-style uses it too.
import { MODULE_PARTS, PREFIX_ONLY } from './lazy-table.js';
import { requirePart } from './parts.js';

let names;
/** The builtin module names, sorted (computed on first use). */
function NAMES_() {
  names ??= Object.freeze(Object.keys(MODULE_PARTS).sort());
  return names;
}

function notAvailable(specifier, code) {
  const list = NAMES_().map((n) => `node:${n}`).join(', ');
  const err = new Error(`Module '${specifier}' is not available in runjs. Available built-in modules: ${list}`);
  err.code = code;
  return err;
}

/** The builtin's name in MODULE_PARTS, or '' when `specifier` names none (`test` only as `node:test`). */
function moduleName(specifier) {
  if (specifier.startsWith('node:')) return specifier.slice(5);
  return Object.hasOwn(PREFIX_ONLY, specifier) ? '' : specifier;
}

/** The module object of builtin `specifier` (`node:path` or `path`; `node:test` only with its prefix). */
export function builtin(specifier) {
  const name = typeof specifier === 'string' ? moduleName(specifier) : '';
  if (!Object.hasOwn(MODULE_PARTS, name)) throw notAvailable(String(specifier), 'ERR_UNKNOWN_BUILTIN_MODULE');
  return requirePart(MODULE_PARTS[name]).modules[name];
}
Object.defineProperty(builtin, 'names', { get: NAMES_ });

/** The main module's URL (worker/runtime/execute-run.ts runs it as this file). */
const MAIN_URL = 'file:///main.js';

/**
 * `import.meta.resolve` as Node answers it for a file /main.js: built-in names to `node:…`,
 * relative paths and URLs against the main module's URL, anything else not found. The prelude's
 * `import.meta` object (worker/guest/prelude.js) calls this; the registry knows the module names.
 */
function importMetaResolve(specifier) {
  const s = String(specifier);
  if (Object.hasOwn(MODULE_PARTS, moduleName(s))) return `node:${moduleName(s)}`;
  if (s.startsWith('./') || s.startsWith('../') || s.startsWith('/') || /^[a-z][a-z0-9+.-]*:/i.test(s)) return new URL(s, MAIN_URL).href;
  const err = new TypeError(`Cannot find package '${s}' imported from /main.js`);
  err.code = 'ERR_MODULE_NOT_FOUND';
  throw err;
}
Object.defineProperty(builtin, 'importMetaResolve', { value: importMetaResolve });

/** `require()` of builtin modules (a script is one file: nothing else can be required). */
export function require(specifier) {
  if (typeof specifier !== 'string') {
    throw new TypeError(`The "id" argument must be of type string. Received ${specifier === null ? 'null' : typeof specifier}`);
  }
  const name = moduleName(specifier);
  if (Object.hasOwn(MODULE_PARTS, name)) return builtin(specifier);
  if (specifier.startsWith('.') || specifier.startsWith('/')) {
    const err = new Error(`Cannot find module '${specifier}': a runjs script is a single file, so only built-in modules can be required`);
    err.code = 'MODULE_NOT_FOUND';
    throw err;
  }
  throw notAvailable(specifier, 'MODULE_NOT_FOUND');
}
let listed;
/** As Node lists them: prefix-only builtins with their `node:`. */
function listedNames() {
  listed ??= Object.freeze(NAMES_().map((n) => (Object.hasOwn(PREFIX_ONLY, n) ? `node:${n}` : n)));
  return listed;
}
Object.defineProperty(require, 'builtinModules', { get: listedNames, enumerable: true });
