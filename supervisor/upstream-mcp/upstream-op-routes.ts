// The supervisor's side of the guest's `mcp.callTool` (worker/ops/mcp/): a route for the
// supervisor's OpRouter. The worker has checked the names, the argument size and the policy; the
// route checks shape and size again (a worker is not trusted to have done so), calls the shared
// upstream client, and answers the result as JSON text within MAX_MCP_RESULT_BYTES — which is the
// route's maxAnswerBytes, held against the run's 64 MiB of delegated ops while the call runs.
import { RunjsError } from '../../shared/errors.ts';
import { MAX_MCP_ARGUMENT_BYTES, MAX_MCP_RESULT_BYTES } from '../../shared/mcp-catalog.ts';
import { GuestOpError, type OpRoutes } from '../pool/op-router.ts';
import type { UpstreamHub } from './upstream-hub.ts';

function record(args: unknown): Record<string, unknown> {
  if (typeof args !== 'object' || args === null) throw new GuestOpError('mcp.callTool: malformed request', 'TypeError');
  return args as Record<string, unknown>;
}

/** A registry error with a script-facing class becomes what the script sees. */
async function asGuestError<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof RunjsError && e.guest !== undefined) throw new GuestOpError(e.message, e.guest);
    throw e;
  }
}

export function upstreamOpRoutes(hub: UpstreamHub): OpRoutes {
  return {
    'mcp.callTool': {
      unavailable: 'mcp.callTool: the upstream MCP client failed (the server log has the details)',
      maxAnswerBytes: MAX_MCP_RESULT_BYTES,
      serve: (raw, run) => asGuestError(async () => {
        const a = record(raw);
        const server = a['server'];
        const tool = a['tool'];
        const json = a['argumentsJson'];
        if (typeof server !== 'string' || typeof tool !== 'string' || (json !== undefined && typeof json !== 'string')) {
          throw new GuestOpError('mcp.callTool: malformed request', 'TypeError');
        }
        let args: Record<string, unknown> | undefined;
        if (json !== undefined) {
          const size = Buffer.byteLength(json);
          if (size > MAX_MCP_ARGUMENT_BYTES) throw new RunjsError('MCP_ARGUMENTS_TOO_LARGE', server, tool, size, MAX_MCP_ARGUMENT_BYTES);
          const parsed: unknown = JSON.parse(json);
          if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new GuestOpError('mcp.callTool: malformed request', 'TypeError');
          args = parsed as Record<string, unknown>;
        }
        // The run's end cancels the call (the SDK sends notifications/cancelled upstream).
        const result = await hub.callTool(server, tool, args, run.signal);
        const text = JSON.stringify(result);
        const size = Buffer.byteLength(text);
        if (size > MAX_MCP_RESULT_BYTES) throw new RunjsError('MCP_RESULT_TOO_LARGE', server, tool, size, MAX_MCP_RESULT_BYTES);
        return text;
      }),
    },
  };
}
