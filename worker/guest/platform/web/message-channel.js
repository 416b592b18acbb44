// MessageChannel and MessagePort (HTML Standard), within the one realm a run has: postMessage
// structured-clones the data and delivers it to the entangled port as a 'message' event in a
// later task (setTimeout 0, so a pending message keeps the run alive and arrives after the
// current turn's microtasks). Ports only buffer until started (`start()`, setting `onmessage`,
// or — as in Node — adding a 'message' listener). An open port does not itself keep the run
// alive (Node's does, until close() or unref()). A port is transferable: a port listed in a
// transfer list moves its entanglement (and its undelivered messages) to the copy the receiver
// gets, and the original is left detached, sending and receiving nothing.
import { DOMException } from './dom-exception.js';
import { Event, EventTarget, trusted } from './event-target.js';
import { MessageEvent } from './more-events.js';
import { registerTransferable, serializeWithTransfer } from './structured-clone.js';

const state = new WeakMap(); // MessagePort → { other, started, closed, detached, queue: [{data, ports}], onmessage, onmessageerror }
let constructing = false;

function newPort() {
  constructing = true;
  try {
    return new MessagePort();
  } finally {
    constructing = false;
  }
}

/** postMessage's second argument: a transfer sequence, or StructuredSerializeOptions. */
function transferOf(transfer) {
  if (transfer === undefined || transfer === null) return [];
  if (typeof transfer === 'object' && typeof transfer[Symbol.iterator] === 'function') return [...transfer];
  if (typeof transfer !== 'object') throw new TypeError("Failed to execute 'postMessage' on 'MessagePort': The provided value cannot be converted to a sequence.");
  const list = transfer.transfer;
  return list === undefined ? [] : [...list];
}

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
      const { data, ports } = s.queue.shift();
      port.dispatchEvent(trusted(new MessageEvent('message', { data, ports })));
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
    state.set(this, { other: null, started: false, closed: false, detached: false, scheduled: false, queue: [], onmessage: null, onmessageerror: null, nodeListeners: new Map() });
  }
  postMessage(message, transfer = undefined) {
    if (arguments.length < 1) throw new TypeError("Failed to execute 'postMessage' on 'MessagePort': 1 argument required, but only 0 present.");
    const s = stateOf(this);
    const list = transferOf(transfer);
    const target = s.other;
    // HTML's postMessage steps: this port may not travel in its own message (Node's text); sending
    // the target port along dooms the message (the channel is lost, nothing is delivered).
    if (list.includes(this)) throw new DOMException('Transfer list contains source port', 'DataCloneError');
    const doomed = target !== null && list.includes(target);
    const data = serializeWithTransfer(message, list);
    if (s.closed || target === null || doomed) return;
    const t = stateOf(target);
    if (t.closed) return;
    // The receiver's `ports`: the copies the serialization made of the ports sent along.
    const ports = [];
    for (const p of list) if (p instanceof MessagePort) ports.push(stateOf(p).successor);
    t.queue.push({ data, ports });
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

registerTransferable(MessagePort, {
  detached: (port) => stateOf(port).detached,
  receive: () => newPort(),
  transfer(port, copy) {
    const s = stateOf(port);
    const c = stateOf(copy);
    c.other = s.other;
    c.closed = s.closed;
    c.queue = s.queue;
    if (s.other !== null) stateOf(s.other).other = copy;
    s.other = null;
    s.queue = [];
    s.detached = true;
    s.closed = true;
    s.successor = copy;
  },
});

export class MessageChannel {
  #port1; #port2;
  constructor() {
    this.#port1 = newPort();
    this.#port2 = newPort();
    stateOf(this.#port1).other = this.#port2;
    stateOf(this.#port2).other = this.#port1;
  }
  get port1() { return this.#port1; }
  get port2() { return this.#port2; }
}
Object.defineProperty(MessageChannel.prototype, Symbol.toStringTag, { value: 'MessageChannel', configurable: true });
