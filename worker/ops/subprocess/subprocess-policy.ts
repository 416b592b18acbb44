// Who may run which command. Every child is decided before it is spawned, with the input document
// of the `subprocess` policy category (docs/policies.md): `{operation, command, args, cwd?, env?}`
// (`exec` runs `/bin/sh` with `["-c", <command line>]`). Subprocesses are denied by default, with or
// without a configured policy: a `subprocess` policy must allow each command. A denial reads
// `subprocess.<operation> denied by policy: '<command>' is not allowed` (mcp-v8 §3.7).
import { OpError, type OpContext } from '../op-types.ts';
import { PolicyDeniedError } from '../../policy/policy-errors.ts';
import { checkSpawn, type SpawnRequest } from './subprocess-request.ts';

export interface SubprocessInput {
  readonly operation: SpawnRequest['operation'];
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
}

export function subprocessInput(req: SpawnRequest): SubprocessInput {
  return {
    operation: req.operation, command: req.command, args: [...req.args],
    ...(req.cwd !== undefined ? { cwd: req.cwd } : {}), ...(req.env !== undefined ? { env: { ...req.env } } : {}),
  };
}

/**
 * Decides `req`; resolves to the request to act on (a pre hook may rewrite command, args, cwd and
 * env — checked again, the operation kept). Rejects with the denial (ERR_POLICY_DENIED) or
 * ERR_POLICY_FAILED.
 */
export async function decideSpawn(req: SpawnRequest, ctx: OpContext, signal: AbortSignal): Promise<SpawnRequest> {
  const input = subprocessInput(req);
  let rewritten: unknown;
  try {
    rewritten = await ctx.policy.enforce('subprocess', input, { unconfigured: 'deny', defaultReason: `'${req.command}' is not allowed`, signal });
  } catch (e) {
    if (e instanceof PolicyDeniedError) {
      // Unconfigured, the reference's text too (the decision log keeps the engine's reason).
      const reason = ctx.policy.configured('subprocess') ? e.reason : `'${req.command}' is not allowed`;
      throw new OpError(`subprocess.${req.operation} denied by policy: ${reason}`, 'Error', e.code);
    }
    throw e;
  }
  if (rewritten === input) return req;
  const r = (typeof rewritten === 'object' && rewritten !== null ? rewritten : {}) as Record<string, unknown>;
  try {
    return checkSpawn({ ...r, operation: req.operation, timeoutMs: req.timeoutMs, killSignal: req.killSignal, stdin: req.stdin });
  } catch (e) {
    throw new OpError(`subprocess policy failed: a pre hook rewrote the command into one that is not valid (${e instanceof Error ? e.message : String(e)})`, 'Error', 'ERR_POLICY_FAILED');
  }
}
