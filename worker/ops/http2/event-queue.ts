// The events of one host object (an HTTP/2 session or stream) waiting for the guest, which takes
// them one at a time with one pending `…next` op: the pattern of worker/ops/websocket/socket.ts.
// Byte events past a high-water mark pause the source until the guest has caught up.
import { OpError } from '../op-types.ts';

/** Bytes waiting for the guest beyond which the source is paused. */
export const QUEUE_HIGH_WATER_BYTES = 1024 * 1024;

export class EventQueue<E> {
  readonly #queue: E[] = [];
  readonly #pause: (paused: boolean) => void;
  #waiter: ((e: E) => void) | undefined;
  #ended = false;
  #bytes = 0;
  #paused = false;

  /** `pause(true)` stops reading the source, `pause(false)` restarts it. */
  constructor(pause: (paused: boolean) => void = () => {}) {
    this.#pause = pause;
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Whether the guest has taken the last event. */
  get drained(): boolean {
    return this.#ended && this.#queue.length === 0;
  }

  /** Queues (or hands the waiting guest) an event; `last` ends the queue. Ignored once ended. */
  push(e: E, last = false): void {
    if (this.#ended) return;
    if (last) this.#ended = true;
    const w = this.#waiter;
    if (w !== undefined) {
      this.#waiter = undefined;
      w(e);
      return;
    }
    this.#queue.push(e);
    if (e instanceof Uint8Array) {
      this.#bytes += e.byteLength;
      if (!this.#paused && this.#bytes > QUEUE_HIGH_WATER_BYTES) {
        this.#paused = true;
        this.#pause(true);
      }
    }
  }

  next(signal: AbortSignal, what: string): Promise<E> {
    const queued = this.#queue.shift();
    if (queued !== undefined) {
      if (queued instanceof Uint8Array) this.#bytes -= queued.byteLength;
      if (this.#paused && this.#bytes <= QUEUE_HIGH_WATER_BYTES / 2) {
        this.#paused = false;
        this.#pause(false);
      }
      return Promise.resolve(queued);
    }
    if (this.#ended) return Promise.reject(new OpError(`${what}: closed`, 'TypeError'));
    if (this.#waiter !== undefined) return Promise.reject(new OpError(`${what}: already waiting`, 'TypeError'));
    return new Promise((resolve) => {
      const onAbort = (): void => { this.#waiter = undefined; };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiter = (e) => {
        signal.removeEventListener('abort', onAbort);
        resolve(e);
      };
    });
  }

  /** The run has ended: nothing more is queued or handed out. */
  clear(): void {
    this.#ended = true;
    this.#queue.length = 0;
    this.#waiter = undefined;
  }
}
