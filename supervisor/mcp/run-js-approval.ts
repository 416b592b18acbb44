// The approval hook (approval.ts) backed by the `mcp_run_js` policy: every MCP run_js call is
// decided by the supervisor's policy engine with the call's arguments as the input document. A
// source answers as in any category (allow, deny, abstain) or asks a human with `{ask: "<question>"}`
// (a JavaScript hook; an OPA server's `result.ask`), which the MCP layer puts to the client:
// `input_required` on 2026-07-28, `elicitation/create` on 2025 (docs/mcp-protocol.md). A source
// that fails refuses the call, as every policy failure refuses its operation.
import type { SupervisorPolicy } from '../policy/supervisor-policy.ts';
import type { ApprovalHook } from './approval.ts';

/** The input document of an `mcp_run_js` decision. */
export interface RunJsApprovalInput {
  readonly tool: string;
  /** The validated arguments: `code` or `file`, and the limits, heap, fs and tags asked for. */
  readonly arguments: unknown;
  /** The MCP session name of the call, or null. */
  readonly session: string | null;
}

/** An approval hook over `policy`, or undefined when no `mcp_run_js` policy is configured (nothing is asked). */
export function policyApproval(policy: SupervisorPolicy): ApprovalHook | undefined {
  if (!policy.configured('mcp_run_js')) return undefined;
  return async (request) => {
    const input: RunJsApprovalInput = { tool: request.tool, arguments: request.args, session: request.session ?? null };
    const d = await policy.decide('mcp_run_js', input, { canAsk: true });
    if ('failed' in d) return { kind: 'deny', reason: d.failed };
    if (!d.allow) return { kind: 'deny', reason: `denied by policy: ${d.reason}` };
    return d.ask === undefined ? { kind: 'allow' } : { kind: 'ask', message: d.ask };
  };
}
