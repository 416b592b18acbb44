// mcp.catalog / mcp.callTool: the guest's `mcp` global (worker/guest/platform/parts/mcp.js).
// The upstream clients live in the supervisor (supervisor/upstream-mcp/), shared by every run;
// a call here checks its names and arguments, asks the `mcp_tools` policy (input
// `{operation: "mcp_call_tool", server, tool, arguments}`; no policy allows, as in the reference),
// then delegates the call upward. A run has at most MAX_CALLS_IN_FLIGHT calls at the supervisor at
// once (each holds 8 MiB of the run's 64 MiB delegated-op budget while it runs); more wait here.
import { errorMessage } from '../../../shared/errors.ts';
import { MAX_MCP_ARGUMENT_BYTES, serverList, type McpCatalog } from '../../../shared/mcp-catalog.ts';
import { POLICY_DENIED_CODE } from '../../policy/policy-errors.ts';
import { resourceKey } from '../../runtime/run-resources.ts';
import { OpError, type OpContext, type OpFactory } from '../op-types.ts';

export const MAX_CALLS_IN_FLIGHT = 4;

/** The run's calls at the supervisor now, and those waiting for a turn. */
const CALLS = resourceKey('mcp calls in flight', () => ({ running: 0, waiting: [] as (() => void)[] }), (s) => { s.waiting.length = 0; });

/** The run's catalogue, parsed once per run. */
const CATALOG = resourceKey('mcp catalogue', () => ({ parsed: undefined as McpCatalog | undefined }));

function catalogOf(ctx: OpContext): McpCatalog | undefined {
  if (ctx.mcpCatalog === undefined) return undefined;
  const slot = ctx.resources.get(CATALOG);
  slot.parsed ??= JSON.parse(ctx.mcpCatalog) as McpCatalog;
  return slot.parsed;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

async function turn(ctx: OpContext, signal: AbortSignal): Promise<() => void> {
  const calls = ctx.resources.get(CALLS);
  while (calls.running >= MAX_CALLS_IN_FLIGHT) {
    await new Promise<void>((resolve, reject) => {
      if (signal.aborted) { reject(signal.reason); return; }
      calls.waiting.push(resolve);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  }
  calls.running++;
  return () => {
    calls.running--;
    calls.waiting.shift()?.();
  };
}

export const createMcpOps: OpFactory = () => ({
  // The catalogue's JSON as of the run's start ('' when no server is configured): the guest
  // parses it when its text differs from the one it parsed last.
  'mcp.catalog': {
    kind: 'sync',
    run: (_args, _bytes, ctx) => ctx.mcpCatalog ?? '',
  },
  'mcp.callTool': {
    kind: 'async',
    async run(raw, _bytes, ctx, signal) {
      const a = isPlainObject(raw) ? raw : {};
      const server = a['server'];
      const tool = a['tool'];
      if (typeof server !== 'string') throw new OpError('mcp.callTool: server name must be a string', 'TypeError');
      if (typeof tool !== 'string') throw new OpError('mcp.callTool: tool name must be a string', 'TypeError');
      const given = a['arguments'];
      if (given !== undefined && given !== null && !isPlainObject(given)) throw new OpError('mcp.callTool: arguments must be an object', 'TypeError');
      const names = catalogOf(ctx)?.servers.map((s) => s.name) ?? [];
      if (!names.includes(server)) throw new OpError(errorMessage('MCP_SERVER_NOT_FOUND', server, serverList(names)));

      const input = { operation: 'mcp_call_tool', server, tool, arguments: given ?? null };
      const decision = await ctx.policy.decide('mcp_tools', input, { signal, defaultReason: `${server}.${tool} is not allowed` });
      if (!decision.allow) throw new OpError(`mcp.callTool denied by policy: ${decision.reason ?? `${server}.${tool} is not allowed`}`, 'Error', POLICY_DENIED_CODE);
      // A pre hook may rewrite the arguments (not which tool is called).
      const decided = isPlainObject(decision.input) && Object.hasOwn(decision.input, 'arguments') ? decision.input['arguments'] : input.arguments;
      if (decided !== null && !isPlainObject(decided)) throw new OpError('mcp_tools policy failed: a pre hook rewrote the arguments to something that is not an object', 'Error', 'ERR_POLICY_FAILED');
      const argumentsJson = decided === null ? undefined : JSON.stringify(decided);
      if (argumentsJson !== undefined) {
        const size = Buffer.byteLength(argumentsJson);
        if (size > MAX_MCP_ARGUMENT_BYTES) throw new OpError(errorMessage('MCP_ARGUMENTS_TOO_LARGE', server, tool, size, MAX_MCP_ARGUMENT_BYTES), 'RangeError');
      }

      const release = await turn(ctx, signal);
      let answer: unknown;
      try {
        answer = await ctx.supervisor.request('mcp.callTool', { server, tool, ...(argumentsJson !== undefined ? { argumentsJson } : {}) }, signal);
      } finally {
        release();
      }
      if (typeof answer !== 'string') throw new OpError('runjs: mcp.callTool: malformed answer from the supervisor');
      const result: unknown = JSON.parse(answer);
      if (!ctx.policy.hasPost('mcp_tools')) return result;
      return await ctx.policy.enforcePost('mcp_tools', result, input, { signal });
    },
  },
});
