// Readable/Writable/Duplex .toWeb() and .fromWeb(): readable-stream leaves these to Node's
// internal/webstreams/adapters, which it does not ship ("lazyWebStreams(...).newReadableStream…
// is not a function"), so they are built here on the platform's own web streams, with Node's
// observable behaviour: byte chunks become Uint8Arrays, object-mode chunks pass as they are,
// backpressure pauses the Node side, cancel/abort destroy it.
import core from 'runjs:part/core';

// The web streams part loads on first use of an adapter, not with node:stream.
let ReadableStream, WritableStream, CountQueuingStrategy, ByteLengthQueuingStrategy;
function web() {
  if (ReadableStream === undefined) ({ ReadableStream, WritableStream, CountQueuingStrategy, ByteLengthQueuingStrategy } = core.host.requirePart('streams').globals);
}

function invalidArg(name, expected, value) {
  const err = new TypeError(`The "${name}" argument must be an instance of ${expected}.${value === null ? ' Received null' : value === undefined ? ' Received undefined' : ''}`);
  err.code = 'ERR_INVALID_ARG_TYPE';
  return err;
}

function readableToWeb(readable, options) {
  web();
  if (readable === null || typeof readable !== 'object' || typeof readable.on !== 'function') throw invalidArg('streamReadable', 'Readable', readable);
  const objectMode = readable.readableObjectMode === true;
  const hwm = readable.readableHighWaterMark ?? (objectMode ? 16 : 16384);
  const strategy = options?.strategy ?? (objectMode ? new CountQueuingStrategy({ highWaterMark: hwm }) : new ByteLengthQueuingStrategy({ highWaterMark: hwm }));
  let controller;
  let done = false;
  const onData = (chunk) => {
    if (done) return;
    controller.enqueue(!objectMode && chunk instanceof Uint8Array ? new Uint8Array(chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.byteLength)) : chunk);
    if (controller.desiredSize <= 0) readable.pause();
  };
  const onEnd = () => { if (!done) { done = true; controller.close(); } };
  const onError = (err) => { if (!done) { done = true; controller.error(err); } };
  return new ReadableStream({
    start(c) {
      controller = c;
      readable.on('data', onData);
      readable.once('end', onEnd);
      readable.once('error', onError);
      readable.pause();
    },
    pull() { readable.resume(); },
    cancel(reason) { done = true; readable.destroy(reason); },
  }, strategy);
}

function readableFromWeb(Readable, stream, options = {}) {
  web();
  if (!(stream instanceof ReadableStream)) throw invalidArg('readableStream', 'ReadableStream', stream);
  const reader = stream.getReader();
  return new Readable({
    objectMode: options.objectMode === true,
    highWaterMark: options.highWaterMark,
    encoding: options.encoding,
    signal: options.signal,
    read() {
      reader.read().then(({ done, value }) => { this.push(done ? null : value); }, (err) => this.destroy(err));
    },
    destroy(err, callback) {
      reader.cancel(err ?? undefined).then(() => callback(err), (e) => callback(err ?? e));
    },
  });
}

function writableToWeb(writable) {
  web();
  if (writable === null || typeof writable !== 'object' || typeof writable.write !== 'function') throw invalidArg('streamWritable', 'Writable', writable);
  return new WritableStream({
    write(chunk) {
      return new Promise((resolve, reject) => {
        writable.write(chunk, (err) => (err ? reject(err) : resolve()));
      });
    },
    close() {
      return new Promise((resolve, reject) => {
        writable.once('error', reject);
        writable.end(() => resolve());
      });
    },
    abort(reason) { writable.destroy(reason); },
  }, new CountQueuingStrategy({ highWaterMark: 1 }));
}

function writableFromWeb(Writable, stream, options = {}) {
  web();
  if (!(stream instanceof WritableStream)) throw invalidArg('writableStream', 'WritableStream', stream);
  const writer = stream.getWriter();
  return new Writable({
    objectMode: options.objectMode === true,
    decodeStrings: options.decodeStrings,
    highWaterMark: options.highWaterMark,
    signal: options.signal,
    write(chunk, _encoding, callback) {
      writer.ready.then(() => writer.write(chunk)).then(() => callback(), callback);
    },
    final(callback) {
      writer.close().then(() => callback(), callback);
    },
    destroy(err, callback) {
      if (err === null || err === undefined) { callback(null); return; }
      writer.abort(err).then(() => callback(err), () => callback(err));
    },
  });
}

/** Installs the adapters on readable-stream's classes. */
export function installWebAdapters(Stream) {
  const { Readable, Writable, Duplex } = Stream;
  const set = (target, name, value) => Object.defineProperty(target, name, { value, writable: true, configurable: true });
  set(Readable, 'toWeb', (readable, options) => readableToWeb(readable, options));
  set(Readable, 'fromWeb', (stream, options) => readableFromWeb(Readable, stream, options));
  set(Writable, 'toWeb', (writable) => writableToWeb(writable));
  set(Writable, 'fromWeb', (stream, options) => writableFromWeb(Writable, stream, options));
  set(Duplex, 'toWeb', (duplex) => ({ readable: readableToWeb(duplex), writable: writableToWeb(duplex) }));
  set(Duplex, 'fromWeb', (pair, options = {}) => {
    if (pair === null || typeof pair !== 'object') throw invalidArg('pair', 'Object', pair);
    return Duplex.from({ readable: readableFromWeb(Readable, pair.readable, options), writable: writableFromWeb(Writable, pair.writable, options) });
  });
}
