// The narrow engine interface both engines implement (ARCHITECTURE.md §3). Everything an
// engine knows about the guest is here: boot a realm with the prelude, evaluate the wrapped
// main module, deliver async-op settlements, interrupt, dispose. Ops, the prelude and the run
// loop are engine-neutral and never see isolated-vm or QuickJS types.
import type { EngineName } from '../shared/protocol.ts';

/**
 * The host-call primitive as the guest sees it: op name + JSON args (+ optional bytes) →
 * "v<json>" | "e<json>" | "a<id>" | bytes. It is the only door between guest and host.
 */
export type HostCall = (op: string, argsJson: string, bytes: Uint8Array | undefined) => string | Uint8Array;

/** Why guest code stopped abnormally, as the engine observed it. */
export type EngineFailure = 'out-of-memory' | 'interrupted' | 'internal';

export class EngineError extends Error {
  readonly kind: EngineFailure;
  constructor(kind: EngineFailure, message: string) {
    super(message);
    this.name = 'EngineError';
    this.kind = kind;
  }
}

/** Resolves a static import of the main module to module source, or throws a user-facing error. */
export type ModuleSourceLoader = (specifier: string) => string;

export interface GuestRealm {
  /**
   * Evaluates the wrapped main module (see worker/source/wrap-main.ts) and hands its promise
   * to the prelude, which reports the settlement through the `run.settle` op.
   */
  runMain(source: string, filename: string, loadModule: ModuleSourceLoader): Promise<void>;
  /** Delivers the settlement of async op `id`; microtasks it queues run before this resolves. */
  complete(id: number, ok: boolean, json: string | null, bytes: Uint8Array | undefined): Promise<void>;
  /** Stops guest code as soon as possible; pending and later calls reject with EngineError('interrupted'). */
  interrupt(): void;
  dispose(): void;
}

export interface RealmOptions {
  readonly memoryLimitMb: number;
  readonly hostCall: HostCall;
}

export interface Engine {
  readonly name: EngineName;
  /** A fresh realm with the prelude evaluated. */
  createRealm(options: RealmOptions): Promise<GuestRealm>;
}
