// The small vocabulary every MCP tool is written in: a tool is a name, texts, a zod input schema
// (which both validates arguments and is advertised as JSON Schema), a zod output schema
// (advertised only), and a handler that returns JSON. Results carry that JSON twice, as
// `structuredContent` and as one JSON text block, so clients that ignore structured output still
// see it. Failures are `isError: true` results, not JSON-RPC errors (an unknown tool name is the
// one protocol error): the model should see why its call failed and be able to correct it. Which
// is which is the registry's `mcp` mapping (shared/errors.ts), applied in `toolFailure` below.
import { z } from 'zod';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { RunjsError } from '../../shared/errors.ts';

export type JsonObject = { readonly [key: string]: unknown };

/**
 * What a handler gets besides its arguments. Protocol-neutral: the 2025 server (SDK v1) and the
 * 2026-07-28 server (SDK v2) both build it from their own request context.
 */
export interface ToolCallContext {
  /** Aborted when the client cancels the call or goes away. */
  readonly signal: AbortSignal;
  /** Sends a progress notification related to this call (no-op where the call has no stream). */
  readonly progress: (params: { progressToken: string | number; progress: number; message: string }) => Promise<void>;
  /** The client's progress token for this call, when it sent one. */
  readonly progressToken: string | number | undefined;
  /** The URL the call arrived at (HTTP transports), for links relative to this server. */
  readonly requestUrl: URL | undefined;
  /**
   * Sends the client a log message (`notifications/message`), dropped below the level the client
   * set with `logging/setLevel`; absent where the server offers no `logging` capability.
   */
  readonly log?: ((level: 'info' | 'notice' | 'error', logger: string, data: Record<string, unknown>) => void) | undefined;
}

export interface ToolDef<In extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: In;
  /** Advertised as outputSchema; absent for tools whose result is plain text (stubs). */
  readonly output?: z.ZodObject;
  readonly annotations?: Tool['annotations'];
  /** Present when the tool can also run as an MCP task (see run-js-tasks.ts). */
  readonly task?: TaskRunner<z.output<In>>;
  readonly handle: (args: z.output<In>, ctx: ToolCallContext) => CallToolResult | Promise<CallToolResult>;
}

/** How a task-capable tool starts its work: submit and return the execution id (throws RunjsError when refused). */
export interface TaskRunner<Args> {
  readonly submit: (args: Args) => string | Promise<string>;
  /** Whether the task result names the execution (stateful) or is the plain stateless result. */
  readonly includeExecutionId: boolean;
}

/** Declares a tool, keeping the handler's argument type tied to its schema. */
export function defineTool<In extends z.ZodType>(def: ToolDef<In>): ToolDef {
  return def as unknown as ToolDef;
}

/** A successful result: the value as structured content and as a JSON text block. */
export function jsonResult(value: object, isError = false): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value) }],
    structuredContent: { ...value } as Record<string, unknown>,
    ...(isError ? { isError: true } : {}),
  };
}

/**
 * A failed call: `{"error": "..."}` as a JSON text block. No structuredContent on purpose: MCP
 * clients (the SDK's among them) validate structuredContent against the tool's outputSchema even
 * on error results, and `{error}` is not the shape of a successful result.
 */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify({ error: message }) }], isError: true };
}

/**
 * The one place a thrown error becomes what an MCP client sees, by the registry's `mcp` mapping:
 * `tool-error` codes (unknown id, bad limits, full queue, ...) an error result, `invalid-params`
 * a JSON-RPC error -32602. Anything else is a bug and propagates (the SDK answers -32603).
 */
export function toolFailure(e: unknown): CallToolResult {
  if (e instanceof RunjsError) {
    if (e.mcp === 'tool-error') return errorResult(e.message);
    if (e.mcp === 'invalid-params') throw new McpError(ErrorCode.InvalidParams, e.message);
  }
  throw e;
}

/** `Invalid arguments for run_js: code: expected string, received number; execution_timeout_secs: ...` */
export function invalidArguments(tool: string, error: z.ZodError): RunjsError<'INVALID_ARGUMENTS'> {
  const parts = error.issues.map((issue) => {
    const at = issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
    return `${at}${issue.message}`;
  });
  return new RunjsError('INVALID_ARGUMENTS', tool, parts.join('; '));
}

/** The tools/list entry of a tool; task support is advertised only where the transport offers tasks. */
export function listEntry(def: ToolDef, tasksEnabled: boolean): Tool {
  return {
    name: def.name,
    title: def.title,
    description: def.description,
    inputSchema: jsonSchemaOf(def.input, 'input') as Tool['inputSchema'],
    ...(def.output === undefined ? {} : { outputSchema: jsonSchemaOf(def.output, 'output') as NonNullable<Tool['outputSchema']> }),
    ...(def.annotations === undefined ? {} : { annotations: def.annotations }),
    ...(def.task !== undefined && tasksEnabled ? { execution: { taskSupport: 'optional' as const } } : {}),
  };
}

/** Draft-07 (with its `$schema`), like the SDK's own conversion, so every MCP client version can read it. */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  return z.toJSONSchema(schema, { target: 'draft-7', io }) as JsonObject;
}
