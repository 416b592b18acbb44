// The op contract: every host capability is a table of named ops the guest reaches through the
// host-call primitive. Ops validate their (untrusted, `unknown`) arguments, act, and throw
// OpError for failures the guest should see as exceptions.

/** What an op may touch of the run it serves. */
export interface OpContext {
  readonly runId: string;
  /** Appends console text to the run's output stream. */
  writeOutput(text: string): void;
  /** Records the main module's settlement (from the prelude). */
  settle(ok: boolean, value: string): void;
  /** Cancels a pending async op of this run (no settlement is delivered). */
  cancelOp(id: number): void;
  /** Whether a pending async op keeps the run alive (ref, the default) or not (like Node's timer.unref()). */
  refOp(id: number, ref: boolean): void;
}

export type OpValue = unknown;

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

/** An error the guest receives as an exception with this name and message. */
export class OpError extends Error {
  readonly guestName: string;
  readonly code: string | undefined;
  constructor(message: string, guestName = 'Error', code?: string) {
    super(message);
    this.name = 'OpError';
    this.guestName = guestName;
    this.code = code;
  }
}
