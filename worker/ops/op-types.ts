// The op contract: every host capability is a table of named ops the guest reaches through the
// host-call primitive. A capability is one folder under worker/ops/ whose factory builds its
// table once per worker from the worker's settings (validate → policy → act → map error); each
// call gets the OpContext of the run it serves, which carries that run's services. Ops validate
// their (untrusted, `unknown`) arguments, act, and throw OpError for failures the guest should
// see as exceptions.
import type { WorkerSettings } from '../../shared/worker-settings.ts';
import type { RunResources } from '../runtime/run-resources.ts';
import type { RunPolicy } from '../policy/policy-engine.ts';
import type { MountFs } from './fs/mount-fs.ts';

/** Limits of the run an op serves (from its RunRequest). */
export interface RunLimits {
  /** The run's engine heap cap in bytes: host-side work done for the run is held to it too. */
  readonly heapBytes: number;
  readonly timeoutMs: number;
}

/** The supervisor, as one run sees it: ops it delegates upward are made in that run's name. */
export interface RunSupervisor {
  /** Sends an op to the supervisor; settles with its answer (an OpError on failure, or when `signal` aborts). */
  request(op: string, args: unknown, signal?: AbortSignal): Promise<unknown>;
}

/** The run's timers, as the timer ops use them. */
export interface RunTimers {
  /** Settles `ms` from now; `signal` cancels. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** Settles as Node's setImmediate would: before timers set since the current guest turn began; `signal` cancels. */
  immediate(signal: AbortSignal): Promise<void>;
}

/** What an op may touch of the run it serves. */
export interface OpContext {
  readonly runId: string;
  readonly limits: RunLimits;
  readonly supervisor: RunSupervisor;
  /** Host-side state the run's ops hold (handles, pending byte counts), released when the run ends. */
  readonly resources: RunResources;
  /**
   * The policy engine as this run sees it: `decide`/`enforce` before an operation acts, `post`/
   * `enforcePost` on its output; every decision lands in the run's decision log (worker/policy/).
   */
  readonly policy: RunPolicy;
  /** The upstream MCP servers and tools as of the run's start (JSON of shared/mcp-catalog.ts); undefined when none is configured. */
  readonly mcpCatalog: string | undefined;
  /** The run's filesystem when it mounts a snapshot at /work (worker/ops/fs/); absent: an empty, discarded /work. */
  readonly mount?: MountFs | undefined;
  /** The run's timers and immediates (worker/runtime/timer-queue.ts): delivered in Node's order. */
  readonly timers: RunTimers;
  /** Appends console text to the run's output stream. */
  writeOutput(text: string): void;
  /** The most bytes one console write can take (--max-output-bytes; 0 once the output is truncated). */
  outputLineCap(): number;
  /** Records a console write of at least `minBytes` that the prelude did not build, as writing it would. */
  overflowOutput(minBytes: number): void;
  /**
   * Line `line` (1-based) of the main module as it runs (the transpiled code; a plain script's own
   * text) and main.js column `column` (1-based) on it, 0-based and without the wrapper's shifts.
   */
  mainSourceLine?(line: number, column: number): { readonly text: string; readonly column: number } | undefined;
  /** Records the main module's settlement (from the prelude). */
  settle(ok: boolean, value: string): void;
  /** Cancels a pending async op of this run (no settlement is delivered). */
  cancelOp(id: number): void;
  /** Whether a pending async op keeps the run alive (ref, the default) or not (like Node's timer.unref()). */
  refOp(id: number, ref: boolean): void;
  /**
   * Settles when the run reaches `event` (docs/script-environment.md "Process events"): 'idle', its
   * work is done (the value says whether this is the last chance, `{ exit: true }`); 'rejection', a
   * guest task left a promise rejection unhandled (the value is `{ text, reason }`). The op that
   * waits does not keep the run alive; one waiter per event.
   */
  runEvent(event: 'idle' | 'rejection', signal: AbortSignal): Promise<unknown>;
}

export type OpValue = unknown;

/**
 * An async op's answer that is a JSON object plus bytes: the guest gets the object with the bytes
 * as its `bytes` property (one settlement instead of two round trips, e.g. a response's head and
 * the body that arrived with it).
 */
export class WithBytes {
  readonly value: Readonly<Record<string, unknown>>;
  readonly bytes: Uint8Array;
  constructor(value: Readonly<Record<string, unknown>>, bytes: Uint8Array) {
    this.value = value;
    this.bytes = bytes;
  }
}

export interface SyncOp {
  readonly kind: 'sync';
  run(args: unknown, bytes: Uint8Array | undefined, ctx: OpContext): OpValue;
}

export interface AsyncOp {
  readonly kind: 'async';
  run(args: unknown, bytes: Uint8Array | undefined, ctx: OpContext, signal: AbortSignal): Promise<OpValue>;
}

export type OpDefinition = SyncOp | AsyncOp;
export type OpTable = Readonly<Record<string, OpDefinition>>;

/** A capability: builds its ops once per worker, from the worker's settings. */
export type OpFactory = (settings: WorkerSettings) => OpTable;

/** An error the guest receives as an exception with this name and message (shared/guest-error.ts). */
export { GuestError as OpError } from '../../shared/guest-error.ts';
