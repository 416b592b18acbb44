// assert.CallTracker (deprecated since Node 20, DEP0173, but still exported by Node 24): wraps a
// function in a Proxy that records each call, and reports the functions not called the expected
// number of times. Written to Node 24's documented behaviour and messages.
import core from 'runjs:part/core';

const { invalidArgType, nodeError, outOfRange } = core.shared;

// As Node: the default tracked function is Function.prototype (callable, nameless).
const noop = Function.prototype;

class CallContext {
  #expected;
  #name;
  #stack;
  #calls = [];
  constructor(expected, name, stack) {
    this.#expected = expected;
    this.#name = name;
    this.#stack = stack;
  }
  track(thisArg, args) {
    this.#calls.push(Object.freeze({ thisArg, arguments: Object.freeze(Array.prototype.slice.call(args)) }));
  }
  reset() { this.#calls = []; }
  getCalls() { return Object.freeze(this.#calls.slice()); } // frozen, as Node's
  report() {
    const actual = this.#calls.length;
    if (actual === this.#expected) return undefined;
    return {
      message: `Expected the ${this.#name} function to be executed ${this.#expected} time(s) but was executed ${actual} time(s).`,
      actual,
      expected: this.#expected,
      operator: this.#name,
      stack: this.#stack,
    };
  }
}

export function makeCallTracker(AssertionError, inspect) {
  return class CallTracker {
    #contexts = new Set();
    #tracked = new WeakMap();

    #context(tracked) {
      const context = this.#tracked.get(tracked);
      if (context === undefined) {
        throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The argument 'tracked' is not a tracked function. Received ${inspect(tracked)}`);
      }
      return context;
    }

    reset(tracked) {
      if (tracked === undefined) {
        for (const context of this.#contexts) context.reset();
        return;
      }
      this.#context(tracked).reset();
    }

    getCalls(tracked) {
      return this.#context(tracked).getCalls();
    }

    calls(fn, expected = 1) {
      // As Node: no new tracked functions once the process is exiting (its 'exit' listeners run).
      if (globalThis.process?._exiting === true) throw nodeError(Error, 'ERR_UNAVAILABLE_DURING_EXIT', 'Cannot call function in process exit handler');
      if (typeof fn === 'number') {
        expected = fn;
        fn = noop;
      } else if (fn === undefined) {
        fn = noop;
      }
      if (typeof expected !== 'number') throw invalidArgType('expected', 'of type number', expected);
      if (!Number.isInteger(expected)) throw outOfRange('expected', 'an integer', expected);
      if (expected < 1 || expected > 4294967295) throw outOfRange('expected', '>= 1 && <= 4294967295', expected);
      // `new Error()` as Node: the report's `stack` is where calls() was called.
      const context = new CallContext(expected, fn.name || 'calls', new Error());
      // A null-prototype handler: traps inherited from a patched Object.prototype (a script's
      // `Object.prototype.get = …`) must not become this proxy's traps.
      const tracked = new Proxy(fn, {
        __proto__: null,
        apply(target, thisArg, args) {
          context.track(thisArg, args);
          return Reflect.apply(target, thisArg, args);
        },
      });
      this.#contexts.add(context);
      this.#tracked.set(tracked, context);
      return tracked;
    }

    report() {
      const errors = [];
      for (const context of this.#contexts) {
        const r = context.report();
        if (r !== undefined) errors.push(r);
      }
      return errors;
    }

    verify() {
      const errors = this.report();
      if (errors.length === 0) return;
      const message = errors.length === 1 ? errors[0].message : 'Functions were not called the expected number of times';
      throw new AssertionError({ message, details: errors });
    }
  };
}
