// Bounds on the key derivations a script can start. Their work runs outside the engine (the sync
// forms block the worker's thread, the async ones run in libuv's threadpool) and cannot be
// interrupted once started: a script that asks for 2³¹ PBKDF2 iterations or scrypt with N = 2²⁴
// would keep a thread busy for hours and make the worker allocate gigabytes, after its run ended.
// So each call's work is capped (settings.limits), scrypt's memory is held to the run's heap cap,
// and a run has at most a few derivations running at once; the others wait in the run's queue
// and are dropped, never started, when the run ends.
import { createHash } from 'node:crypto';
import type { HostOpLimits } from '../../../shared/worker-settings.ts';
import { resourceKey } from '../../runtime/run-resources.ts';
import { OpError } from '../op-types.ts';

/** Node's default scrypt parameters (crypto.scrypt without options). */
const SCRYPT_DEFAULTS = { N: 16384, r: 8, p: 1, maxmem: 32 * 1024 * 1024 };

function outOfRange(message: string, guestName = 'RangeError'): OpError {
  return new OpError(message, guestName, guestName === 'RangeError' ? 'ERR_OUT_OF_RANGE' : undefined);
}

/** Output length of `digest` in bytes, or undefined for a name Node's hashes do not know (Node reports it). */
function digestLength(digest: string): number | undefined {
  try {
    return createHash(digest).digest().length;
  } catch {
    return undefined;
  }
}

/**
 * Checks a PBKDF2 call: iterations × output blocks (keylen over the digest's length, rounded up;
 * each block costs the full iterations) at most `limits.maxPbkdf2Work`. `webCrypto` calls get a
 * DOMException-style OperationError instead of Node's RangeError.
 */
export function checkPbkdf2(limits: HostOpLimits, iterations: number, keylen: number, digest: string, webCrypto = false): void {
  const size = digestLength(digest);
  if (size === undefined || size === 0) return;
  const blocks = Math.max(1, Math.ceil(keylen / size));
  if (iterations * blocks <= limits.maxPbkdf2Work) return;
  const max = Math.floor(limits.maxPbkdf2Work / blocks);
  const key = blocks === 1 ? '' : ` (a ${keylen}-byte key is ${blocks} blocks of ${digest})`;
  throw outOfRange(`The value of "iterations" is out of range. It must be >= 1 && <= ${max}${key}: runjs allows ${limits.maxPbkdf2Work} PBKDF2 iterations × output blocks per call. Received ${iterations}`, webCrypto ? 'OperationError' : 'RangeError');
}

function param(options: Record<string, unknown>, name: string, alias: string, fallback: number): unknown {
  return options[name] ?? options[alias] ?? fallback;
}

/** scrypt's parameters once checked, with `maxmem` lowered to what the run may use. */
export interface ScryptPlan {
  readonly options: Record<string, unknown>;
  /** Bytes the derivation allocates (OpenSSL's figure: 128 × r × (N + p + 2)). */
  readonly memory: number;
}

/**
 * Checks scrypt's options against the run's limits: work N × r × p at most
 * `limits.maxScryptWork`, memory 128 × r × (N + p + 2) at most the smaller of `maxmem` (Node's
 * default 32 MiB) and the run's key-derivation budget (kdfBudget). Options Node itself refuses (wrong types, N not a power
 * of two, N and cost together) are left for Node to report.
 */
/**
 * Host memory a run's key derivations may hold: its heap cap, but at least Node's default scrypt
 * maxmem (32 MiB), so Node's default parameters work at the default heap — well inside the
 * host-memory watchdog's 96 MB floor.
 */
export const KDF_MEMORY_FLOOR = 32 * 1024 * 1024;

export function kdfBudget(heapBytes: number): number {
  return Math.max(heapBytes, KDF_MEMORY_FLOOR);
}

export function planScrypt(limits: HostOpLimits, heapBytes: number, raw: unknown): ScryptPlan {
  const budget = kdfBudget(heapBytes);
  const options = typeof raw === 'object' && raw !== null ? { ...(raw as Record<string, unknown>) } : {};
  const N = param(options, 'N', 'cost', SCRYPT_DEFAULTS.N);
  const r = param(options, 'r', 'blockSize', SCRYPT_DEFAULTS.r);
  const p = param(options, 'p', 'parallelization', SCRYPT_DEFAULTS.p);
  const maxmem = options['maxmem'] ?? SCRYPT_DEFAULTS.maxmem;
  const allowed = typeof maxmem === 'number' && Number.isSafeInteger(maxmem) && maxmem >= 0 ? Math.min(maxmem, budget) : budget;
  options['maxmem'] = allowed;
  if (![N, r, p].every((v) => typeof v === 'number' && Number.isSafeInteger(v) && v > 0)) return { options, memory: 0 };
  const [n, bs, par] = [N, r, p] as number[];
  const work = n! * bs! * par!;
  if (work > limits.maxScryptWork) {
    throw outOfRange(`The value of "N * r * p" is out of range. It must be <= ${limits.maxScryptWork} (runjs's limit on scrypt work per call). Received ${work} (N=${n}, r=${bs}, p=${par})`);
  }
  const memory = 128 * bs! * (n! + par! + 2);
  if (memory > allowed) {
    throw outOfRange(`The value of "128 * r * (N + p + 2)" is out of range. It must be <= ${allowed}: scrypt's memory is limited to the smaller of maxmem and the run's key-derivation budget (${budget} bytes: its heap cap, at least 32 MiB; raise heap_memory_max_mb). Received ${memory}`);
  }
  return { options, memory };
}

interface Waiting {
  readonly bytes: number;
  readonly start: () => void;
}

/** A run's key derivations: at most `maxRunning` running and their memory within the heap cap; the rest wait in order. */
export class KdfQueue {
  #running = 0;
  #bytes = 0;
  readonly #waiting: Waiting[] = [];
  #released = false;

  /** Runs `job` when a slot and `bytes` of the run's memory are free; `signal` drops it while it waits. */
  run<T>(limits: { readonly maxRunning: number; readonly heapBytes: number }, bytes: number, signal: AbortSignal, job: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = (): void => {
        this.#running++;
        this.#bytes += bytes;
        job().then(resolve, reject).finally(() => {
          this.#running--;
          this.#bytes -= bytes;
          this.#next(limits);
        });
      };
      const entry: Waiting = { bytes, start };
      if (this.#released) { reject(new OpError('runjs: the run has ended')); return; }
      if (this.#waiting.length === 0 && this.#fits(limits, bytes)) { start(); return; }
      this.#waiting.push(entry);
      signal.addEventListener('abort', () => {
        const i = this.#waiting.indexOf(entry);
        if (i >= 0) { this.#waiting.splice(i, 1); reject(new OpError('runjs: cancelled')); }
      }, { once: true });
    });
  }

  /** How many derivations run and wait (for tests). */
  get counts(): { running: number; waiting: number } {
    return { running: this.#running, waiting: this.#waiting.length };
  }

  /** The run ended: what still waits is never started. */
  release(): void {
    this.#released = true;
    this.#waiting.length = 0;
  }

  #fits(limits: { readonly maxRunning: number; readonly heapBytes: number }, bytes: number): boolean {
    return this.#running < limits.maxRunning && this.#bytes + bytes <= limits.heapBytes;
  }

  #next(limits: { readonly maxRunning: number; readonly heapBytes: number }): void {
    while (!this.#released && this.#waiting.length > 0 && this.#fits(limits, this.#waiting[0]!.bytes)) this.#waiting.shift()!.start();
  }
}

export const KDF_QUEUE = resourceKey('key derivations', () => new KdfQueue(), (q) => q.release());
