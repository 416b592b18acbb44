// The Event subclasses scripts construct and dispatch themselves (HTML Standard): MessageEvent,
// ErrorEvent, CloseEvent (WebSocket's), PromiseRejectionEvent. Plain data holders over Event.
import { Event } from './event-target.js';

function required(name, args) {
  if (args < 1) throw new TypeError(`Failed to construct '${name}': 1 argument required, but only 0 present.`);
}
function tag(cls, name) {
  Object.defineProperty(cls.prototype, Symbol.toStringTag, { value: name, configurable: true });
}

export class MessageEvent extends Event {
  #data; #origin; #lastEventId; #source; #ports;
  constructor(type, init = undefined) {
    required('MessageEvent', arguments.length);
    super(type, init);
    this.#data = init?.data ?? null;
    this.#origin = String(init?.origin ?? '');
    this.#lastEventId = String(init?.lastEventId ?? '');
    this.#source = init?.source ?? null;
    this.#ports = Object.freeze(Array.from(init?.ports ?? []));
  }
  get data() { return this.#data; }
  get origin() { return this.#origin; }
  get lastEventId() { return this.#lastEventId; }
  get source() { return this.#source; }
  get ports() { return this.#ports; }
}
tag(MessageEvent, 'MessageEvent');

export class ErrorEvent extends Event {
  #message; #filename; #lineno; #colno; #error;
  constructor(type, init = undefined) {
    required('ErrorEvent', arguments.length);
    super(type, init);
    this.#message = String(init?.message ?? '');
    this.#filename = String(init?.filename ?? '');
    this.#lineno = (init?.lineno ?? 0) >>> 0;
    this.#colno = (init?.colno ?? 0) >>> 0;
    this.#error = init?.error;
  }
  get message() { return this.#message; }
  get filename() { return this.#filename; }
  get lineno() { return this.#lineno; }
  get colno() { return this.#colno; }
  get error() { return this.#error; }
}
tag(ErrorEvent, 'ErrorEvent');

export class CloseEvent extends Event {
  #wasClean; #code; #reason;
  constructor(type, init = undefined) {
    required('CloseEvent', arguments.length);
    super(type, init);
    this.#wasClean = !!init?.wasClean;
    this.#code = (init?.code ?? 0) & 0xffff;
    this.#reason = String(init?.reason ?? '');
  }
  get wasClean() { return this.#wasClean; }
  get code() { return this.#code; }
  get reason() { return this.#reason; }
}
tag(CloseEvent, 'CloseEvent');

export class PromiseRejectionEvent extends Event {
  #promise; #reason;
  constructor(type, init) {
    if (arguments.length < 2) throw new TypeError(`Failed to construct 'PromiseRejectionEvent': 2 arguments required, but only ${arguments.length} present.`);
    if (init === null || typeof init !== 'object' || !('promise' in init)) {
      throw new TypeError("Failed to construct 'PromiseRejectionEvent': Failed to read the 'promise' property from 'PromiseRejectionEventInit': Required member is undefined.");
    }
    super(type, init);
    this.#promise = init.promise;
    this.#reason = init.reason;
  }
  get promise() { return this.#promise; }
  get reason() { return this.#reason; }
}
tag(PromiseRejectionEvent, 'PromiseRejectionEvent');
