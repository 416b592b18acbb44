// isolated-vm ends a guest task (our `track` or `complete` call) by throwing the reason of a
// promise that was rejected with no handler by the end of the task's microtask checkpoint. The
// prelude's `track`/`complete` catch every synchronous guest exception themselves, so such a throw
// is always an unhandled rejection. runjs follows Node here: an unhandled rejection is fatal, and
// reported like an uncaught exception — `Uncaught <Name>: <message>` and the guest stack.
//
// isolated-vm copies the reason across the boundary: an Error arrives as a host error of the same
// built-in class (chosen by its constructor's name) with message and the guest's stack, and a
// subclass with its `name`; a primitive arrives as itself; any other object only as isolated-vm's
// generic "not an instance of Error" error (its value is lost). So a plain Error given another
// `name` arrives as `Error`: the prelude makes op errors instances of the class they name.

const NON_ERROR_OBJECT = 'An object was thrown from supplied code within isolated-vm, but that object was not an instance of `Error`.';
const BOUNDARY = '(<isolated-vm boundary>)';
/** V8's default Error.stackTraceLimit, as the prelude's cleanStack keeps. */
const MAX_FRAMES = 10;

/** The guest's frames of a copied error's stack: up to isolated-vm's boundary, prelude frames dropped. */
function guestFrames(stack: string): string[] {
  const frames: string[] = [];
  for (const line of stack.split('\n').slice(1)) {
    if (line.includes(BOUNDARY)) break;
    if (!line.startsWith('    at ') || line.includes('runjs:prelude')) continue;
    if (frames.length === MAX_FRAMES) break;
    frames.push(line);
  }
  return frames;
}

/** The execution error for an unhandled rejection that isolated-vm threw as `reason`. */
export function unhandledRejectionText(reason: unknown): string {
  if (reason instanceof Error) {
    if (reason.message === NON_ERROR_OBJECT) return 'Uncaught (in promise) a non-Error object: a promise was rejected with an object that is not an Error, and nothing handled the rejection';
    const head = reason.message === '' ? reason.name : `${reason.name}: ${reason.message}`;
    const frames = guestFrames(typeof reason.stack === 'string' ? reason.stack : '');
    return [`Uncaught ${head}`, ...frames].join('\n');
  }
  switch (typeof reason) {
    case 'bigint': return `Uncaught ${reason}n`;
    case 'symbol': return `Uncaught ${reason.toString()}`;
    default: return `Uncaught ${String(reason)}`;
  }
}

/**
 * The reason as the prelude rebuilds it for process 'unhandledRejection' listeners: isolated-vm
 * copied it out of the isolate, so an Error comes back as a new error of its class with its
 * message and stack (not the same object), a primitive as itself, any other object as nothing.
 */
export function unhandledRejectionReason(reason: unknown): string {
  if (reason instanceof Error) {
    if (reason.message === NON_ERROR_OBJECT) return JSON.stringify({ kind: 'object' });
    const frames = guestFrames(typeof reason.stack === 'string' ? reason.stack : '');
    const head = reason.message === '' ? reason.name : `${reason.name}: ${reason.message}`;
    return JSON.stringify({ kind: 'error', name: reason.name, message: reason.message, stack: [head, ...frames].join('\n') });
  }
  switch (typeof reason) {
    case 'bigint': return JSON.stringify({ kind: 'bigint', value: String(reason) });
    case 'symbol': return JSON.stringify({ kind: 'symbol', value: reason.description ?? '' });
    case 'undefined': return JSON.stringify({ kind: 'undefined' });
    case 'number': return JSON.stringify({ kind: 'number', value: Object.is(reason, -0) ? '-0' : String(reason) }); // NaN, -0, Infinity as text
    default: return JSON.stringify({ kind: 'value', value: reason });
  }
}
