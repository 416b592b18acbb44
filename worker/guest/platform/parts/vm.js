// node:vm without a second realm. A run is one realm (V8 isolate context or QuickJS context) that
// the guest cannot multiply, so a "context" here is the object itself, seen through a scope
// proxy: code run in it reads the object's properties as globals, falls back to this realm's
// builtins for the rest, and writes every global it assigns (`x = 1`, `var y = 17`) to the
// object, never to this realm's global. What differs from Node (docs/script-environment.md,
// "node:vm"): builtins are this realm's (`vm.runInNewContext('Array') === Array`), reading an
// undeclared name gives undefined instead of a ReferenceError, function declarations and
// top-level let/const/class stay local to the one call, a sloppy function called without a
// receiver gets this realm's global as `this`, and `timeout`/`breakOnSigint` are not enforced
// (the run's own execution timeout is). vm is no security boundary in Node either.
import core from 'runjs:part/core';

const { invalidArgType, nodeError, describeType } = core.shared;

const DONT_CONTEXTIFY = Symbol('vm_context_no_contextify');
const constants = {
  USE_MAIN_CONTEXT_DEFAULT_LOADER: Symbol('vm_dynamic_import_main_context_default'),
  DONT_CONTEXTIFY,
};

/** Contextified objects → their scope and global object (contextOf). */
const contexts = new WeakMap();

// The two names the evaluator itself needs; no scope proxy ever claims them.
const SCOPES = '__runjs_vm_scopes';
const CODE = '__runjs_vm_code';
const realmGlobal = globalThis;
const realmEval = realmGlobal.eval;

// Sloppy functions (new Function is never strict): nested `with` statements, the last scope
// innermost, around a direct eval that sees them. One per depth, made when first needed.
const evaluators = [];
function evaluatorFor(depth) {
  if (evaluators[depth] === undefined) {
    let head = '';
    for (let i = 0; i < depth; i++) head += `with (${SCOPES}[${i}]) `;
    // eslint-disable-next-line no-new-func
    evaluators[depth] = new Function(SCOPES, CODE, `${head}{ return eval(${CODE}); }`);
  }
  return evaluators[depth];
}

// True from an evaluation's start until the evaluator's `eval` has been looked up: that lookup
// passes through the scopes too, and must find the realm's eval (so the call is a direct eval)
// even when a context or an extension has an `eval` of its own. The lookup of CODE, the next
// name the evaluator resolves (after it has read `eval`), ends it.
let evaluatorLookup = false;

/** Runs `code` (already checked) as a direct eval inside `chain` (outermost first), `this` being `thisArg`. */
function evaluate(chain, code, thisArg) {
  evaluatorLookup = true;
  try {
    return Reflect.apply(evaluatorFor(chain.length), thisArg, [chain, code]);
  } finally {
    evaluatorLookup = false;
  }
}

/** Whether a scope claims `key` when it is one of the evaluator's own names (undefined for any other). */
function evaluatorName(key, isContext) {
  if (key === SCOPES) return false;
  if (key === CODE) { evaluatorLookup = false; return false; }
  if (key === 'eval' && evaluatorLookup) return isContext;
  return undefined;
}

/** A scope's assignment: an ordinary [[Set]] on its object (sloppy code ignores a refused one). */
function writeThrough(target, key, value) {
  target[key] = value;
  return true;
}

/**
 * The scope code run in `sandbox` resolves names through, and the global object it sees (`this`,
 * `globalThis`): both read the sandbox, then this realm, and write to the sandbox. The scope
 * claims every name, so that an assignment lands on the sandbox; the global object has only the
 * names the sandbox or this realm has (`'x' in globalThis` as in Node).
 */
function contextOf(sandbox) {
  let context = contexts.get(sandbox);
  if (context !== undefined) return context;
  const read = (target, key) => {
    if (key === 'globalThis') return context.global;
    if (key in target) return target[key];
    return realmGlobal[key];
  };
  context = {
    scope: new Proxy(sandbox, {
      has: (_t, key) => evaluatorName(key, true) ?? typeof key === 'string',
      get(target, key) {
        if (key === Symbol.unscopables) return undefined;
        if (key === 'eval' && evaluatorLookup) return realmEval;
        return read(target, key);
      },
      set: writeThrough,
    }),
    global: new Proxy(sandbox, {
      has: (target, key) => key in target || key in realmGlobal,
      get: read,
      set: writeThrough,
    }),
  };
  contexts.set(sandbox, context);
  return context;
}

/**
 * A compileFunction extension as a scope: only the names the object has (now, not when the
 * function was compiled), read and written on the object itself, as Node's scopes are.
 */
function extensionScope(extension) {
  return new Proxy(extension, {
    has: (target, key) => evaluatorName(key, false) ?? (typeof key === 'string' && key in target),
    get: (target, key) => (key === Symbol.unscopables ? undefined : target[key]),
    set: writeThrough,
  });
}

/**
 * Compiles a function of `params` and `body` without running it, for its SyntaxError. V8's
 * Function constructor parses the parameters and the body each alone. QuickJS's evaluates them
 * joined as one script, so a body that closes the function early (`}); f(); (function () {`)
 * would run there: compiled inside a block first, such a body does not parse.
 */
function checkSyntax(params, body) {
  // eslint-disable-next-line no-new-func
  new Function(`{\n${body}\n}`);
  // eslint-disable-next-line no-new-func
  new Function(...params, body);
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

/**
 * The source with its file name for stack traces (V8 and QuickJS both read sourceURL). The
 * comment ends at a line break, so one in the name is a space: the rest would be code.
 */
function withFilename(code, filename) {
  return filename === undefined ? code : `${code}\n//# sourceURL=${String(filename).replace(/[\n\r\u2028\u2029]/g, ' ')}`;
}

function createContext(contextObject = {}, options = undefined) {
  if (contextObject === DONT_CONTEXTIFY) contextObject = {};
  validateObject(contextObject, 'object');
  if (options !== undefined) validateObject(options, 'options');
  contextOf(contextObject);
  return contextObject;
}

function isContext(object) {
  validateObject(object, 'object');
  return contexts.has(object);
}

function contextified(ctx) {
  validateObject(ctx, 'object');
  if (!contexts.has(ctx)) {
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
    checkSyntax([], source);
  }

  runInThisContext(options = undefined) {
    optionsOf(options);
    return realmEval(this.#code);
  }

  runInContext(contextifiedObject, options = undefined) {
    const ctx = contextified(contextifiedObject);
    optionsOf(options);
    const { scope, global } = contextOf(ctx);
    return evaluate([scope], this.#code, global);
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
    extensions.forEach((e, i) => validateObject(e, `options.contextExtensions[${i}]`));
    const context = opts.parsingContext === undefined ? undefined : contextOf(contextified(opts.parsingContext)).scope;
    checkSyntax(params, code);
    // Names resolve in the extensions first (the last one innermost, as Node's scopes nest),
    // then in the parsing context (which takes every other assignment), then in this realm.
    const chain = extensions.map(extensionScope);
    if (context !== undefined) chain.unshift(context);
    // Laid out as the Function constructor lays it out: a comment ending a parameter ends there.
    const source = withFilename(`(function (${params.join(',')}\n) {\n${code}\n})`, opts.filename);
    return chain.length === 0 ? realmEval(source) : evaluate(chain, source, undefined);
  },
  measureMemory() {
    return Promise.reject(nodeError(Error, 'ERR_UNSUPPORTED_OPERATION', 'vm.measureMemory() is not supported in runjs: a run has one realm and no memory measurement API'));
  },
  constants,
};

export const modules = { vm };
export const globals = {};
