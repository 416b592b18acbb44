// The worker's object pipe: a mounted snapshot's file contents, fetched by content id while a
// run waits. node:fs's sync API (and QuickJS, which runs guest code on this thread) needs the
// bytes synchronously, but this thread's event loop cannot run meanwhile, so the request goes
// through a tiny worker thread that owns the pipe (fd --object-fd): this thread posts the request,
// blocks in Atomics.wait until the reader has the answer, and takes it with receiveMessageOnPort.
//
// Wire format (supervisor/pool/worker-process.ts serves it): request "<seq> <runId> <id>\n";
// answer a 9-byte header (u32 seq, u8 ok, u32 length) and `length` bytes: the content when ok,
// else a UTF-8 message. The supervisor answers only for the run it is executing, and only ids
// that run's tree references (supervisor/fs/mount-image.ts).
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { OpError } from '../ops/op-types.ts';

/** How long a run waits for one object before the read fails (the store may be remote). */
const FETCH_TIMEOUT_MS = 60_000;
const WAIT_SLICE_MS = 1_000;
export const OBJECT_HEADER_BYTES = 9;

const READER_SOURCE = `
const { workerData } = require('node:worker_threads');
const net = require('node:net');
const done = new Int32Array(workerData.sab);
const port = workerData.port;
const socket = new net.Socket({ fd: workerData.fd, readable: true, writable: true });
let pending = Buffer.alloc(0);
port.on('message', (line) => socket.write(line));
socket.on('data', (chunk) => {
  pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
  while (pending.length >= ${OBJECT_HEADER_BYTES}) {
    const length = pending.readUInt32BE(5);
    if (pending.length < ${OBJECT_HEADER_BYTES} + length) break;
    const seq = pending.readUInt32BE(0);
    const ok = pending[4] === 1;
    const payload = new Uint8Array(length);
    payload.set(pending.subarray(${OBJECT_HEADER_BYTES}, ${OBJECT_HEADER_BYTES} + length));
    pending = pending.subarray(${OBJECT_HEADER_BYTES} + length);
    port.postMessage({ seq, ok, payload }, [payload.buffer]);
    Atomics.store(done, 0, seq);
    Atomics.notify(done, 0);
  }
});
socket.on('error', () => {});
port.unref();
`;

export class ObjectChannel {
  readonly #fd: number;
  readonly #done: Int32Array;
  #port: MessagePort | undefined;
  #seq = 0;

  private constructor(fd: number) {
    this.#fd = fd;
    this.#done = new Int32Array(new SharedArrayBuffer(4));
  }

  /** The channel over the pipe the supervisor provided (the worker's --object-fd); its reader starts on first use. */
  static open(fdArg: string | undefined): ObjectChannel | undefined {
    const fd = Number(fdArg);
    return Number.isInteger(fd) && fd >= 3 ? new ObjectChannel(fd) : undefined;
  }

  /**
   * Starts the reader thread (idempotent). An idle thread costs a worker ~18 MB, so it starts
   * when the first run with a mount arrives, not at spawn. A thread boots on its own, so a fetch
   * made before it is up simply waits for it.
   */
  start(): MessagePort {
    if (this.#port !== undefined) return this.#port;
    const { port1, port2 } = new MessageChannel();
    const reader = new Worker(READER_SOURCE, { eval: true, workerData: { sab: this.#done.buffer, fd: this.#fd, port: port2 }, transferList: [port2], stdout: false, stderr: false });
    reader.unref(); // never keeps the worker process alive
    reader.on('error', () => { /* reads then time out and fail the operation with EIO */ });
    port1.unref();
    this.#port = port1;
    return port1;
  }

  /** The content `id` of `runId`'s mounted tree; blocks this thread until it arrives. */
  fetch(runId: string, id: string): Uint8Array {
    const port = this.start();
    const seq = ++this.#seq;
    port.postMessage(`${seq} ${runId} ${id}\n`);
    const deadline = performance.now() + FETCH_TIMEOUT_MS;
    for (let seen = Atomics.load(this.#done, 0); seen < seq; seen = Atomics.load(this.#done, 0)) {
      if (performance.now() > deadline) throw new OpError(`EIO: i/o error: the filesystem store did not answer within ${FETCH_TIMEOUT_MS} ms, read '${id}'`, 'Error', 'EIO');
      Atomics.wait(this.#done, 0, seen, WAIT_SLICE_MS);
    }
    // Answers come in order; an older one belongs to a read that timed out.
    for (;;) {
      const got = receiveMessageOnPort(port)?.message as { seq: number; ok: boolean; payload: Uint8Array } | undefined;
      if (got === undefined) throw new OpError(`EIO: i/o error: the object pipe lost an answer, read '${id}'`, 'Error', 'EIO');
      if (got.seq !== seq) continue;
      if (!got.ok) throw new OpError(`EIO: i/o error: ${Buffer.from(got.payload).toString('utf8')}`, 'Error', 'EIO');
      return got.payload;
    }
  }
}
