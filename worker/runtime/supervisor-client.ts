// Ops the worker cannot perform itself (artifacts, later other stores) go to the supervisor as
// op-request messages; the op-response with the same reqId settles them. One client per worker
// process (the WorkerHost owns it); each run reaches it through its OpContext's RunSupervisor,
// which names the run in every request.
import type { OpResponse, WorkerMessage } from '../../shared/protocol.ts';
import { OpError, type RunSupervisor } from '../ops/op-types.ts';

interface Waiter {
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

export class SupervisorClient {
  readonly #send: (msg: WorkerMessage) => void;
  #nextReqId = 1;
  readonly #waiters = new Map<number, Waiter>();

  constructor(send: (msg: WorkerMessage) => void) {
    this.#send = send;
  }

  /** Requests made in `runId`'s name. */
  forRun(runId: string): RunSupervisor {
    return { request: (op, args, signal) => this.request(runId, op, args, signal) };
  }

  /** Sends an op to the supervisor; the promise settles with its answer (OpError on failure). */
  request(runId: string, op: string, args: unknown, signal?: AbortSignal): Promise<unknown> {
    if (signal?.aborted) return Promise.reject(new OpError('runjs: the run has ended'));
    const reqId = this.#nextReqId++;
    return new Promise((resolve, reject) => {
      this.#waiters.set(reqId, { resolve, reject });
      // A run that ended stops waiting; a late answer then finds no waiter and is dropped.
      signal?.addEventListener('abort', () => {
        if (this.#waiters.delete(reqId)) reject(new OpError('runjs: the run has ended'));
      }, { once: true });
      this.#send({ type: 'op-request', runId, reqId, op, args });
    });
  }

  deliver(msg: OpResponse): void {
    const w = this.#waiters.get(msg.reqId);
    if (w === undefined) return;
    this.#waiters.delete(msg.reqId);
    if (msg.ok) w.resolve(msg.value);
    else w.reject(new OpError(msg.error?.message ?? 'runjs: the supervisor refused the op', msg.error?.name ?? 'Error', msg.error?.code));
  }
}
