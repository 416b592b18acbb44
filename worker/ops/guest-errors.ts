// A registered error (shared/errors.ts) thrown by an op at the script: its guest class, its text,
// and the code `ERR_RUNJS_<key>`.
import { ERRORS, errorMessage, type ErrorArgs, type ErrorCode } from '../../shared/errors.ts';
import { OpError } from './op-types.ts';

export function guestError<C extends ErrorCode>(code: C, ...args: ErrorArgs<C>): OpError {
  return new OpError(errorMessage(code, ...args), ERRORS[code].guest ?? 'Error', `ERR_RUNJS_${code}`);
}
