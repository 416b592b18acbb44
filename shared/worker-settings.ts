// What a worker process is configured with, once, when it is spawned: the supervisor sends these
// as the first protocol message (`init`), and the worker builds its op tables from them
// (worker/ops/capabilities.ts). A worker reads no environment and no configuration of its own, so
// everything that shapes what a script may do reaches it here, typed and checked.
import type { EngineName } from './protocol.ts';

/**
 * Host-side limits of the ops a script can call. Per-run limits that vary with the request (the
 * heap cap, the timeout) travel with each run instead (RunRequest).
 */
export interface HostOpLimits {
  /** Bytes of artifact() payloads a run may have in flight to the supervisor at once. */
  readonly maxPendingArtifactBytes: number;
  /** PBKDF2 (node:crypto and WebCrypto) per call: iterations × output blocks of the digest. */
  readonly maxPbkdf2Work: number;
  /** scrypt per call: N × r × p. (Its memory, 128 × r × (N + p + 2), is held to the run's heap cap.) */
  readonly maxScryptWork: number;
  /** Async key derivations (pbkdf2, scrypt, WebCrypto PBKDF2) a run may have running at once; more wait. */
  readonly maxConcurrentKeyDerivations: number;
}

export interface WorkerSettings {
  /** Engines the worker boots before it says ready (others boot on first use). */
  readonly warmEngines: readonly EngineName[];
  /** Where QuickJS keeps its base image between worker restarts (a private, rebuildable cache). */
  readonly quickjsCacheDir: string;
  readonly limits: HostOpLimits;
}

export const DEFAULT_HOST_OP_LIMITS: HostOpLimits = Object.freeze({
  maxPendingArtifactBytes: 64 * 1024 * 1024,
  // ≈ 8 s of SHA-512 (2 s of SHA-1) on the 2-core development machine.
  maxPbkdf2Work: 10_000_000,
  // 2²², 32 × Node's default N × r × p: ≈ 7 s.
  maxScryptWork: 4 * 1024 * 1024,
  maxConcurrentKeyDerivations: 4,
});

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

function isHostOpLimits(v: unknown): v is HostOpLimits {
  return isObject(v) && isCount(v['maxPendingArtifactBytes']) && isCount(v['maxPbkdf2Work']) && isCount(v['maxScryptWork'])
    && isCount(v['maxConcurrentKeyDerivations']) && v['maxConcurrentKeyDerivations'] > 0;
}

export function isWorkerSettings(v: unknown): v is WorkerSettings {
  return isObject(v)
    && Array.isArray(v['warmEngines']) && v['warmEngines'].every((e) => e === 'v8' || e === 'quickjs')
    && typeof v['quickjsCacheDir'] === 'string'
    && isHostOpLimits(v['limits']);
}
