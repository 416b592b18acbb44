// What one run has sent and received over the network, over every capability (fetch bodies,
// WebSocket messages): one counter per run, held in its resources, so the per-run budget for what
// a run receives (`fetch.maxResponseBytesPerRun`) is one budget whichever way the bytes came.
import { resourceKey } from '../runtime/run-resources.ts';

export interface RunTraffic {
  /** Request body bytes and WebSocket message bytes the run has sent. */
  sentBytes: number;
  /** Response body bytes and WebSocket message bytes the run has received. */
  receivedBytes: number;
}

export const TRAFFIC = resourceKey<RunTraffic>('network-traffic', () => ({ sentBytes: 0, receivedBytes: 0 }));

/** Adds `n` received bytes; false when that takes the run past `budget` (the bytes are counted anyway). */
export function countReceived(traffic: RunTraffic, n: number, budget: number): boolean {
  traffic.receivedBytes += n;
  return traffic.receivedBytes <= budget;
}
