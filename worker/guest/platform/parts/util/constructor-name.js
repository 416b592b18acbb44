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

export function engineConstructorName(obj) {
  // V8's stack API has Error.stackTraceLimit; QuickJS lacks it (and setting it would leave it).
  if (!Object.hasOwn(Error, 'stackTraceLimit')) return undefined;
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
