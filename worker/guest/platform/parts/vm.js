// node:vm without a second realm. A run is one realm (V8 isolate context or QuickJS context) that
// the guest cannot multiply, so a "context" here is the object itself, seen through a scope
// proxy: code run in it reads the object's properties as globals, falls back to this realm's
// builtins for the rest, and writes every global it assigns (`x = 1`, `var y = 17`) to the
// object, never to this realm's global. What differs from Node (docs/script-environment.md,
// "node:vm"): builtins are this realm's (`vm.runInNewContext('Array') === Array`), reading an
// undeclared name gives undefined instead of a ReferenceError, function declarations and
// top-level let/const/class stay local to the one call, and `timeout`/`breakOnSigint` are not
// enforced (the run's own execution timeout is). vm is no security boundary in Node either.
import core from 'runjs:part/core';

const { invalidArgType, nodeError, describeType } = core.shared;

const DONT_CONTEXTIFY = Symbol('vm_context_no_contextify');
const constants = {
  USE_MAIN_CONTEXT_DEFAULT_LOADER: Symbol('vm_dynamic_import_main_context_default'),
  DONT_CONTEXTIFY,
};

/** Contextified objects → the scope proxy code run in them sees. */
const scopes = new WeakMap();

// The two names the evaluator itself needs; the scope proxy never claims them.
const SCOPE = '__runjs_vm_scope';
const CODE = '__runjs_vm_code';
// A sloppy function (new Function is never strict): `with` and a direct eval that sees the scope.
// eslint-disable-next-line no-new-func
const evaluateIn = new Function(SCOPE, CODE, `with (${SCOPE}) { return eval(${CODE}); }`);
const realmGlobal = globalThis;
const realmEval = realmGlobal.eval;

function scopeFor(sandbox) {
  let scope = scopes.get(sandbox);
  if (scope !== undefined) return scope;
  scope = new Proxy(sandbox, {
    // Every name but the evaluator's own resolves here, so assignments land on the sandbox.
    has: (_t, key) => typeof key === 'string' && key !== SCOPE && key !== CODE,
    get(target, key) {
      if (key === Symbol.unscopables) return undefined;
      if (key === 'globalThis') return scope;
      if (key in target) return target[key];
      return realmGlobal[key];
    },
    set(target, key, value) {
      target[key] = value;
      return true;
    },
  });
  scopes.set(sandbox, scope);
  return scope;
}

function validateObject(value, name) {
  if (value === null || typeof value !== 'object') throw invalidArgType(name, 'of type object', value);
}

function optionsOf(options, name = 'options') {
  if (options === undefined) return {};
  if (typeof options === 'string') return { filename: options };
  validateObject(options, name);
  return options;
}

/** The source with its file name for stack traces (V8 and QuickJS both read sourceURL). */
function withFilename(code, filename) {
  return filename === undefined ? code : `${code}\n//# sourceURL=${String(filename)}`;
}

function createContext(contextObject = {}, options = undefined) {
  if (contextObject === DONT_CONTEXTIFY) contextObject = {};
  validateObject(contextObject, 'object');
  if (options !== undefined) validateObject(options, 'options');
  if (!scopes.has(contextObject)) scopeFor(contextObject);
  return contextObject;
}

function isContext(object) {
  validateObject(object, 'object');
  return scopes.has(object);
}

function contextified(ctx) {
  validateObject(ctx, 'object');
  if (!scopes.has(ctx)) {
    throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "contextifiedObject" argument must be an vm.Context. Received ${describeType(ctx)}`);
  }
  return ctx;
}

class Script {
  #code;

  constructor(code, options = undefined) {
    const source = `${code}`;
    const opts = optionsOf(options);
    this.#code = withFilename(source, opts.filename);
    // Syntax errors surface at construction, as Node compiles the script there. Compiling it as
    // a function body parses without running anything (a top-level `return` is the difference).
    // eslint-disable-next-line no-new-func
    new Function(source);
  }

  runInThisContext(options = undefined) {
    optionsOf(options);
    return realmEval(this.#code);
  }

  runInContext(contextifiedObject, options = undefined) {
    const ctx = contextified(contextifiedObject);
    optionsOf(options);
    const scope = scopeFor(ctx);
    return Reflect.apply(evaluateIn, scope, [scope, this.#code]);
  }

  runInNewContext(contextObject = undefined, options = undefined) {
    return this.runInContext(createContext(contextObject), options);
  }

  createCachedData() {
    return realmGlobal.Buffer.alloc(0);
  }
}

function validateCode(code) {
  if (typeof code !== 'string') throw invalidArgType('code', 'of type string', code);
}

export const vm = {
  Script,
  createContext,
  createScript: (code, options) => new Script(code, options),
  runInContext: (code, contextifiedObject, options) => new Script(code, options).runInContext(contextifiedObject, options),
  runInNewContext: (code, contextObject, options) => new Script(code, options).runInNewContext(contextObject, options),
  runInThisContext: (code, options) => new Script(code, options).runInThisContext(options),
  isContext,
  compileFunction(code, params = [], options = undefined) {
    validateCode(code);
    if (!Array.isArray(params)) throw invalidArgType('params', 'an instance of Array', params);
    params.forEach((p, i) => { if (typeof p !== 'string') throw invalidArgType(`params[${i}]`, 'of type string', p); });
    const opts = optionsOf(options);
    const extensions = opts.contextExtensions ?? [];
    if (!Array.isArray(extensions)) throw invalidArgType('options.contextExtensions', 'an instance of Array', extensions);
    // Names resolve in the extensions first (the last one wins, as Node's scopes nest), then
    // in the parsing context, then in this realm.
    const sandbox = opts.parsingContext === undefined ? {} : contextified(opts.parsingContext);
    const merged = Object.assign({}, ...extensions);
    const scope = extensions.length === 0 && opts.parsingContext === undefined ? undefined : scopeFor(Object.setPrototypeOf(merged, sandbox));
    const source = withFilename(`(function (${params.join(', ')}) {\n${code}\n})`, opts.filename);
    return scope === undefined ? realmEval(source) : Reflect.apply(evaluateIn, scope, [scope, source]);
  },
  measureMemory() {
    return Promise.reject(nodeError(Error, 'ERR_UNSUPPORTED_OPERATION', 'vm.measureMemory() is not supported in runjs: a run has one realm and no memory measurement API'));
  },
  constants,
};

export const modules = { vm };
export const globals = {};
