// util.inspect of the web streams as Node shows them: `ReadableStream { locked, state,
// supportsBYOB }` and its peers, instead of web-streams-polyfill's internal fields. Node keeps
// these methods on the prototypes (non-enumerable, `(depth, options)`), so runjs's do too.
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/**
 * Node's customInspect of lib/internal/webstreams/util. Past the depth limit it returns its own
 * `this`, which is undefined there (a plain function), so Node prints `undefined` for a stream
 * nested deeper than the limit; runjs prints the same.
 */
function show(depth, options, inspect, name, data) {
  if (typeof depth === 'number' && depth < 0) return undefined;
  const opts = { ...options, depth: options.depth == null ? null : options.depth - 1 };
  return `${name} ${inspect(data, opts)}`;
}

function define(Class, name, data) {
  const methods = {
    // The inspect function util.inspect passes third; `length` stays Node's 2.
    [INSPECT](depth, options) { return show(depth, options, arguments[2], name, data(this)); },
  };
  Object.defineProperty(Class.prototype, INSPECT, { value: methods[INSPECT], writable: true, configurable: true });
}

/** Installs the inspect methods; the polyfill's `_state` and `_backpressure` are its spec slots. */
export function installStreamInspect(classes) {
  const { ReadableStream, WritableStream, TransformStream, ReadableByteStreamController } = classes;
  define(ReadableStream, 'ReadableStream', (s) => ({ locked: s.locked, state: s._state, supportsBYOB: s._readableStreamController instanceof ReadableByteStreamController }));
  define(WritableStream, 'WritableStream', (s) => ({ locked: s.locked, state: s._state }));
  define(TransformStream, 'TransformStream', (s) => ({ readable: s.readable, writable: s.writable, backpressure: s._backpressure }));
  define(classes.TextEncoderStream, 'TextEncoderStream', (s) => ({ encoding: s.encoding, readable: s.readable, writable: s.writable }));
  define(classes.TextDecoderStream, 'TextDecoderStream', (s) => ({ encoding: s.encoding, fatal: s.fatal, ignoreBOM: s.ignoreBOM, readable: s.readable, writable: s.writable }));
  define(classes.CompressionStream, 'CompressionStream', (s) => ({ readable: s.readable, writable: s.writable }));
  define(classes.DecompressionStream, 'DecompressionStream', (s) => ({ readable: s.readable, writable: s.writable }));
}
