// MessageChannel and MessagePort (HTML Standard), within the one realm a run has: postMessage
// structured-clones the data and delivers it to the entangled port as a 'message' event in a
// later task (setTimeout 0, so a pending message keeps the run alive and arrives after the
// current turn's microtasks). Ports only buffer until started (`start()`, setting `onmessage`,
// or — as in Node — adding a 'message' listener). An open port does not itself keep the run
// alive (Node's does, until close() or unref()).
import { Event, EventTarget, trusted } from './event-target.js';
import { MessageEvent } from './more-events.js';
import { structuredClone } from './structured-clone.js';

const state = new WeakMap(); // MessagePort → { other, started, closed, queue, onmessage, onmessageerror }
let constructing = false;

function stateOf(port) {
  const s = state.get(port);
  if (s === undefined) throw new TypeError('Illegal invocation');
  return s;
}

function flush(port) {
  const s = stateOf(port);
  if (!s.started || s.closed || s.queue.length === 0 || s.scheduled) return;
  s.scheduled = true;
  setTimeout(() => {
    s.scheduled = false;
    while (s.started && !s.closed && s.queue.length > 0) {
      const data = s.queue.shift();
      port.dispatchEvent(trusted(new MessageEvent('message', { data })));
    }
  }, 0);
}

function start(port) {
  const s = stateOf(port);
  if (s.started) return;
  s.started = true;
  flush(port);
}

export class MessagePort extends EventTarget {
  constructor() {
    if (!constructing) throw new TypeError('Constructor cannot be called'); // Node's text
    super();
    state.set(this, { other: null, started: false, closed: false, scheduled: false, queue: [], onmessage: null, onmessageerror: null, nodeListeners: new Map() });
  }
  postMessage(message, transfer = undefined) {
    if (arguments.length < 1) throw new TypeError("Failed to execute 'postMessage' on 'MessagePort': 1 argument required, but only 0 present.");
    const s = stateOf(this);
    const data = structuredClone(message, Array.isArray(transfer) ? { transfer } : transfer);
    if (s.closed || s.other === null) return;
    const target = s.other;
    const t = stateOf(target);
    if (t.closed) return;
    t.queue.push(data);
    flush(target);
  }
  start() { start(this); }
  close() {
    const s = stateOf(this);
    if (s.closed) return;
    const other = s.other;
    s.closed = true;
    s.queue.length = 0;
    s.other = null;
    const closeEvents = [this];
    if (other !== null) {
      const o = stateOf(other);
      o.other = null;
      if (!o.closed) { o.closed = true; o.queue.length = 0; closeEvents.push(other); }
    }
    // Node emits 'close' on both ports once they are disentangled.
    setTimeout(() => { for (const p of closeEvents) p.dispatchEvent(trusted(new Event('close'))); }, 0);
  }
  addEventListener(type, callback, options = undefined) {
    super.addEventListener(type, callback, options);
    if (String(type) === 'message' && callback !== null && callback !== undefined) start(this);
  }
  get onmessage() { return stateOf(this).onmessage; }
  set onmessage(fn) {
    const s = stateOf(this);
    if (s.onmessage !== null) super.removeEventListener('message', s.onmessage);
    s.onmessage = typeof fn === 'function' ? fn : null;
    if (s.onmessage !== null) { super.addEventListener('message', s.onmessage); start(this); }
  }
  get onmessageerror() { return stateOf(this).onmessageerror; }
  set onmessageerror(fn) {
    const s = stateOf(this);
    if (s.onmessageerror !== null) super.removeEventListener('messageerror', s.onmessageerror);
    s.onmessageerror = typeof fn === 'function' ? fn : null;
    if (s.onmessageerror !== null) super.addEventListener('messageerror', s.onmessageerror);
  }
  // Node's EventEmitter-style API: a 'message' listener gets the data itself.
  on(type, listener) {
    const wrapped = (e) => listener(String(type) === 'message' ? e.data : e);
    stateOf(this).nodeListeners.set(listener, wrapped);
    this.addEventListener(type, wrapped);
    return this;
  }
  once(type, listener) {
    const wrapped = (e) => listener(String(type) === 'message' ? e.data : e);
    stateOf(this).nodeListeners.set(listener, wrapped);
    this.addEventListener(type, wrapped, { once: true });
    return this;
  }
  off(type, listener) {
    const s = stateOf(this);
    const wrapped = s.nodeListeners.get(listener);
    if (wrapped !== undefined) { s.nodeListeners.delete(listener); this.removeEventListener(type, wrapped); }
    return this;
  }
  removeListener(type, listener) { return this.off(type, listener); }
  ref() { return this; }
  unref() { return this; }
  hasRef() { return false; }
}
Object.defineProperty(MessagePort.prototype, Symbol.toStringTag, { value: 'MessagePort', configurable: true });

export class MessageChannel {
  #port1; #port2;
  constructor() {
    constructing = true;
    try {
      this.#port1 = new MessagePort();
      this.#port2 = new MessagePort();
    } finally {
      constructing = false;
    }
    stateOf(this.#port1).other = this.#port2;
    stateOf(this.#port2).other = this.#port1;
  }
  get port1() { return this.#port1; }
  get port2() { return this.#port2; }
}
Object.defineProperty(MessageChannel.prototype, Symbol.toStringTag, { value: 'MessageChannel', configurable: true });
