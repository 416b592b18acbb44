// The failure an external import ends in: the script sees its text (the run fails with it, or
// a caught import() rejects with it), code ERR_MODULE_NOT_FOUND.
import { GuestError } from '../../shared/guest-error.ts';

/** A failure the script sees (the import fails with this text). */
export class ModuleError extends GuestError {
  constructor(message: string) {
    super(message, 'Error', 'ERR_MODULE_NOT_FOUND');
  }
}

export function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
