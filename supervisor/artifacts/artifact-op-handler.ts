// The supervisor's side of the guest's artifact ops (worker/ops/artifacts/): the pool hands every
// op-request here (PoolOptions.onOpRequest). The worker has validated already; the service
// validates again, since a worker is not trusted to have done so.
import type { ArtifactService } from './artifact-service.ts';
import { ArtifactRuleError, scriptMessage } from './artifact-rules.ts';

export type OpRequestHandler = (runId: string, op: string, args: unknown) => Promise<unknown>;

export function artifactOpHandler(artifacts: ArtifactService, log: (line: string) => void): OpRequestHandler {
  return async (runId, op, args) => {
    const a = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
    try {
      switch (op) {
        case 'artifacts.put': {
          const bytes = a['bytes'];
          if (!(bytes instanceof Uint8Array)) throw new ArtifactRuleError('payload must be bytes');
          return await artifacts.put(String(a['key']), String(a['mime']), bytes, runId);
        }
        case 'artifacts.get': {
          const found = await artifacts.get(String(a['key']));
          // A plain Uint8Array: a Buffer would cross IPC as one too, but say so explicitly.
          return found === undefined ? null : new Uint8Array(found.bytes.buffer, found.bytes.byteOffset, found.bytes.byteLength);
        }
        default:
          throw new Error(`op '${op}' is not available on this server`);
      }
    } catch (e) {
      if (e instanceof ArtifactRuleError) throw new Error(scriptMessage(e.message));
      if (e instanceof Error && e.message.startsWith('op ')) throw e;
      // Store trouble is the server's, not the script's: log the detail, tell the guest briefly.
      log(`runjs: ${op} for execution ${runId} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      throw new Error('artifact: the artifact store is unavailable');
    }
  };
}
