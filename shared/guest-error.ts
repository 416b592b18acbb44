// An error a script receives as an exception with this name, message and code: what a host op
// throws in the worker (OpError) and what a delegated op's route throws in the supervisor
// (GuestOpError) are this one shape, which crosses the worker channel as GuestErrorShape.
export class GuestError extends Error {
  /** The exception's name in the guest (`TypeError`, `RangeError`, `AbortError`, …). */
  readonly guestName: string;
  readonly code: string | undefined;
  constructor(message: string, guestName = 'Error', code?: string) {
    super(message);
    this.name = 'GuestError';
    this.guestName = guestName;
    this.code = code;
  }
}
