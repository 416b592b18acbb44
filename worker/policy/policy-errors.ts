// The errors a policy decision ends in. A denial reaches the script as a catchable Error with code
// ERR_POLICY_DENIED and the text `<category> denied by policy: <reason>`; a source or hook that
// fails (HTTP error, timeout, a throwing hook) aborts the operation with ERR_POLICY_FAILED — never
// a silent deny, never an allow. docs/policies.md pins both texts.
import { OpError } from '../ops/op-types.ts';

export const POLICY_DENIED_CODE = 'ERR_POLICY_DENIED';
export const POLICY_FAILED_CODE = 'ERR_POLICY_FAILED';
/** The reason given when the denying source gave none. */
export const DEFAULT_DENY_REASON = 'not allowed';

export class PolicyDeniedError extends OpError {
  readonly category: string;
  readonly reason: string;
  constructor(category: string, reason: string) {
    super(`${category} denied by policy: ${reason}`, 'Error', POLICY_DENIED_CODE);
    this.category = category;
    this.reason = reason;
  }
}

export class PolicyFailedError extends OpError {
  constructor(category: string, source: string, detail: string) {
    super(`${category} policy failed: ${source}: ${detail}`, 'Error', POLICY_FAILED_CODE);
  }
}

/** A source could not answer (the message is the detail PolicyFailedError shows). */
export class SourceError extends Error {
  override readonly name = 'SourceError';
}
