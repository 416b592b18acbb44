// The guest prelude: the one body of JavaScript that runs first in every guest realm, on V8
// (isolated-vm) and on QuickJS alike. It talks to the host only through the host-call
// primitive, which the engine installs as the global `__runjs_host` and which this script
// captures and deletes before any user code runs. The script's completion value is the
// internal object the engine keeps (never reachable from user code).
//
// Host-call protocol: hostCall(op, argsJson, bytes?) returns
//   "v<json>"  a value          "e<json>"  an error {name, message}
//   "a<id>"    an async op id - the host later calls internal.complete(id, ok, json, bytes)
//   Uint8Array a bytes value
'use strict';
(function () {
  const g = globalThis;
  const hostCall = g.__runjs_host;
  delete g.__runjs_host;
  // QuickJS only (worker/engines/quickjs/bridge.js): a promise's [state, result]; absent on V8.
  const promiseDetails = g.__runjs_promise_details;
  delete g.__runjs_promise_details;

  // V8 writes an error's stack when it is first read, but without a prepareStackTrace callback it
  // takes the `Name: message` head line when the error is made. Node installs one, so the head is
  // the error's as it is at that first read (`err.message = 'x'` after `new Error()` shows in the
  // stack and in util.inspect), and `Error.prepareStackTrace` is a function, Node 24's
  // ErrorPrepareStackTrace without its Node-error `[code]` part. A script may replace or delete
  // it, as in Node. QuickJS writes its stacks when errors are made (worker/engines/quickjs/bridge.js).
  // Only QuickJS's bridge installs __runjs_promise_details: without it, this is V8.
  if (promiseDetails === undefined) {
    const ErrorToString = Function.prototype.call.bind(Error.prototype.toString);
    const JoinFrames = Function.prototype.call.bind(Array.prototype.join);
    const prepare = {
      ErrorPrepareStackTrace(error, trace) {
        const head = ErrorToString(error);
        return trace.length === 0 ? head : `${head}\n    at ${JoinFrames(trace, '\n    at ')}`;
      },
    }.ErrorPrepareStackTrace;
    Object.defineProperty(Error, 'prepareStackTrace', { __proto__: null, value: prepare, writable: true, enumerable: false, configurable: true });
  }

  // --- captured builtins: user code may overwrite the originals without breaking us ---
  const uncurry = (fn) => Function.prototype.call.bind(fn);
  const JSONStringify = JSON.stringify;
  const JSONParse = JSON.parse;
  const ObjectDefineProperty = Object.defineProperty;
  const ObjectKeys = Object.keys;
  const ObjectPrototypeToString = uncurry(Object.prototype.toString);
  const ArrayPrototypeJoin = uncurry(Array.prototype.join);
  const ObjectSetPrototypeOf = Object.setPrototypeOf;
  /**
   * The prelude's own lists: arrays without a prototype, so appending (`list[list.length] = v`)
   * never runs a setter a script put on Array.prototype[0] (which would lose console arguments).
   */
  const newList = () => ObjectSetPrototypeOf([], null);
  const ArrayPrototypePush = (list, value) => { list[list.length] = value; };
  const StringPrototypeSlice = uncurry(String.prototype.slice);
  const StringPrototypeStartsWith = uncurry(String.prototype.startsWith);
  const StringPrototypeIndexOf = uncurry(String.prototype.indexOf);
  const StringPrototypeSplit = uncurry(String.prototype.split);
  const StringPrototypeIncludes = uncurry(String.prototype.includes);
  const StringPrototypeReplace = uncurry(String.prototype.replace);
  // QuickJS writes a frame of an anonymous function - the script's top level among them - as
  // `<anonymous> (file:///main.js:L:C)`; V8 writes `file:///main.js:L:C`.
  const MAIN_FRAME = /<anonymous> \((file:\/\/\/main\.js:\d+:\d+)\)/;
  const ReflectApply = Reflect.apply;
  const SymbolPrototypeToString = uncurry(Symbol.prototype.toString);
  const SymbolToStringTag = Symbol.toStringTag;
  const BigIntPrototypeToString = uncurry(BigInt.prototype.toString);
  const ErrorCtor = Error;
  const TypeErrorCtor = TypeError;
  /**
   * The built-in classes an op error may name: the guest gets an instance of the class itself,
   * not an Error renamed (which `instanceof` would not recognise, and which isolated-vm copies
   * out of the isolate by its constructor - an unhandled rejection would read `Uncaught Error`).
   */
  const BUILTIN_ERRORS = ObjectSetPrototypeOf({ Error, TypeError, RangeError, SyntaxError, ReferenceError, URIError, EvalError }, null);
  const String_ = String;
  const Number_ = Number;
  const MathFloor = Math.floor;
  const MathMin = Math.min;
  const SafeMap = Map;
  const MapGet = uncurry(Map.prototype.get);
  const MapSet = uncurry(Map.prototype.set);
  const MapHas = uncurry(Map.prototype.has);
  const MapDelete = uncurry(Map.prototype.delete);
  const MapEntries = uncurry(Map.prototype.entries);
  const SafeSet = Set;
  const SetValues = uncurry(Set.prototype.values);
  const SetHas = uncurry(Set.prototype.has);
  const SetAdd = uncurry(Set.prototype.add);
  const SetDelete = uncurry(Set.prototype.delete);
  const PromiseCtor = Promise;
  const PromiseResolve = Promise.resolve.bind(Promise);
  const PromiseReject = Promise.reject.bind(Promise);
  const PromisePrototypeThen = uncurry(Promise.prototype.then);

  // --- the bridge ---
  const pending = new SafeMap(); // async op id -> (ok, value) => void
  const ArrayIsArray = Array.isArray;
  const ArrayBufferIsView = ArrayBuffer.isView;
  const TypedArrayLength = uncurry(Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array.prototype), 'length').get);

  /**
   * Op arguments as JSON, without JSON.stringify's hooks: user code may define `toJSON` on
   * Object.prototype or Array.prototype, which JSON.stringify would honour and so forge or break
   * every op call. Op arguments are primitives, arrays and plain objects built by the prelude, so
   * only own enumerable properties are written and `toJSON` is never consulted. Values JSON has
   * no form for become null (in arrays) or are left out (in objects), as with JSON.stringify.
   */
  function encodeArg(v) {
    switch (typeof v) {
      case 'string': case 'number': case 'boolean': return JSONStringify(v); // primitives: no toJSON lookup
      case 'object': {
        if (v === null) return 'null';
        let out;
        if (ArrayIsArray(v)) {
          out = '[';
          for (let i = 0; i < v.length; i++) {
            const item = encodeArg(v[i]);
            out += (i === 0 ? '' : ',') + (item === undefined ? 'null' : item);
          }
          return out + ']';
        }
        out = '{';
        const keys = ObjectKeys(v);
        let first = true;
        for (let i = 0; i < keys.length; i++) {
          const item = encodeArg(v[keys[i]]);
          if (item === undefined) continue;
          out += (first ? '' : ',') + JSONStringify(keys[i]) + ':' + item;
          first = false;
        }
        return out + '}';
      }
      case 'bigint': throw new TypeErrorCtor('runjs: a BigInt cannot be an op argument');
      default: return undefined; // undefined, functions, symbols
    }
  }

  function decodeError(json) {
    const info = JSONParse(json);
    const builtin = typeof info.name === 'string' ? BUILTIN_ERRORS[info.name] : undefined;
    const err = builtin !== undefined ? new builtin(info.message) : new ErrorCtor(info.message);
    if (builtin === undefined && info.name) err.name = info.name;
    if (info.code !== undefined) err.code = info.code;
    return err;
  }

  /** Calls a host op; returns its value, or registers `onDone` for an async op and returns its id. */
  function op(name, args, bytes, onDone) {
    const json = encodeArg(args) ?? 'null';
    const r = bytes === undefined ? hostCall(name, json) : hostCall(name, json, bytes);
    if (typeof r !== 'string') return r;
    const tag = r[0];
    if (tag === 'v') return r.length === 1 ? undefined : JSONParse(StringPrototypeSlice(r, 1));
    if (tag === 'e') throw decodeError(StringPrototypeSlice(r, 1));
    if (tag === 'a') {
      const id = Number_(StringPrototypeSlice(r, 1));
      if (onDone === undefined) throw new ErrorCtor(`runjs: op ${name} is asynchronous`);
      MapSet(pending, id, onDone);
      return id;
    }
    throw new ErrorCtor(`runjs: malformed answer from op ${name}`);
  }

  /** Calls an async host op and returns a promise of its value. */
  function opAsync(name, args, bytes) {
    return new PromiseCtor((resolve, reject) => {
      op(name, args, bytes, (ok, value) => (ok ? resolve(value) : reject(value)));
    });
  }

  // --- formatting (console lines, results, error texts) ---
  function describeFunction(fn) {
    let n;
    try { n = fn.name; } catch { /* a throwing `name` getter */ }
    return n && typeof n === 'string' ? `[Function: ${n}]` : '[Function (anonymous)]';
  }

  function isError(v) {
    // A revoked Proxy or a throwing getPrototypeOf trap makes both checks throw: not an error.
    try {
      if (v instanceof ErrorCtor) return true;
      return ObjectPrototypeToString(v) === '[object Error]';
    } catch {
      return false;
    }
  }

  /**
   * Whether a stack line is a frame of the platform: V8 names the prelude and its parts
   * runjs:prelude...; QuickJS ignores `//# sourceURL` and calls code compiled with `new Function`
   * (how parts are evaluated, worker/guest/platform/core/parts.js) `<input>`. That also hides a
   * script's own eval'd code on QuickJS, which is rare next to every platform error's frames.
   */
  function isPlatformFrame(line) {
    return StringPrototypeIncludes(line, 'runjs:prelude') || StringPrototypeIncludes(line, '(<input>:') || StringPrototypeStartsWith(line, '    at <input>:');
  }

  /**
   * Drops the platform's own frames - with the native frames (`call (native)`) it called
   * through, up to the next frame of the script - and writes QuickJS's anonymous frames of the
   * script as V8 does.
   */
  function cleanStack(stack) {
    const lines = StringPrototypeSplit(stack, '\n');
    const kept = newList();
    let frames = 0;
    let inPlatform = false;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (isPlatformFrame(line)) { inPlatform = true; continue; }
      if (inPlatform && StringPrototypeStartsWith(line, '    at ') && StringPrototypeIncludes(line, '(native)')) continue;
      inPlatform = false;
      // At most 10 frames on every engine: V8's default Error.stackTraceLimit (QuickJS keeps all).
      if (StringPrototypeStartsWith(line, '    at ') && ++frames > 10) break;
      ArrayPrototypePush(kept, StringPrototypeReplace(line, MAIN_FRAME, '$1'));
    }
    while (kept.length > 0 && kept[kept.length - 1] === '') kept.length--; // QuickJS ends stacks with a newline
    return ArrayPrototypeJoin(kept, '\n');
  }

  /** `Name: message` followed by the stack frames, on both engines. */
  function formatError(e) {
    let name = 'Error';
    let message = '';
    let stack = '';
    try { name = String_(e.name); } catch { /* hostile getter */ }
    try { message = String_(e.message); } catch { /* hostile getter */ }
    try { stack = typeof e.stack === 'string' ? e.stack : ''; } catch { /* hostile getter */ }
    const head = message === '' ? name : `${name}: ${message}`;
    // V8's stacks begin with the head line, and QuickJS's of constructed errors do (the engine
    // bridge writes it); the others hold frames only. Only the frames are cleaned: the head
    // holds the message, which may be megabytes.
    if (StringPrototypeStartsWith(stack, head) && (stack.length === head.length || stack[head.length] === '\n')) stack = StringPrototypeSlice(stack, head.length);
    stack = cleanStack(stack);
    const firstFrame = StringPrototypeIndexOf(stack, '    at ');
    const frames = firstFrame >= 0 ? StringPrototypeSlice(stack, firstFrame) : stack;
    return frames.length > 0 ? `${head}\n${frames}` : head;
  }

  // A console line longer than any write may be (--max-output-bytes) is dropped by the host, so
  // formatting it is wasted work - and a logged 10-million-element array would build a text of
  // tens of MB and run out of heap. A line's meter counts a lower bound of the line's length as
  // JSON.stringify meets its values (the replacer sees each before it is written); past LINE_CHECK
  // characters the host tells the cap (once per line), and past that the line is abandoned with
  // OUTPUT_FULL and the host records it as dropped (worker/runtime/output-buffer.ts).
  const LINE_CHECK = 65536;
  const OUTPUT_FULL = {};
  function newMeter() { return { spent: 0, limit: LINE_CHECK, asked: false }; }
  // What is counted, each a lower bound of the line's length (counted when JSON.stringify first
  // meets the value, before it writes it): an array's elements take two characters each with
  // their commas; a string one more than its length (its quotes, less the one its array counted);
  // a typed array `"index":n,` per element. Numbers, keys and the rest count nothing.
  /** Counts `n` more characters of the line; throws OUTPUT_FULL when the line cannot fit. */
  function meterAdd(meter, n) {
    if ((meter.spent += n) > meter.limit) meterCheck(meter);
  }
  function meterCheck(meter) {
    if (!meter.asked) {
      meter.asked = true;
      meter.limit = op('console.lineCap');
      if (meter.spent <= meter.limit) return;
    }
    throw OUTPUT_FULL;
  }
  function meterContainer(meter, v) {
    if (ArrayIsArray(v)) { meterAdd(meter, 2 * v.length); return; }
    if (!ArrayBufferIsView(v)) return;
    let n;
    try { n = TypedArrayLength(v); } catch { return; } // a DataView
    // Digits of the indices 0..n-1, plus `"":v,` (five characters) for each.
    let digits = 0;
    for (let d = 1, lo = 0, hi = 10; lo < n; d++, lo = hi, hi *= 10) digits += d * (MathMin(n, hi) - lo);
    meterAdd(meter, digits + 5 * n);
  }

  /** JSON with the cases plain JSON.stringify gets wrong or throws on (cycles, BigInt, Map, Set, errors). */
  function toJson(value, indent, meter) {
    // The chain of objects being serialised: `this` in the replacer is the holder, so popping
    // until the holder is on top leaves exactly the ancestors of the current value. `onChain`
    // holds the same objects, so the cycle check is O(1) even for very deep values.
    const holders = newList();
    const originals = newList();
    const onChain = new SafeSet();
    const replace = function (key, v) {
      switch (typeof v) {
        case 'string':
          if (meter !== undefined && (meter.spent += v.length + 1) > meter.limit) meterCheck(meter);
          return v;
        case 'bigint': return `${BigIntPrototypeToString(v)}n`;
        case 'function': return describeFunction(v);
        case 'symbol': return SymbolPrototypeToString(v);
        case 'object': {
          if (v === null) return v;
          while (holders.length > 0 && holders[holders.length - 1] !== this) {
            SetDelete(onChain, originals[originals.length - 1]);
            holders.length--;
            originals.length--;
          }
          if (SetHas(onChain, v)) return '[Circular]';
          let out = v;
          if (isError(v)) return formatError(v);
          if (v instanceof SafeMap) {
            out = newList();
            for (const entry of MapEntries(v)) ArrayPrototypePush(out, entry);
            out = { '[Map]': out };
          } else if (v instanceof SafeSet) {
            out = newList();
            for (const item of SetValues(v)) ArrayPrototypePush(out, item);
            out = { '[Set]': out };
          }
          ArrayPrototypePush(holders, out);
          ArrayPrototypePush(originals, v);
          SetAdd(onChain, v);
          if (meter !== undefined) meterContainer(meter, out);
          return out;
        }
        default: return v;
      }
    };
    try {
      return JSONStringify(value, replace, indent);
    } catch (e) {
      if (e === OUTPUT_FULL) throw e;
      return `[Unserializable: ${formatError(e)}]`;
    }
  }

  /** One console argument as text: strings as they are, everything else as JSON (`meter`: see newMeter). */
  function formatArg(v, meter) {
    switch (typeof v) {
      case 'string': return v;
      case 'undefined': return 'undefined';
      case 'number': return String_(v);
      case 'boolean': return v ? 'true' : 'false';
      case 'bigint': return `${BigIntPrototypeToString(v)}n`;
      case 'symbol': return SymbolPrototypeToString(v);
      case 'function': return describeFunction(v);
      default:
        if (v === null) return 'null';
        if (isError(v)) return formatError(v);
        return toJson(v, undefined, meter) ?? 'undefined';
    }
  }

  function formatLine(args, meter) {
    let line = '';
    for (let i = 0; i < args.length; i++) {
      const text = formatArg(args[i], meter);
      if (meter !== undefined && typeof args[i] !== 'object') meterAdd(meter, text.length + 1);
      line += (i === 0 ? '' : ' ') + text;
    }
    return line;
  }

  // --- console ---
  const consoleWrite = (prefix) => function (...args) {
    let line;
    const meter = newMeter();
    try {
      line = formatLine(args, meter);
    } catch (e) {
      if (e !== OUTPUT_FULL) throw e;
      op('console.overflow', meter.spent);
      return;
    }
    op('console.write', prefix + line + '\n');
  };
  const console_ = {};
  const methods = { log: '', debug: '', trace: '', info: '[INFO] ', warn: '[WARN] ', error: '[ERROR] ' };
  for (const name of ObjectKeys(methods)) {
    ObjectDefineProperty(console_, name, { __proto__: null, value: consoleWrite(methods[name]), writable: true, enumerable: true, configurable: true });
  }
  ObjectDefineProperty(g, 'console', { __proto__: null, value: console_, writable: true, enumerable: false, configurable: true });

  // --- timers (setInterval is deliberately absent, as the interface spec says) ---
  let nextTimerId = 1;
  const timers = new SafeMap(); // guest timer id -> host op id

  function setTimeout_(callback, delay, ...args) {
    if (typeof callback !== 'function') throw new TypeErrorCtor('setTimeout: callback must be a function');
    let ms = Number_(delay);
    // Node: a delay below 1 ms (or not a number) is 1 ms; one over 2^31-1 ms (~24.8 days,
    // Infinity too) overflows to 1 ms.
    if (!(ms >= 1 && ms <= 2147483647)) ms = 1;
    const id = nextTimerId++;
    // The callback runs in the async context (AsyncLocalStorage's stores) it was set in.
    const frame = internal.frame;
    // Expired timers are delivered in order of due time, then of creation (worker/runtime/timer-queue.ts).
    const opId = op('timers.sleep', MathFloor(ms), undefined, () => {
      MapDelete(timers, id);
      watchDropped(runInFrame(frame, callback, g, args));
    });
    MapSet(timers, id, opId);
    return id;
  }

  function clearTimeout_(id) {
    const key = Number_(id);
    if (!MapHas(timers, key)) return;
    const opId = MapGet(timers, key);
    MapDelete(timers, key);
    MapDelete(pending, opId);
    op('timers.cancel', opId);
  }
  ObjectDefineProperty(g, 'setTimeout', { __proto__: null, value: setTimeout_, writable: true, enumerable: true, configurable: true });
  ObjectDefineProperty(g, 'clearTimeout', { __proto__: null, value: clearTimeout_, writable: true, enumerable: true, configurable: true });

  // --- dynamic import() (worker/source/module-syntax.ts rewrites `import(x)` to this) ---
  // Only built-in modules exist in a runjs script; the texts are those of static imports
  // (worker/source/resolve-import.ts), so a dynamic import fails the way a static one does -
  // except that it is a rejected promise the script can catch.
  const BUILTIN_DOOR = Symbol.for('runjs.builtin');
  const ObjectFreeze = Object.freeze;
  const ObjectCreate = Object.create;
  const RegExpPrototypeExec = uncurry(RegExp.prototype.exec);
  const URL_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
  const BARE_BUILTIN = /^[a-z_]+(\/[a-z_]+)?$/;
  const namespaces = new SafeMap(); // module name -> namespace object (import() twice gives the same object)

  function importError(message, code) {
    const err = new ErrorCtor(message);
    err.code = code;
    return err;
  }

  function importNamespace(specifier) {
    let kind;
    if (StringPrototypeStartsWith(specifier, 'npm:')) kind = 'npm package';
    else if (StringPrototypeStartsWith(specifier, 'jsr:')) kind = 'JSR package';
    else if (RegExpPrototypeExec(URL_SCHEME, specifier) !== null) kind = 'URL module';
    if (kind !== undefined) {
      throw importError(`External module imports are disabled. Cannot import ${kind} '${specifier}'. Start the server with --allow-external-modules to enable.`, 'ERR_MODULE_NOT_FOUND');
    }
    if (!StringPrototypeStartsWith(specifier, 'node:') && RegExpPrototypeExec(BARE_BUILTIN, specifier) === null) {
      throw importError(`Cannot resolve import '${specifier}': only built-in modules can be imported (relative and bare package imports need --allow-external-modules with an npm: or URL specifier)`, 'ERR_MODULE_NOT_FOUND');
    }
    const name = StringPrototypeStartsWith(specifier, 'node:') ? StringPrototypeSlice(specifier, 5) : specifier;
    // Asked first, so that a name known only with `node:` (node:test) fails bare even once cached.
    const m = g[BUILTIN_DOOR](specifier); // throws "Module '...' is not available in runjs. ..." for unknown names
    const cached = MapGet(namespaces, name);
    if (cached !== undefined) return cached;
    // Like a module namespace: a null-prototype, frozen object with the named exports and `default`.
    const ns = ObjectCreate(null);
    if ((typeof m === 'object' && m !== null) || typeof m === 'function') {
      const keys = ObjectKeys(m);
      for (let i = 0; i < keys.length; i++) {
        if (keys[i] !== 'default') ObjectDefineProperty(ns, keys[i], { __proto__: null, value: m[keys[i]], enumerable: true });
      }
    }
    ObjectDefineProperty(ns, 'default', { __proto__: null, value: m, enumerable: true });
    ObjectDefineProperty(ns, SymbolToStringTag, { __proto__: null, value: 'Module' });
    ObjectFreeze(ns);
    MapSet(namespaces, name, ns);
    return ns;
  }

  const dynamicImport = function (specifier) {
    // Not a promise executor: its frame would show in the error's stack.
    try {
      return PromiseResolve(importNamespace(String_(specifier)));
    } catch (e) {
      return PromiseReject(e);
    }
  };
  // import.meta.resolve answers as Node's would for a file /main.js (the platform registry knows
  // the built-in names: worker/guest/platform/core/registry.js, importMetaResolve).
  const resolve = function resolve(specifier) {
    return g[BUILTIN_DOOR].importMetaResolve(specifier);
  };
  ObjectDefineProperty(dynamicImport, 'meta', { __proto__: null, value: ObjectFreeze({ __proto__: null, url: 'file:///main.js', filename: '/main.js', dirname: '/', resolve }) });
  ObjectDefineProperty(g, Symbol.for('runjs.import'), { __proto__: null, value: dynamicImport });

  // --- run lifecycle ---
  function settleFailure(e) {
    op('run.settle', { ok: false, error: isError(e) ? `Uncaught ${formatError(e)}` : `Uncaught ${formatArg(e)}` });
  }

  /**
   * process's 'uncaughtException' dispatch (platform/web/process-events.js), once a script touched
   * `process`: called with an error nothing caught, true when a listener (or the capture callback)
   * took it. What a listener throws ends the run, as it ends Node's process.
   */
  let uncaughtHandler;
  /** process's watch over a promise a callback returned and the platform drops (see watchDropped). */
  let droppedHandler;
  /** Runs when a task's synchronous part returns, before its promise jobs: process.nextTick's queue. */
  let afterTask;
  const NOT_TAKEN = 0;
  const TAKEN = 1;
  const FAILED = 2;
  function dispatchUncaught(e, origin) {
    if (uncaughtHandler === undefined) return NOT_TAKEN;
    try {
      return uncaughtHandler(e, origin) === true ? TAKEN : NOT_TAKEN;
    } catch (thrown) {
      settleFailure(thrown);
      return FAILED;
    }
  }

  /**
   * What a callback the platform calls (timers, immediates, microtasks, event listeners) returned:
   * a promise nobody else can handle, so its rejection is an unhandled rejection process's
   * listeners get with the reason itself (the engine's report would be a copy, and none on QuickJS).
   */
  function watchDropped(result) {
    if (droppedHandler !== undefined && typeof result === 'object' && result !== null) droppedHandler(result);
  }

  /** An error nothing caught: to the 'uncaughtException' listeners, else the run fails with it. */
  function fail(e) {
    if (dispatchUncaught(e, 'uncaughtException') === NOT_TAKEN) settleFailure(e);
  }

  /** The main body threw or rejected: as `fail`, and a listener that took it lets the run complete. */
  function failMain(e) {
    const r = dispatchUncaught(e, 'uncaughtException');
    if (r === NOT_TAKEN) settleFailure(e);
    else if (r === TAKEN) op('run.settle', { ok: true, result: '' });
  }

  /**
   * Serialises a run's result: the awaited value of the last top-level expression statement,
   * else of `export default`, else "". Values JSON cannot express (undefined, functions) give "".
   */
  function serializeResult(value) {
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return '';
    return toJson(value) ?? '';
  }

  /** Calls `fn` with async context `frame` current (internal.frame), then restores the one before. */
  function runInFrame(frame, fn, thisArg, args) {
    const outer = internal.frame;
    internal.frame = frame;
    try {
      return ReflectApply(fn, thisArg, args);
    } finally {
      internal.frame = outer;
    }
  }

  const internal = {
    /**
     * The async context: AsyncLocalStorage's stores (a Map, or undefined) for the code running
     * now, carried by the platform to the callbacks it schedules (core/host.js).
     */
    frame: undefined,
    runInFrame,
    /** Delivers the settlement of async op `id` (from the host's event loop). */
    complete(id, ok, json, bytes) {
      const done = MapGet(pending, id);
      if (done === undefined) return; // cleared timer or cancelled op
      MapDelete(pending, id);
      // JSON, bytes, or both (an object with its bytes attached as `bytes`: ops/op-types.ts WithBytes).
      let value = json === null || json === undefined ? undefined : JSONParse(json);
      if (bytes !== undefined && bytes !== null) {
        if (value === undefined) value = bytes;
        else value.bytes = bytes;
      }
      if (!ok) value = decodeError(json);
      try {
        done(ok, value);
      } catch (e) {
        fail(e); // an error thrown by a timer callback ends the run, as an uncaught exception would
      }
      if (afterTask !== undefined) afterTask();
    },
    /** Runs the wrapped main body and follows its promise of { k: kind, v: value } to the run's settlement. */
    track(main) {
      let mainPromise;
      try {
        mainPromise = main();
      } catch (e) {
        failMain(e);
        return;
      } finally {
        if (afterTask !== undefined) afterTask();
      }
      PromisePrototypeThen(mainPromise, (completion) => {
        if (completion.k === 0) { op('run.settle', { ok: true, result: '' }); return; }
        PromisePrototypeThen(PromiseResolve(completion.v), (v) => op('run.settle', { ok: true, result: serializeResult(v) }), failMain);
      }, failMain);
    },
  };
  /**
   * The worker's WebAssembly modules (docs/wasm.md), installed by the V8 engine into every realm
   * before user code: `__wasm_<name>` is the compiled WebAssembly.Module and, for modules without
   * imports, `<name>` its instance's exports. Both are lazy (the bytes cross from the host and
   * compile on first use, once per run) and both behave as ordinary globals a script may replace.
   * A `<name>` that is already a global of the platform is not shadowed (only `__wasm_<name>`).
   */
  internal.installWasm = function installWasm(json) {
    // Read now, not when the prelude booted: a V8 startup snapshot is built in an isolate without
    // WebAssembly, and installWasm runs before any user code could have replaced it.
    const Wasm = typeof g.WebAssembly === 'object' ? g.WebAssembly : undefined;
    if (Wasm === undefined) return;
    const WasmModule = Wasm.Module;
    const WasmInstance = Wasm.Instance;
    const list = JSONParse(json);
    for (let i = 0; i < list.length; i++) {
      const name = list[i].name;
      let module;
      let exports;
      const compiled = () => (module !== undefined ? module : (module = new WasmModule(op('wasm.bytes', { name }))));
      const lazyGlobal = (key, get) => {
        ObjectDefineProperty(g, key, {
          __proto__: null, configurable: true, enumerable: false, get,
          set(value) { ObjectDefineProperty(g, key, { __proto__: null, value, writable: true, configurable: true, enumerable: true }); },
        });
      };
      lazyGlobal(`__wasm_${name}`, compiled);
      if (list[i].bind && !(name in g)) lazyGlobal(name, () => (exports !== undefined ? exports : (exports = new WasmInstance(compiled(), {}).exports)));
    }
  };
  /**
   * A platform part's factory `(__runjs_P, __runjs_require) => exports`, compiled by the engine
   * from its code cache (V8), or undefined where the engine does not (QuickJS: the loader then
   * evaluates the part's source itself). Not an op: its answer is a function, not data.
   */
  internal.compilePart = function compilePart(name) {
    const r = hostCall('platform.compile', JSONStringify(name), undefined);
    return typeof r === 'function' ? r : undefined;
  };
  // Internal helpers the later preludes (web APIs, node: modules) build on.
  internal.op = op;
  internal.promiseDetails = promiseDetails;
  internal.opAsync = opAsync;
  /** true when the 'uncaughtException' listeners took `e` or the run already failed with what one threw. */
  internal.dispatchUncaught = (e, origin) => dispatchUncaught(e, origin) !== NOT_TAKEN;
  internal.setUncaughtHandler = (onUncaught, onDropped) => { uncaughtHandler = onUncaught; droppedHandler = onDropped; };
  internal.watchDropped = watchDropped;
  internal.setAfterTask = (fn) => { afterTask = fn; };
  internal.formatArg = formatArg;
  internal.formatError = formatError;
  // The later prelude files (PRELUDE_FILES) reach `internal` through this temporary global;
  // prelude-end.js, the last of them, deletes it and completes the script with `internal`.
  ObjectDefineProperty(g, '__runjs_internal', { __proto__: null, value: internal, configurable: true });
  return internal;
})();
