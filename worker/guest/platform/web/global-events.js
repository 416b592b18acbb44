// The global object as an EventTarget (as a worker's global scope is, and Deno's): the global
// addEventListener, removeEventListener and dispatchEvent, and "report the exception" (HTML
// Standard): an exception nobody can catch (thrown by an event listener or a queueMicrotask
// callback, or passed to reportError) is first dispatched as an ErrorEvent named `error` at the
// global object. With an `error` listener there the script has taken it (a worker global scope
// goes on running); with none it takes Node's path and ends the run (microtask.js).
import { EventTarget, adoptEventTarget, eventTargetListeners, trusted } from './event-target.js';
import { ErrorEvent } from './more-events.js';
import { onReportException } from './microtask.js';

const g = globalThis;
adoptEventTarget(g);
const proto = EventTarget.prototype;

// `this` is the global object when the method is called bare (`addEventListener(...)` in a
// module has no receiver), as for a web global's operations.
export function addEventListener(type, callback) {
  return Reflect.apply(proto.addEventListener, this ?? g, arguments);
}
export function removeEventListener(type, callback) {
  return Reflect.apply(proto.removeEventListener, this ?? g, arguments);
}
export function dispatchEvent(event) {
  return Reflect.apply(proto.dispatchEvent, this ?? g, arguments);
}

let reporting = false;
onReportException((e) => {
  // An error thrown by an `error` listener itself is not reported again (HTML: a nested report
  // goes to the console); it ends the run.
  if (reporting || eventTargetListeners(g, 'error').length === 0) return false;
  reporting = true;
  try {
    Reflect.apply(proto.dispatchEvent, g, [trusted(new ErrorEvent('error', { message: messageOf(e), error: e, cancelable: true }))]);
  } finally {
    reporting = false;
  }
  return true;
});

function messageOf(e) {
  try {
    if (e instanceof Error) return `Uncaught ${e.name}: ${e.message}`;
    return `Uncaught ${typeof e === 'object' && e !== null ? Object.prototype.toString.call(e) : String(e)}`;
  } catch {
    return 'Uncaught exception';
  }
}
