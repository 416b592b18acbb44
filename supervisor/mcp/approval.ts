// The approval hook: a policy may want a human to confirm a run_js call before it runs. The hook
// only decides (allow, deny, or ask with a message); asking is the protocol's business. On
// MCP 2026-07-28 an `ask` becomes an `input_required` result carrying one form elicitation (the
// client retries the call with the human's answer in `inputResponses`), or, for a call running
// as a task, the task's `input_required` status answered with `tasks/update`. On 2025 connections
// the server sends `elicitation/create` itself when the client declared elicitation. The hook
// runjs installs is the `mcp_run_js` policy (run-js-approval.ts; docs/policies.md).
import { z } from 'zod';

export interface ApprovalRequest {
  readonly tool: string;
  /** The validated arguments of the call (run_js: `code`, limits, ...). */
  readonly args: unknown;
  /** The MCP session name of the call, when it has one. */
  readonly session: string | undefined;
}

export type ApprovalDecision =
  | { readonly kind: 'allow' }
  | { readonly kind: 'deny'; readonly reason: string }
  | { readonly kind: 'ask'; readonly message: string };

export type ApprovalHook = (request: ApprovalRequest) => ApprovalDecision | Promise<ApprovalDecision>;

/** The key of the approval's elicitation in `inputRequests` / `inputResponses`. */
export const APPROVAL_INPUT_KEY = 'runjs_approval';

/** What the human fills in: one boolean. */
export const APPROVAL_FORM = z.object({ approve: z.boolean().describe('Run it?') });

/** The JSON Schema of the form (the restricted elicitation shape: a flat object of primitives). */
export const APPROVAL_SCHEMA: { type: 'object'; properties: { approve: { type: 'boolean'; title: string; description: string } }; required: string[] } = {
  type: 'object',
  properties: { approve: { type: 'boolean', title: 'Approve', description: 'Run it?' } },
  required: ['approve'],
};

/** An elicitation answer (the bare `ElicitResult`) as a decision: only an accepted `approve: true` runs. */
export function answerOf(response: unknown): 'approved' | 'refused' | 'missing' {
  if (typeof response !== 'object' || response === null || !('action' in response)) return 'missing';
  if (response.action !== 'accept') return 'refused';
  const content = 'content' in response ? APPROVAL_FORM.safeParse(response.content) : undefined;
  return content?.success === true && content.data.approve ? 'approved' : 'refused';
}

/** The error text of a call the hook denied or the human refused. */
export function refusedText(tool: string, reason: string): string {
  return `${tool} was not approved: ${reason}`;
}

/** Why an `ask` could not be put to a human: the client declared no elicitation. */
export const CANNOT_ASK = 'it needs a human\'s approval and this client cannot be asked (no elicitation capability)';
