// The worker's cancel side channel. QuickJS runs guest code synchronously on this thread, so an
// IPC `cancel` message cannot be read while a script spins. The supervisor therefore also
// writes each cancel as a line "<reason> <runId>\n" to an extra pipe (fd --cancel-fd); a
// tiny worker thread reads it and publishes the latest request in shared memory, where the
// engine's interrupt handler polls it (worker/engine.ts InterruptPoll) between bytecodes.
//
// Shared memory layout: Int32 [0] sequence (bumped after each write), [1] reason (1 cancel,
// 2 timeout), [2] runId length; bytes from offset 16: the runId (ASCII).
import { Worker } from 'node:worker_threads';
import type { InterruptReason } from '../engine.ts';

const SEQ = 0;
const REASON = 1;
const LENGTH = 2;
const ID_OFFSET = 16;
const ID_BYTES = 128;

const READER_SOURCE = `
const { workerData } = require('node:worker_threads');
const net = require('node:net');
const flags = new Int32Array(workerData.sab, 0, 4);
const bytes = new Uint8Array(workerData.sab, ${ID_OFFSET}, ${ID_BYTES});
const socket = new net.Socket({ fd: workerData.fd, readable: true, writable: false });
let pending = '';
socket.setEncoding('latin1');
socket.on('data', (chunk) => {
  pending += chunk;
  for (let i = pending.indexOf('\\n'); i >= 0; i = pending.indexOf('\\n')) {
    const line = pending.slice(0, i);
    pending = pending.slice(i + 1);
    const space = line.indexOf(' ');
    const reason = line.slice(0, space) === 'timeout' ? 2 : 1;
    const id = line.slice(space + 1, space + 1 + ${ID_BYTES});
    for (let k = 0; k < id.length; k++) bytes[k] = id.charCodeAt(k) & 0x7f;
    Atomics.store(flags, 2, id.length);
    Atomics.store(flags, 1, reason);
    Atomics.add(flags, 0, 1);
  }
});
socket.on('error', () => {});
`;

export class CancelChannel {
  readonly #flags: Int32Array;
  readonly #bytes: Uint8Array;
  #seen = 0;

  private constructor(sab: SharedArrayBuffer) {
    this.#flags = new Int32Array(sab, 0, 4);
    this.#bytes = new Uint8Array(sab, ID_OFFSET, ID_BYTES);
  }

  /** Starts reading the side channel when the supervisor provided one (the worker's --cancel-fd). */
  static open(fdArg: string | undefined): CancelChannel | undefined {
    const fd = Number(fdArg);
    if (!Number.isInteger(fd) || fd < 3) return undefined;
    const sab = new SharedArrayBuffer(ID_OFFSET + ID_BYTES);
    const reader = new Worker(READER_SOURCE, { eval: true, workerData: { sab, fd }, stdout: false, stderr: false });
    reader.unref(); // never keeps the worker process alive
    reader.on('error', () => { /* without the channel, IPC cancels still work between bytecodes */ });
    return new CancelChannel(sab);
  }

  /**
   * The reason a cancel for `runId` arrived, once per request; undefined otherwise. Cheap when
   * nothing arrived (one atomic load): it runs from the interrupt handler.
   */
  poll(runId: string): InterruptReason | undefined {
    const seq = Atomics.load(this.#flags, SEQ);
    if (seq === this.#seen) return undefined;
    const reason = Atomics.load(this.#flags, REASON);
    const length = Atomics.load(this.#flags, LENGTH);
    let match = length === runId.length;
    for (let i = 0; match && i < length; i++) match = this.#bytes[i] === runId.charCodeAt(i);
    // A write that raced this read bumps the sequence again: look at it on the next poll.
    if (Atomics.load(this.#flags, SEQ) !== seq) return undefined;
    this.#seen = seq;
    if (!match) return undefined;
    return reason === 2 ? 'timeout' : 'cancel';
  }
}
