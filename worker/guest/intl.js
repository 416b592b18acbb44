// Intl for engines that have none (QuickJS; on V8 this file does nothing). Intl.NumberFormat,
// DateTimeFormat, Collator, PluralRules, RelativeTimeFormat and ListFormat, and the
// toLocaleString / toLocaleDateString / toLocaleTimeString / localeCompare family, are guest
// objects whose every call goes to the host's ICU through the intl.* ops (worker/ops/intl/), so
// scripts format the same on both engines. A formatter is its spec - [kind, locales, options] as
// JSON - which the host maps to one cached real Intl object. Nothing here calls an op while the
// prelude boots (a realm is booted before its run exists): only when a script formats.
(function () {
  'use strict';
  const g = globalThis;
  const internal = g.__runjs_internal;
  if (typeof g.Intl !== 'undefined' || internal === undefined) return;
  const op = internal.op;

  const uncurry = (fn) => Function.prototype.call.bind(fn);
  const JSONStringify = JSON.stringify;
  const ObjectDefineProperty = Object.defineProperty;
  const ObjectCreate = Object.create;
  const ObjectIs = Object.is;
  const Object_ = Object;
  const String_ = String;
  const Number_ = Number;
  const MathMin = Math.min;
  const MathMax = Math.max;
  const MathTrunc = Math.trunc;
  const NumberIsNaN = Number.isNaN;
  const DateNow = Date.now;
  const TypeErrorCtor = TypeError;
  const RangeErrorCtor = RangeError;
  const SymbolToStringTag = Symbol.toStringTag;
  const SafeMap = Map;
  const MapGet = uncurry(Map.prototype.get);
  const MapSet = uncurry(Map.prototype.set);
  const SafeSet = Set;
  const SetHas = uncurry(Set.prototype.has);
  const SetAdd = uncurry(Set.prototype.add);
  const SetDelete = uncurry(Set.prototype.delete);
  const ArrayPrototypePush = uncurry(Array.prototype.push);
  const ArrayPrototypeJoin = uncurry(Array.prototype.join);
  const NumberPrototypeValueOf = uncurry(Number.prototype.valueOf);
  const BigIntPrototypeValueOf = uncurry(BigInt.prototype.valueOf);
  const BigIntPrototypeToString = uncurry(BigInt.prototype.toString);
  const DatePrototypeGetTime = uncurry(Date.prototype.getTime);
  const StringPrototypeToUpperCase = uncurry(String.prototype.toUpperCase);
  const StringPrototypeToLowerCase = uncurry(String.prototype.toLowerCase);

  /** Calls an intl op; the host's RangeErrors arrive named but plain, so make them real ones. */
  function call(name, args) {
    try {
      return op(name, args);
    } catch (e) {
      if (e !== null && typeof e === 'object' && e.name === 'RangeError') throw new RangeErrorCtor(e.message);
      throw e;
    }
  }

  function locales(l) {
    if (l === undefined || typeof l === 'string') return l;
    if (l === null) throw new TypeErrorCtor('Cannot convert undefined or null to object');
    const list = [];
    const o = Object_(l);
    const n = MathMin(MathMax(MathTrunc(Number_(o.length)) || 0, 0), 1000);
    for (let i = 0; i < n; i++) {
      const v = o[i];
      if (typeof v !== 'string' && (typeof v !== 'object' || v === null)) throw new TypeErrorCtor('Language ID should be string or object.');
      ArrayPrototypePush(list, String_(v));
    }
    return list;
  }

  /** Options as plain data: every enumerable property with a primitive value. */
  function options(o) {
    if (o === undefined) return undefined;
    if (o === null) throw new TypeErrorCtor('Cannot convert undefined or null to object');
    const out = {};
    for (const k in o) {
      const v = o[k];
      const t = typeof v;
      if (t === 'string' || t === 'boolean') out[k] = v;
      else if (t === 'number') out[k] = v === v && v !== Infinity && v !== -Infinity ? v : String_(v);
      else if (t === 'bigint') out[k] = BigIntPrototypeToString(v);
      // ToPrimitive as the option's own conversion would see it: valueOf first ({ valueOf() { return 1 } } -> 1).
      else if ((t === 'object' && v !== null) || t === 'function') out[k] = '' + v;
    }
    return out;
  }

  // Specs of the common calls (no options; no locale or one tag), built once: toLocaleString()
  // and localeCompare(s) in a loop then cost one lookup instead of building JSON every call.
  const SPEC_CACHE_LIMIT = 256;
  const specs = new SafeMap();
  function spec(kind, l, o) {
    if (o === undefined && (l === undefined || typeof l === 'string')) {
      const key = l === undefined ? kind : kind + ' ' + l;
      let s = MapGet(specs, key);
      if (s === undefined) {
        s = JSONStringify([kind, l, undefined]);
        if (specs.size < SPEC_CACHE_LIMIT) MapSet(specs, key, s);
      }
      return s;
    }
    return JSONStringify([kind, locales(l), options(o)]);
  }

  /** A number to format, encoded so the host sees exactly this value (-0, NaN, BigInt, decimal strings). */
  function numeric(x) {
    if (typeof x === 'bigint') return ['b', BigIntPrototypeToString(x)];
    if (typeof x === 'string') return ['s', x];
    const n = typeof x === 'number' ? x : Number_(x);
    return ['n', ObjectIs(n, -0) ? '-0' : String_(n)];
  }

  function dateValue(d) {
    const t = d === undefined ? DateNow() : Number_(d);
    return ['n', String_(t)];
  }

  function stringList(list) {
    const out = [];
    if (list === undefined) return out;
    for (const v of list) {
      if (typeof v !== 'string') throw new TypeErrorCtor('Iterable yielded ' + (typeof v === 'object' ? 'an object' : String_(v)) + ' which is not a string');
      ArrayPrototypePush(out, v);
    }
    return out;
  }

  // --- the Intl constructors ---
  // A formatter's state { kind, spec, resolved, bound } lives in a private field of the formatter
  // object (stamped on through a constructor that returns it), not in a WeakMap: QuickJS keeps a
  // WeakMap's values until its next cycle collection, and with specs that carry large option
  // strings those pile up past a small heap cap before one runs. A private field goes with its
  // object, and nothing in the state points back at it.
  class Stamp { constructor(o) { return o; } }
  class Slot extends Stamp {
    #state;
    constructor(o, state) { super(o); this.#state = state; }
    static of(o) { return #state in o ? o.#state : undefined; }
  }
  const slotOf = Slot.of;

  function slot(self, kind, method) {
    const s = typeof self === 'object' && self !== null ? slotOf(self) : undefined;
    if (s === undefined || s.kind !== kind) throw new TypeErrorCtor(`Method Intl.${kind}.prototype.${method} called on incompatible receiver`);
    return s;
  }

  function invoke(s, method, args) {
    return call('intl.call', { s: s.spec, m: method, a: args });
  }

  /** Calls through the spec alone: a bound function kept in the state must not reach back to it (a cycle). */
  function invokeSpec(spec, method, args) {
    return call('intl.call', { s: spec, m: method, a: args });
  }

  function defineValue(target, name, value) {
    ObjectDefineProperty(target, name, { __proto__: null, value, writable: true, enumerable: false, configurable: true });
  }

  function defineMethods(target, methods) {
    for (const name in methods) defineValue(target, name, methods[name]);
  }

  /** One Intl constructor: `callable` ones (NumberFormat, DateTimeFormat, Collator) work without `new`. */
  function defineKind(kind, callable) {
    const Ctor = function (l, o) {
      if (new.target === undefined && !callable) throw new TypeErrorCtor(`Constructor Intl.${kind} requires 'new'`);
      const self = new.target === undefined ? ObjectCreate(Ctor.prototype) : this;
      const s = spec(kind, l, o);
      new Slot(self, { kind, spec: s, resolved: call('intl.resolve', { s }), bound: undefined });
      return self;
    };
    ObjectDefineProperty(Ctor, 'name', { __proto__: null, value: kind, configurable: true });
    ObjectDefineProperty(Ctor, 'length', { __proto__: null, value: 0, configurable: true });
    defineValue(Ctor, 'supportedLocalesOf', function supportedLocalesOf(l, o) {
      return call('intl.supported', { k: kind, l: locales(l), o: options(o) });
    });
    ObjectDefineProperty(Ctor.prototype, SymbolToStringTag, { __proto__: null, value: `Intl.${kind}`, configurable: true });
    defineValue(Ctor.prototype, 'resolvedOptions', function resolvedOptions() {
      const r = slot(this, kind, 'resolvedOptions').resolved;
      const copy = {};
      for (const k in r) copy[k] = r[k];
      return copy;
    });
    return Ctor;
  }

  /** A getter returning a function bound to its formatter, as `format` and `compare` are specified. */
  function defineBoundGetter(Ctor, kind, name, make) {
    ObjectDefineProperty(Ctor.prototype, name, {
      __proto__: null,
      get() {
        const s = slot(this, kind, name);
        if (s.bound === undefined) s.bound = make(s.spec);
        return s.bound;
      },
      enumerable: false,
      configurable: true,
    });
  }

  const NumberFormat = defineKind('NumberFormat', true);
  defineBoundGetter(NumberFormat, 'NumberFormat', 'format', (spec) => (x) => invokeSpec(spec, 'format', [numeric(x)]));
  defineMethods(NumberFormat.prototype, {
    formatToParts(x) { return invoke(slot(this, 'NumberFormat', 'formatToParts'), 'formatToParts', [numeric(x)]); },
    formatRange(x, y) { return invoke(slot(this, 'NumberFormat', 'formatRange'), 'formatRange', [numeric(x), numeric(y)]); },
    formatRangeToParts(x, y) { return invoke(slot(this, 'NumberFormat', 'formatRangeToParts'), 'formatRangeToParts', [numeric(x), numeric(y)]); },
  });

  const DateTimeFormat = defineKind('DateTimeFormat', true);
  defineBoundGetter(DateTimeFormat, 'DateTimeFormat', 'format', (spec) => (d) => invokeSpec(spec, 'format', [dateValue(d)]));
  defineMethods(DateTimeFormat.prototype, {
    formatToParts(d) { return invoke(slot(this, 'DateTimeFormat', 'formatToParts'), 'formatToParts', [dateValue(d)]); },
    formatRange(a, b) { return invoke(slot(this, 'DateTimeFormat', 'formatRange'), 'formatRange', [dateValue(a), dateValue(b)]); },
    formatRangeToParts(a, b) { return invoke(slot(this, 'DateTimeFormat', 'formatRangeToParts'), 'formatRangeToParts', [dateValue(a), dateValue(b)]); },
  });

  const Collator = defineKind('Collator', true);
  defineBoundGetter(Collator, 'Collator', 'compare', (spec) => (a, b) => invokeSpec(spec, 'compare', [String_(a), String_(b)]));

  const PluralRules = defineKind('PluralRules', false);
  defineMethods(PluralRules.prototype, {
    select(n) { return invoke(slot(this, 'PluralRules', 'select'), 'select', [numeric(Number_(n))]); },
    selectRange(x, y) { return invoke(slot(this, 'PluralRules', 'selectRange'), 'selectRange', [numeric(Number_(x)), numeric(Number_(y))]); },
  });

  const RelativeTimeFormat = defineKind('RelativeTimeFormat', false);
  defineMethods(RelativeTimeFormat.prototype, {
    format(value, unit) { return invoke(slot(this, 'RelativeTimeFormat', 'format'), 'format', [numeric(Number_(value)), String_(unit)]); },
    formatToParts(value, unit) { return invoke(slot(this, 'RelativeTimeFormat', 'formatToParts'), 'formatToParts', [numeric(Number_(value)), String_(unit)]); },
  });

  const ListFormat = defineKind('ListFormat', false);
  defineMethods(ListFormat.prototype, {
    format(list) { return invoke(slot(this, 'ListFormat', 'format'), 'format', [stringList(list)]); },
    formatToParts(list) { return invoke(slot(this, 'ListFormat', 'formatToParts'), 'formatToParts', [stringList(list)]); },
  });

  const Intl_ = {};
  ObjectDefineProperty(Intl_, SymbolToStringTag, { __proto__: null, value: 'Intl', configurable: true });
  defineMethods(Intl_, { NumberFormat, DateTimeFormat, Collator, PluralRules, RelativeTimeFormat, ListFormat });
  defineValue(Intl_, 'getCanonicalLocales', function getCanonicalLocales(l) {
    return call('intl.canonical', { l: locales(l) });
  });
  defineValue(Intl_, 'supportedValuesOf', function supportedValuesOf(key) {
    return call('intl.values', { k: String_(key) });
  });
  defineValue(g, 'Intl', Intl_);

  // --- the toLocale* family, on the same cached host formatters ---
  defineMethods(Number.prototype, {
    toLocaleString(l, o) {
      const x = NumberPrototypeValueOf(this);
      return call('intl.call', { s: spec('NumberFormat', l, o), m: 'format', a: [numeric(x)] });
    },
  });
  defineMethods(BigInt.prototype, {
    toLocaleString(l, o) {
      const x = BigIntPrototypeValueOf(this);
      return call('intl.call', { s: spec('NumberFormat', l, o), m: 'format', a: [numeric(x)] });
    },
  });
  function dateToLocale(kind) {
    return function (l, o) {
      const t = DatePrototypeGetTime(this);
      if (NumberIsNaN(t)) return 'Invalid Date';
      return call('intl.call', { s: spec(kind, l, o), m: 'format', a: [['n', String_(t)]] });
    };
  }
  // Date#toString and #toTimeString end with the zone's ICU display name on V8, e.g.
  // "GMT+0000 (Coordinated Universal Time)"; QuickJS stops after the offset.
  const DatePrototypeToString = uncurry(Date.prototype.toString);
  const DatePrototypeToTimeString = uncurry(Date.prototype.toTimeString);
  const ZONE_NAME_SPEC = JSONStringify(['DateTimeFormat', undefined, { timeZoneName: 'long' }]);
  function zoneName(t) {
    const parts = call('intl.call', { s: ZONE_NAME_SPEC, m: 'formatToParts', a: [['n', String_(t)]] });
    for (let i = 0; i < parts.length; i++) if (parts[i].type === 'timeZoneName') return ` (${parts[i].value})`;
    return '';
  }
  defineMethods(Date.prototype, {
    toString() {
      const text = DatePrototypeToString(this);
      const t = DatePrototypeGetTime(this);
      return NumberIsNaN(t) ? text : text + zoneName(t);
    },
    toTimeString() {
      const text = DatePrototypeToTimeString(this);
      const t = DatePrototypeGetTime(this);
      return NumberIsNaN(t) ? text : text + zoneName(t);
    },
  });
  const toLocaleString = dateToLocale('DateAny');
  const toLocaleDateString = dateToLocale('DateOnly');
  const toLocaleTimeString = dateToLocale('TimeOnly');
  defineMethods(Date.prototype, { toLocaleString, toLocaleDateString, toLocaleTimeString });

  function thisString(self, method) {
    if (self === undefined || self === null) throw new TypeErrorCtor(`String.prototype.${method} called on null or undefined`);
    return String_(self);
  }
  defineMethods(String.prototype, {
    localeCompare(that, l, o) {
      const s = thisString(this, 'localeCompare');
      return call('intl.call', { s: spec('Collator', l, o), m: 'compare', a: [s, String_(that)] });
    },
    toLocaleUpperCase(l) {
      const s = thisString(this, 'toLocaleUpperCase');
      return l === undefined ? StringPrototypeToUpperCase(s) : call('intl.case', { s, l: locales(l), u: true });
    },
    toLocaleLowerCase(l) {
      const s = thisString(this, 'toLocaleLowerCase');
      return l === undefined ? StringPrototypeToLowerCase(s) : call('intl.case', { s, l: locales(l), u: false });
    },
  });

  // Array#toLocaleString passes locales and options on to every element (ECMA-402).
  const inProgress = new SafeSet(); // arrays being joined: a cycle prints as ''
  defineMethods(Array.prototype, {
    toLocaleString(l, o) {
      const a = Object_(this);
      if (SetHas(inProgress, a)) return '';
      SetAdd(inProgress, a);
      try {
        const n = MathMin(MathMax(MathTrunc(Number_(a.length)) || 0, 0), 2 ** 32 - 1);
        const parts = [];
        for (let i = 0; i < n; i++) {
          const v = a[i];
          ArrayPrototypePush(parts, v === undefined || v === null ? '' : String_(v.toLocaleString(l, o)));
        }
        return ArrayPrototypeJoin(parts, ',');
      } finally {
        SetDelete(inProgress, a);
      }
    },
  });
})();
