// Transferable streams (WHATWG Streams § 4.2.7, 5.2.6, 6.2.6): structuredClone(stream, {transfer})
// gives a new stream that reads from (or writes to) the original, which stays locked to it. The
// spec builds the pair over a MessagePort between realms; here both ends are in the same realm,
// so the new stream drives the original's reader or writer directly. As over a port, chunks are
// structured-cloned on the way (a chunk that cannot be cloned errors both ends), the receiving
// readable has a high-water mark of 0 and the receiving writable of 1.
import core from 'runjs:part/core';

const { registerTransferable, serializeWithTransfer } = core.shared;

function lockedError(what) {
  return new (core.globals.DOMException)(`Cannot transfer a locked ${what}`, 'DataCloneError');
}

export function registerStreamTransfers({ ReadableStream, WritableStream, TransformStream }) {
  const readers = new WeakMap();
  const writers = new WeakMap();

  const receiveReadable = () => {
    const link = { reader: undefined };
    const copy = new ReadableStream({
      async pull(controller) {
        const { value, done } = await link.reader.read();
        if (done) { controller.close(); return; }
        let chunk;
        try {
          chunk = serializeWithTransfer(value, []);
        } catch (e) {
          link.reader.cancel(e).catch(() => {});
          throw e;
        }
        controller.enqueue(chunk);
      },
      cancel: (reason) => link.reader.cancel(reason),
    }, { highWaterMark: 0 });
    readers.set(copy, link);
    return copy;
  };
  const receiveWritable = () => {
    const link = { writer: undefined };
    const copy = new WritableStream({
      async write(chunk) {
        await link.writer.ready;
        let value;
        try {
          value = serializeWithTransfer(chunk, []);
        } catch (e) {
          link.writer.abort(e).catch(() => {});
          throw e;
        }
        await link.writer.write(value);
      },
      close: () => link.writer.close(),
      abort: (reason) => link.writer.abort(reason),
    }, { highWaterMark: 1 });
    writers.set(copy, link);
    return copy;
  };

  registerTransferable(ReadableStream, {
    detached: (rs) => rs.locked,
    lockedError: () => lockedError('ReadableStream'),
    receive: receiveReadable,
    transfer(rs, copy) { readers.get(copy).reader = rs.getReader(); },
  });
  registerTransferable(WritableStream, {
    detached: (ws) => ws.locked,
    lockedError: () => lockedError('WritableStream'),
    receive: receiveWritable,
    transfer(ws, copy) { writers.get(copy).writer = ws.getWriter(); },
  });
  // A TransformStream travels as its two ends; the received one is a TransformStream whose
  // readable and writable are those ends' copies (the polyfill's own fields hold them).
  registerTransferable(TransformStream, {
    detached: (ts) => ts.readable.locked || ts.writable.locked,
    lockedError: () => lockedError('TransformStream'),
    receive() {
      const copy = new TransformStream();
      copy._readable = receiveReadable();
      copy._writable = receiveWritable();
      return copy;
    },
    transfer(ts, copy) {
      readers.get(copy._readable).reader = ts.readable.getReader();
      writers.get(copy._writable).writer = ts.writable.getWriter();
    },
  });
}
