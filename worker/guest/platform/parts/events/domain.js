// node:domain (deprecated in Node, DEP0032, but still shipped): a Domain is an EventEmitter that
// collects the 'error' events of the emitters added to it and the errors its run()/bind()/
// intercept() callbacks throw. Written to Node 24's lib/domain.js behaviour for what a single
// script can observe. Limit: runjs has no async context, so an error thrown later by a callback
// that run() scheduled (a timer, a promise job) is not routed to the domain — only synchronous
// throws inside run() and the bind()/intercept() wrappers are (docs/script-environment.md).
import core from 'runjs:part/core';

const { nodeError } = core.shared;

/** Tags an error as the domain's, as Node does before emitting it on the domain. */
function tag(er, domain, fields) {
  if (er === null || (typeof er !== 'object' && typeof er !== 'function')) return;
  Object.defineProperty(er, 'domain', { __proto__: null, value: domain, writable: true, enumerable: false, configurable: true });
  Object.assign(er, fields);
}

/**
 * The domain module for `EventEmitter`. Loading it patches `EventEmitter.prototype.emit` as
 * Node's does: an 'error' event that an emitter with a domain has no listener for goes to the
 * domain (a missing or falsy error becomes ERR_UNHANDLED_ERROR), and other events are emitted
 * with the domain entered.
 */
export function makeDomain(EventEmitter) {
  const stack = [];
  const state = { active: null };

  class Domain extends EventEmitter {
    constructor() {
      super();
      this.members = [];
    }
    enter() {
      stack.push(this);
      state.active = this;
      process.domain = this;
    }
    exit() {
      const at = stack.lastIndexOf(this);
      if (at === -1) return;
      stack.length = at;
      state.active = stack.length > 0 ? stack[stack.length - 1] : null;
      process.domain = state.active;
    }
    add(ee) {
      if (ee.domain === this) return;
      if (ee.domain) ee.domain.remove(ee);
      ee.domain = this;
      this.members.push(ee);
    }
    remove(ee) {
      ee.domain = null;
      const at = this.members.indexOf(ee);
      if (at !== -1) this.members.splice(at, 1);
    }
    run(fn, ...args) {
      this.enter();
      try {
        return Reflect.apply(fn, this, args);
      } catch (er) {
        tag(er, this, { domainThrown: true });
        this.emit('error', er);
        return undefined;
      } finally {
        this.exit();
      }
    }
    bind(cb) {
      const domain = this;
      function runBound(...args) {
        return domain.run(() => Reflect.apply(cb, this, args));
      }
      runBound.domain = this;
      return runBound;
    }
    intercept(cb) {
      const domain = this;
      function runIntercepted(er, ...args) {
        if (er) {
          tag(er, domain, { domainBound: cb, domainThrown: false });
          domain.emit('error', er);
          return undefined;
        }
        return domain.run(() => Reflect.apply(cb, this, args));
      }
      return runIntercepted;
    }
  }

  const emit = EventEmitter.prototype.emit;
  EventEmitter.prototype.emit = function emit_(...args) {
    const domain = this.domain;
    if (domain === null || domain === undefined || this === process) return Reflect.apply(emit, this, args);
    if (args[0] === 'error' && this.listenerCount('error') === 0) {
      const er = args.length > 1 && args[1] ? args[1] : nodeError(Error, 'ERR_UNHANDLED_ERROR', 'Unhandled error.');
      if (typeof er === 'object') {
        er.domainEmitter = this;
        tag(er, domain, { domainThrown: false });
      }
      domain.emit('error', er);
      return false;
    }
    domain.enter();
    try {
      return Reflect.apply(emit, this, args);
    } finally {
      domain.exit();
    }
  };
  Object.defineProperty(EventEmitter.prototype.emit, 'name', { value: 'emit' });
  EventEmitter.usingDomains = true;

  // Node's export order.
  return {
    _stack: stack,
    Domain,
    get active() { return state.active; },
    create: () => new Domain(),
    createDomain: () => new Domain(),
  };
}
