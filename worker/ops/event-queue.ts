// The events of one host object (a WebSocket, a child process, an HTTP/2 session or stream)
// waiting for the guest, which takes them one at a time with one pending `…next` op. Events past a
// high-water mark of queued bytes pause the source (TCP, a pipe) until the guest has caught up,
// so what a fast source costs the host is bounded by this mark, not by how much it sends.
import { OpError } from './op-types.ts';

/** Bytes waiting for the guest beyond which the source is paused (resumed at half of it). */
export const QUEUE_HIGH_WATER_BYTES = 1024 * 1024;

export interface EventQueueOptions<E> {
  /** `pause(true)` stops reading the source, `pause(false)` restarts it. */
  readonly pause?: (paused: boolean) => void;
  /** The bytes an event holds while it waits (default: a Uint8Array's length, else 0). */
  readonly size?: (e: E) => number;
}

const byteSize = (e: unknown): number => (e instanceof Uint8Array ? e.byteLength : 0);

export class EventQueue<E> {
  readonly #queue: E[] = [];
  readonly #pause: (paused: boolean) => void;
  readonly #size: (e: E) => number;
  #waiter: ((e: E) => void) | undefined;
  #ended = false;
  #bytes = 0;
  #paused = false;

  constructor(options: EventQueueOptions<E> = {}) {
    this.#pause = options.pause ?? (() => {});
    this.#size = options.size ?? byteSize;
  }

  /** The last event was queued (or the queue was cleared): nothing more is. */
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
    this.#bytes += this.#size(e);
    if (!this.#paused && this.#bytes > QUEUE_HIGH_WATER_BYTES) {
      this.#paused = true;
      this.#pause(true);
    }
  }

  /**
   * The next event; one caller at a time (the guest's one pending op, named `what` in errors).
   * After the last event: rejects with `closed` (default `<what>: closed`).
   */
  next(signal: AbortSignal, what: string, closed = `${what}: closed`): Promise<E> {
    const queued = this.#queue.shift();
    if (queued !== undefined) {
      this.#bytes -= this.#size(queued);
      if (this.#paused && this.#bytes <= QUEUE_HIGH_WATER_BYTES / 2) {
        this.#paused = false;
        this.#pause(false);
      }
      return Promise.resolve(queued);
    }
    if (this.#ended) return Promise.reject(new OpError(closed, 'TypeError'));
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
