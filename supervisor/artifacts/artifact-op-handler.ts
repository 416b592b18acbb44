// The supervisor's side of the guest's artifact ops (worker/ops/artifacts/): routes for the
// supervisor's OpRouter. The worker has validated already; the service validates again, since a
// worker is not trusted to have done so.
import type { ArtifactService } from './artifact-service.ts';
import { RunjsError } from '../../shared/errors.ts';
import { scriptMessage } from './artifact-rules.ts';
import { GuestOpError, type OpRoutes } from '../pool/op-router.ts';
import { MAX_ARTIFACT_BYTES } from '../../shared/artifact-rules.ts';

/** Store trouble is the server's, not the script's: the router logs the detail, the guest gets this. */
const UNAVAILABLE = 'artifact: the artifact store is unavailable';

/** A rule violation (bad key, mime or size) is the script's: it sees the rule's text, as the registry's `guest` class. */
async function asGuestError<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof RunjsError && e.guest !== undefined) throw new GuestOpError(scriptMessage(e.message), e.guest);
    throw e;
  }
}

function record(args: unknown): Record<string, unknown> {
  if (typeof args !== 'object' || args === null) throw new GuestOpError('artifact: malformed request', 'TypeError');
  return args as Record<string, unknown>;
}

export function artifactOpRoutes(artifacts: ArtifactService): OpRoutes {
  return {
    'artifacts.put': {
      unavailable: UNAVAILABLE,
      serve: (args, run) => asGuestError(async () => {
        const a = record(args);
        const bytes = a['bytes'];
        if (!(bytes instanceof Uint8Array)) throw new RunjsError('ARTIFACT_PAYLOAD_NOT_BYTES');
        return await artifacts.put(String(a['key']), String(a['mime']), bytes, run.runId);
      }),
    },
    'artifacts.get': {
      unavailable: UNAVAILABLE,
      // An artifact is at most 16 MiB: four reads in flight fill a run's 64 MiB delegated budget.
      maxAnswerBytes: MAX_ARTIFACT_BYTES,
      serve: (args) => asGuestError(async () => {
        const found = await artifacts.get(String(record(args)['key']));
        // A plain Uint8Array: a Buffer would cross IPC as one too, but say so explicitly.
        return found === undefined ? null : new Uint8Array(found.bytes.buffer, found.bytes.byteOffset, found.bytes.byteLength);
      }),
    },
  };
}
