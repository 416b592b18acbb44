// Ops the worker cannot perform itself (artifacts, later other stores) go to the supervisor as
// op-request messages; the op-response with the same reqId settles them. One client per worker
// process: main.ts installs the sender and delivers responses.
import type { OpResponse, WorkerMessage } from '../../shared/protocol.ts';
import { OpError } from '../ops/op-types.ts';

interface Waiter {
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

let sender: ((msg: WorkerMessage) => void) | undefined;
let nextReqId = 1;
const waiters = new Map<number, Waiter>();

export function setSupervisorSender(send: (msg: WorkerMessage) => void): void {
  sender = send;
}

/** Sends an op to the supervisor; the promise settles with its answer (OpError on failure). */
export function requestSupervisor(runId: string, op: string, args: unknown, signal?: AbortSignal): Promise<unknown> {
  if (sender === undefined) return Promise.reject(new OpError(`runjs: '${op}' needs the supervisor, which this worker cannot reach`));
  const reqId = nextReqId++;
  return new Promise((resolve, reject) => {
    waiters.set(reqId, { resolve, reject });
    // A run that ended stops waiting; a late answer then finds no waiter and is dropped.
    signal?.addEventListener('abort', () => {
      if (waiters.delete(reqId)) reject(new OpError('runjs: the run has ended'));
    }, { once: true });
    sender!({ type: 'op-request', runId, reqId, op, args });
  });
}

export function deliverSupervisorResponse(msg: OpResponse): void {
  const w = waiters.get(msg.reqId);
  if (w === undefined) return;
  waiters.delete(msg.reqId);
  if (msg.ok) w.resolve(msg.value);
  else w.reject(new OpError(msg.error ?? 'runjs: the supervisor refused the op'));
}
