// The method dispatchers of the captured primordials. Inlined verbatim (not bundled, not
// transformed) into the generated platform script, next to the generated capture of every
// builtin the platform uses (scripts/guest-bundle/primordialize.ts, primordialsSource), which
// runs before any user code. `$name(o, ...args)` calls o's `name` method, except that a method a
// builtin prototype holds *now* (possibly replaced by user code) is swapped for the one it held
// at boot; a subclass's own override is still used. Each dispatcher is built on its first call.
function installDispatchers(P, saved) {
  const ReflectApply = Reflect.apply;
  const TypeErrorCtor = TypeError;
  const ArrayProto = Array.prototype;
  const ArrayIsArray = Array.isArray;
  const MathTrunc = Math.trunc;
  const ArrayCtor = Array;
  const GetOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const SymbolSpecies = Symbol.species;
  const bootSpecies = GetOwnPropertyDescriptor(Array, Symbol.species).get;
  /** Whether Array's species machinery is as at boot (then the native methods are safe and fast). */
  function speciesPristine(o) {
    if (o.constructor !== ArrayCtor) return false;
    const d = GetOwnPropertyDescriptor(ArrayCtor, SymbolSpecies);
    return d !== undefined && d.get === bootSpecies;
  }
  // Array methods whose result is made through Array[Symbol.species] (user code can replace it with
  // a throwing getter or a constructor of its own): platform calls on arrays use these loops instead.
  function relIndex(i, n, fallback) {
    if (i === undefined) return fallback;
    const x = MathTrunc(+i) || 0;
    return x < 0 ? (n + x > 0 ? n + x : 0) : (x < n ? x : n);
  }
  const speciesFree = {
    __proto__: null,
    slice(start, end) {
      const n = this.length;
      const to = relIndex(end, n, n);
      const out = [];
      for (let i = relIndex(start, n, 0); i < to; i++) out[out.length] = this[i];
      return out;
    },
    map(fn, thisArg) {
      const n = this.length;
      const out = [];
      out.length = n;
      for (let i = 0; i < n; i++) if (i in this) out[i] = ReflectApply(fn, thisArg, [this[i], i, this]);
      return out;
    },
    filter(fn, thisArg) {
      const n = this.length;
      const out = [];
      for (let i = 0; i < n; i++) if (i in this && ReflectApply(fn, thisArg, [this[i], i, this])) out[out.length] = this[i];
      return out;
    },
    concat(...items) {
      const out = [];
      for (let i = 0; i < this.length; i++) out[out.length] = this[i];
      for (let k = 0; k < items.length; k++) {
        const v = items[k];
        if (ArrayIsArray(v)) for (let i = 0; i < v.length; i++) out[out.length] = v[i];
        else out[out.length] = v;
      }
      return out;
    },
    splice(start, deleteCount, ...items) {
      const n = this.length;
      const from = relIndex(start, n, 0);
      let count = n - from;
      if (arguments.length === 0) count = 0;
      else if (arguments.length > 1) { const d = MathTrunc(+deleteCount) || 0; count = d < 0 ? 0 : (d < n - from ? d : n - from); }
      const removed = [];
      for (let i = from; i < from + count; i++) removed[removed.length] = this[i];
      const tail = [];
      for (let i = from + count; i < n; i++) tail[tail.length] = this[i];
      this.length = from;
      for (let i = 0; i < items.length; i++) this[this.length] = items[i];
      for (let i = 0; i < tail.length; i++) this[this.length] = tail[i];
      return removed;
    },
  };
  function notAFunction(o, name) {
    return new TypeErrorCtor(`${o === null ? 'null' : typeof o}.${name} is not a function`);
  }
  function dispatcher(name, found) {
    const n = found.length;
    const safe = speciesFree[name];
    if (safe !== undefined) {
      for (let i = 0; i < n; i += 2) {
        if (found[i] !== ArrayProto) continue;
        const native = found[i + 1];
        found[i + 1] = function (...a) { return ReflectApply(speciesPristine(this) ? native : safe, this, a); };
      }
    }
    if (n === 0) {
      return function (o, ...a) {
        const f = o[name];
        if (typeof f !== 'function') throw notAFunction(o, name);
        return ReflectApply(f, o, a);
      };
    }
    if (n === 2) {
      const h0 = found[0];
      const s0 = found[1];
      return function (o, ...a) {
        let f = o[name];
        if (f === h0[name]) f = s0;
        else if (typeof f !== 'function') throw notAFunction(o, name);
        return ReflectApply(f, o, a);
      };
    }
    return function (o, ...a) {
      const f = o[name];
      for (let i = 0; i < n; i += 2) {
        if (found[i] !== undefined && f === found[i][name]) return ReflectApply(found[i + 1], o, a);
      }
      if (typeof f !== 'function') throw notAFunction(o, name);
      return ReflectApply(f, o, a);
    };
  }
  for (const name in saved) {
    const key = `$${name}`;
    P[key] = function (o, ...a) {
      const d = dispatcher(name, saved[name]);
      P[key] = d;
      const args = [o];
      for (let i = 0; i < a.length; i++) args[i + 1] = a[i];
      return ReflectApply(d, undefined, args);
    };
  }
  P.iter = makeIter();
  P.forIn = makeForIn();
  closeDescriptors(P);
  return P;
}

/**
 * `__runjs_P.forIn(o)`: what platform code's `for (k in o)` iterates instead (primordialize.ts):
 * the string keys for-in would visit - own and inherited, enumerable, not shadowed - except those
 * on a builtin prototype. A script's enumerable `Object.prototype.polluted` would otherwise be a
 * key of every object the platform walks (esbuild's `__export` made it a getter). Keys are taken
 * when the loop starts (for-in also skips keys deleted meanwhile; platform loops do not delete).
 */
function makeForIn() {
  const ReflectOwnKeys = Reflect.ownKeys;
  const ReflectApply = Reflect.apply;
  const getProto = Object.getPrototypeOf;
  const ObjectCtor = Object;
  const PropertyIsEnumerable = Object.prototype.propertyIsEnumerable;
  const SymbolIterator = Symbol.iterator;
  const SetCtor = Set;
  const setProto = Object.setPrototypeOf;
  const builtin = new SetCtor();
  const protos = [Object.prototype, Array.prototype, Function.prototype, String.prototype, Number.prototype, Boolean.prototype,
    Symbol.prototype, BigInt.prototype, Error.prototype, RegExp.prototype, Date.prototype, Promise.prototype, Map.prototype,
    Set.prototype, ArrayBuffer.prototype, DataView.prototype, getProto(Uint8Array.prototype), Uint8Array.prototype];
  const add = Set.prototype.add;
  const has = Set.prototype.has;
  for (let i = 0; i < protos.length; i++) ReflectApply(add, builtin, [protos[i]]);
  class KeyIterator {
    constructor(keys) { this.keys = keys; this.i = 0; }
    next() {
      const keys = this.keys;
      if (keys !== undefined && this.i < keys.length) return { __proto__: null, value: keys[this.i++], done: false };
      this.keys = undefined;
      return { __proto__: null, value: undefined, done: true };
    }
    [SymbolIterator]() { return this; }
  }
  setProto(KeyIterator.prototype, null);
  return function forIn(o) {
    const keys = setProto([], null);
    if (o !== null && o !== undefined) {
      const seen = new SetCtor();
      for (let p = ObjectCtor(o); p !== null && !ReflectApply(has, builtin, [p]); p = getProto(p)) {
        const own = ReflectOwnKeys(p);
        for (let i = 0; i < own.length; i++) {
          const k = own[i];
          if (typeof k !== 'string' || ReflectApply(has, seen, [k])) continue;
          ReflectApply(add, seen, [k]);
          if (ReflectApply(PropertyIsEnumerable, p, [k])) keys[keys.length] = k;
        }
      }
    }
    return new KeyIterator(keys);
  };
}

/**
 * Property descriptors are read like any object, prototype chain included: after a script's
 * `Object.prototype.get = 1`, every `Object.defineProperty(o, k, { value })` the platform makes
 * would throw (`Getter must be a function: 1`), and `Object.prototype.value`/`writable` would
 * change what it defines. The captured `defineProperty`, `defineProperties`, `create` and
 * `Reflect.defineProperty` therefore take only a descriptor's own fields (which is all the
 * platform, npm packages included, ever means).
 */
function closeDescriptors(P) {
  const ReflectApply = Reflect.apply;
  const ReflectOwnKeys = Reflect.ownKeys;
  const ObjectHasOwn = Object.hasOwn;
  const PropertyIsEnumerable = Object.prototype.propertyIsEnumerable;
  const getProto = Object.getPrototypeOf;
  const FIELDS = Object.setPrototypeOf(['value', 'writable', 'get', 'set', 'enumerable', 'configurable'], null);
  function own(d) {
    if ((typeof d !== 'object' && typeof d !== 'function') || d === null || getProto(d) === null) return d;
    const out = { __proto__: null };
    for (let i = 0; i < FIELDS.length; i++) if (ObjectHasOwn(d, FIELDS[i])) out[FIELDS[i]] = d[FIELDS[i]];
    return out;
  }
  function ownAll(props) {
    if ((typeof props !== 'object' && typeof props !== 'function') || props === null) return props;
    const out = { __proto__: null };
    const keys = ReflectOwnKeys(props);
    for (let i = 0; i < keys.length; i++) {
      if (ReflectApply(PropertyIsEnumerable, props, [keys[i]])) out[keys[i]] = own(props[keys[i]]);
    }
    return out;
  }
  const { Object_defineProperty: define, Object_defineProperties: defineAll, Object_create: create, Reflect_defineProperty: reflectDefine } = P;
  if (define !== undefined) P.Object_defineProperty = function defineProperty(o, key, d) { return define(o, key, own(d)); };
  if (defineAll !== undefined) P.Object_defineProperties = function defineProperties(o, props) { return defineAll(o, ownAll(props)); };
  if (create !== undefined) P.Object_create = function create_(proto, props) { return props === undefined ? create(proto) : create(proto, ownAll(props)); };
  if (reflectDefine !== undefined) P.Reflect_defineProperty = function defineProperty(o, key, d) { return reflectDefine(o, key, own(d)); };
}

/**
 * `__runjs_P.iter(x)`: what platform code iterates instead of `x` (primordialize.ts wraps every
 * `for...of`, spread and array destructuring). For an array, typed array, string, Map or Set whose
 * iterator is the builtin one (or what the builtin prototype holds now, possibly replaced by user
 * code), an iterator built from boot-time parts; anything else is iterated as it is.
 */
function makeIter() {
  const ReflectApply = Reflect.apply;
  const getProto = Object.getPrototypeOf;
  const SymbolIterator = Symbol.iterator;
  const ArrayProto = Array.prototype;
  const TypedArrayProto = getProto(Uint8Array.prototype);
  const MapProto = Map.prototype;
  const SetProto = Set.prototype;
  const StringProto = String.prototype;
  const bootArrayValues = ArrayProto[SymbolIterator];
  const bootTypedValues = TypedArrayProto[SymbolIterator];
  const bootMapEntries = MapProto[SymbolIterator];
  const bootSetValues = SetProto[SymbolIterator];
  const bootStringIterator = StringProto[SymbolIterator];
  const mapNext = getProto(new Map()[SymbolIterator]()).next;
  const setNext = getProto(new Set()[SymbolIterator]()).next;
  const stringNext = getProto(''[SymbolIterator]()).next;
  class IndexIterator {
    constructor(a) { this.a = a; this.i = 0; }
    next() {
      const a = this.a;
      if (a !== undefined && this.i < a.length) return { value: a[this.i++], done: false };
      this.a = undefined;
      return { value: undefined, done: true };
    }
    [SymbolIterator]() { return this; }
  }
  class BootIterator {
    constructor(it, next) { this.it = it; this.nx = next; }
    next() { return ReflectApply(this.nx, this.it, []); }
    [SymbolIterator]() { return this; }
  }
  Object.setPrototypeOf(IndexIterator.prototype, null);
  Object.setPrototypeOf(BootIterator.prototype, null);
  return function iter(x) {
    if (typeof x === 'string') {
      return new BootIterator(ReflectApply(bootStringIterator, x, []), stringNext);
    }
    if (typeof x !== 'object' || x === null) return x;
    const f = x[SymbolIterator];
    if (f === bootArrayValues || f === bootTypedValues || (f !== undefined && (f === ArrayProto[SymbolIterator] || f === TypedArrayProto[SymbolIterator]))) {
      return new IndexIterator(x);
    }
    if (f === bootMapEntries || (f !== undefined && f === MapProto[SymbolIterator])) return new BootIterator(ReflectApply(bootMapEntries, x, []), mapNext);
    if (f === bootSetValues || (f !== undefined && f === SetProto[SymbolIterator])) return new BootIterator(ReflectApply(bootSetValues, x, []), setNext);
    return x;
  };
}
