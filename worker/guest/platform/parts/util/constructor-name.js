// V8's internal constructor name of an object: what Node's internalGetConstructorName returns (the
// function that made the object, also after its prototype was changed or removed), which util.inspect
// shows for a null-prototype instance (`[Foo: null prototype] {}`). No script-level API gives it,
// but V8 reports it as a stack frame's type name: a frame whose receiver is the object is captured
// through Error.prepareStackTrace, set only for that capture. QuickJS has no such stack API: there
// the answer is undefined and inspect falls back to the object's tag.

/** A frame whose receiver is the object asked about (called with it as `this`). */
function receiverFrame() {
  const holder = {};
  Error.captureStackTrace(holder);
  return holder.stack;
}

// V8's stack API (structured frames through Error.prepareStackTrace) comes with its native
// Error.captureStackTrace; QuickJS's is the engine bridge's, written in JavaScript, and calls no
// prepareStackTrace (both engines have Error.stackTraceLimit).
const V8_STACK_API = typeof Error.captureStackTrace === 'function' && Function.prototype.toString.call(Error.captureStackTrace).includes('[native code]');

export function engineConstructorName(obj) {
  if (!V8_STACK_API) return undefined;
  const prepare = Error.prepareStackTrace;
  const limit = Error.stackTraceLimit;
  let name;
  try {
    Error.stackTraceLimit = 1;
    Error.prepareStackTrace = (_error, frames) => (typeof frames?.[0]?.getTypeName === 'function' ? frames[0].getTypeName() : undefined);
    name = Reflect.apply(receiverFrame, obj, []);
  } catch {
    name = undefined;
  } finally {
    Error.prepareStackTrace = prepare;
    Error.stackTraceLimit = limit;
  }
  return typeof name === 'string' && name !== '' && !name.includes('\n') ? name : undefined;
}
