// The narrow engine interface both engines implement (ARCHITECTURE.md §3). Everything an
// engine knows about the guest is here: boot a realm with the prelude, evaluate the wrapped
// main module, deliver async-op settlements, interrupt, dispose. Ops, the prelude and the run
// loop are engine-neutral and never see isolated-vm or QuickJS types.
import type { EngineName } from '../shared/protocol.ts';
import type { HeapImage } from '../shared/heap-image.ts';

/**
 * The host-call primitive as the guest sees it: op name + JSON args (+ optional bytes) →
 * "v<json>" | "e<json>" | "a<id>" | bytes. It is the only door between guest and host.
 */
export type HostCall = (op: string, argsJson: string, bytes: Uint8Array | undefined) => string | Uint8Array;

/** Why guest code stopped abnormally, as the engine observed it. */
export type EngineFailure = 'out-of-memory' | 'interrupted' | 'internal';

/** Why an engine stopped guest code on its own, having polled an InterruptPoll. */
export type InterruptReason = 'cancel' | 'timeout';

/**
 * Polled by engines that run guest code synchronously on the worker's own thread (QuickJS) from
 * their interrupt handler, where neither timers nor IPC messages can run: the reason to stop
 * now (deadline passed, cancel arrived over the side channel), or undefined. Must be cheap.
 */
export type InterruptPoll = () => InterruptReason | undefined;

export class EngineError extends Error {
  readonly kind: EngineFailure;
  /** Set when the engine stopped because an InterruptPoll asked it to. */
  readonly reason: InterruptReason | undefined;
  constructor(kind: EngineFailure, message: string, reason?: InterruptReason) {
    super(message);
    this.name = 'EngineError';
    this.kind = kind;
    this.reason = reason;
  }
}

/**
 * A guest task ended with a promise rejected and never handled (V8: isolated-vm reports it when
 * the task's microtasks have run). `message` is the run's failure text; `reasonJson` the reason as
 * the prelude rebuilds it for process 'unhandledRejection' listeners (engines/v8/unhandled-rejection.ts).
 */
export class UnhandledRejectionError extends EngineError {
  readonly reasonJson: string;
  constructor(message: string, reasonJson: string) {
    super('internal', message);
    this.reasonJson = reasonJson;
  }
}

/** Resolves a static import of the main module to module source, or throws a user-facing error. */
export type ModuleSourceLoader = (specifier: string) => string;

export interface GuestRealm {
  /**
   * Evaluates the wrapped main module (see worker/source/wrap-main.ts) and hands its promise
   * to the prelude, which reports the settlement through the `run.settle` op. `lineOffset` is
   * added to every line the engine reports for it (only where `lineOffsets` is true).
   */
  runMain(source: string, filename: string, loadModule: ModuleSourceLoader, lineOffset?: number): Promise<void>;
  /** Whether runMain honours a line offset (V8 does; QuickJS's evaluator has none). */
  readonly lineOffsets?: boolean;
  /** Delivers the settlement of async op `id`; microtasks it queues run before this resolves. */
  complete(id: number, ok: boolean, json: string | null, bytes: Uint8Array | undefined): Promise<void>;
  /** Stops guest code as soon as possible; pending and later calls reject with EngineError('interrupted'). */
  interrupt(): void;
  /** Frees the realm. An image engine resets its VM from the base image here, never reusing it dirty. */
  dispose(): void;
  /**
   * Engines that block the worker's thread while guest code runs call `poll` from their
   * interrupt handler for the rest of the run (the run loop installs it before runMain).
   */
  setInterruptPoll?(poll: InterruptPoll): void;
  /**
   * Image engines: the realm's whole state as a heap image. Only at a quiescent point — the
   * main module settled and no op, timer or job pending (a completed run). Throws otherwise.
   */
  /**
   * `buffer`: where the image's page bytes go, when the caller has a buffer of exactly that many
   * bytes to reuse (worker/runtime/image-buffers.ts); a fresh one otherwise.
   */
  snapshot?(buffer?: (bytes: number) => Uint8Array): HeapImage;
}

export interface RealmOptions {
  readonly memoryLimitMb: number;
  readonly hostCall: HostCall;
  /**
   * Image engines: restore this image instead of booting from the base image. Throws
   * HeapImageError (shared/heap-image.ts) for an image this engine build cannot restore.
   */
  readonly image?: HeapImage;
}

export interface Engine {
  readonly name: EngineName;
  /** True for engines whose realms can snapshot() and be restored from an image. */
  readonly images: boolean;
  /** Image engines, once warmed up: the image every fresh realm boots from. */
  readonly baseImage?: HeapImage;
  /** A fresh realm with the prelude evaluated (or restored from `options.image`). */
  createRealm(options: RealmOptions): Promise<GuestRealm>;
  /** Compiles and warms the engine up ahead of the first run (the worker calls it at start). */
  warmUp?(): Promise<void>;
}
