// The MCP 2026-07-28 server (official SDK v2, `@modelcontextprotocol/server`): stateless, one
// server object per HTTP request (createMcpHandler's factory) or per stdio connection. The SDK
// owns the protocol generation's wire rules: `server/discover`, the per-request `_meta` envelope,
// `resultType`, the caching fields, the Mcp-Method / Mcp-Name header checks and the -32601 for
// methods 2026 removed (initialize, ping, logging/setLevel, tasks/list, tasks/result). This file
// adds runjs's surface (mcp-surface.ts, the same tools and resources as 2025) and the tasks
// extension for run_js (run-js-tasks-2026.ts).
import { z } from 'zod';
import {
  CLIENT_CAPABILITIES_META_KEY, inputRequired, MissingRequiredClientCapabilityError, ProtocolError, ProtocolErrorCode, Server,
  type CallToolResult as CallToolResult2026, type ServerCapabilities as ServerCapabilities2026, type ServerContext,
} from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { TransportKind } from './mcp-texts.ts';
import { buildSurface, type McpSurfaceOptions } from './mcp-surface.ts';
import { errorResult, invalidArguments, toolFailure, type ToolCallContext } from './tool-kit.ts';
import { SERVER_NAME } from './mcp-server.ts';

import { answerOf, APPROVAL_INPUT_KEY, APPROVAL_SCHEMA, CANNOT_ASK, refusedText } from './approval.ts';
import { TASKS_EXTENSION, type RunJsTaskStore2026 } from './run-js-tasks-2026.ts';
import { waitForRun } from './wait-for-run.ts';
import { outcomeResult } from './run-js-tool.ts';
import { attachArtifacts } from './run-artifacts.ts';

export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/**
 * Cache hints for the cacheable results (SEP-2549). The tool list and the artifact template are
 * the same for every caller while the server runs (public, a minute); a server with upstream
 * stubs changes its list when an upstream server reconnects, so it is not cached. Resource lists
 * and reads depend on the session and on artifacts that come and go: private, not cached.
 */
function cacheHints(opts: McpSurfaceOptions) {
  const stable = { ttlMs: 60_000, cacheScope: 'public' as const };
  return {
    'tools/list': opts.upstream?.stubPrefix === undefined ? stable : { ttlMs: 0, cacheScope: 'public' as const },
    'resources/templates/list': stable,
    'resources/list': { ttlMs: 0, cacheScope: 'private' as const },
    'resources/read': { ttlMs: 0, cacheScope: 'private' as const },
    'server/discover': stable,
  };
}

/** SDK v1 and v2 are two copies of the same wire types; results cross between them as JSON. */
const asModern = (r: CallToolResult): CallToolResult2026 => r as unknown as CallToolResult2026;

/** The client capabilities this request declared (2026: per request, in the envelope). */
function clientCapabilities(ctx: ServerContext): Record<string, unknown> {
  const caps: unknown = ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY as keyof typeof ctx.mcpReq.envelope];
  return typeof caps === 'object' && caps !== null ? caps as Record<string, unknown> : {};
}

/** Whether this request declared the tasks extension. */
function declaresTasks(ctx: ServerContext): boolean {
  const ext = clientCapabilities(ctx)['extensions'];
  return typeof ext === 'object' && ext !== null && TASKS_EXTENSION in ext;
}


function callContext(ctx: ServerContext): ToolCallContext {
  const url = ctx.http?.req?.url;
  return {
    signal: ctx.mcpReq.signal,
    progress: (params) => ctx.mcpReq.notify({ method: 'notifications/progress', params }),
    progressToken: ctx.mcpReq._meta?.progressToken,
    requestUrl: url === undefined ? undefined : new URL(url),
  };
}

/** v1 errors (McpError, from the shared surface) as the v2 SDK's ProtocolError, so they reach the wire as JSON-RPC errors. */
function asProtocolError(e: unknown): never {
  if (e instanceof McpError) throw new ProtocolError(e.code, e.message.replace(/^MCP error -?\d+: /, ''), e.data);
  throw e;
}

const TASK_ID = z.object({ taskId: z.string() }).passthrough();

/**
 * SDK v2.4 has no tasks extension: it takes a CreateTaskResult for a tool result and adds the
 * `content: []` every tool result must have. A created task is flat `Result & Task` (SEP-2663),
 * so that key comes off again here, after the SDK's own handling.
 */
class RunjsModernServer extends Server {
  protected override _wrapHandler(method: string, handler: Parameters<Server['_wrapHandler']>[1]): ReturnType<Server['_wrapHandler']> {
    const wrapped = super._wrapHandler(method, handler);
    if (method !== 'tools/call') return wrapped;
    return async (request, ctx) => {
      const result = await wrapped(request, ctx);
      if (result['resultType'] !== 'task') return result;
      const { content: _content, ...task } = result;
      return task;
    };
  }
}

export interface ModernServerOptions {
  readonly surface: McpSurfaceOptions;
  readonly transport: Exclude<TransportKind, 'sse'>;
  /** The session name of this request (X-MCP-Session-Id) or connection (--session-id). */
  readonly sessionName: string | undefined;
  /** The endpoint's tasks (absent: no tasks extension). */
  readonly tasks: RunJsTaskStore2026 | undefined;
}

export function createModernServer(o: ModernServerOptions): Server {
  const opts = o.surface;
  const surface = buildSurface(opts, o.transport, () => o.sessionName);
  const tasks = o.tasks;
  const capabilities: ServerCapabilities2026 = {
    tools: { listChanged: false },
    // listChanged: delivered on subscriptions/listen streams (transports/modern-http.ts, stdio.ts).
    ...(surface.hasResources ? { resources: surface.resourcesChange ? { listChanged: true } : {} } : {}),
    ...(tasks === undefined ? {} : { extensions: { [TASKS_EXTENSION]: {} } }),
  };
  const server = new RunjsModernServer(
    { name: SERVER_NAME, title: 'runjs', version: opts.version },
    { capabilities, instructions: surface.instructions, cacheHints: cacheHints(opts) },
  );

  server.setRequestHandler('tools/list', () => ({ tools: surface.listTools(false) as never }));
  if (surface.hasResources) {
    server.setRequestHandler('resources/list', (request) => surface.listResources(request.params?.cursor) as never);
    if (surface.hasTemplates) server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: surface.templates }));
    server.setRequestHandler('resources/read', (request) => surface.readResource(request.params.uri).catch(asProtocolError) as never);
  }

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: rawArgs } = request.params;
    try {
      const withTasks = tasks !== undefined && !tasks.full && declaresTasks(ctx);
      const def = surface.tool(name);
      const taskRunner = withTasks ? def?.task : undefined;
      const decision = await surface.approval(name, rawArgs);
      if (decision.kind === 'deny') return asModern(errorResult(refusedText(name, decision.reason)));
      if (def !== undefined && taskRunner !== undefined && tasks !== undefined) {
        const parsed = def.input.safeParse(rawArgs ?? {});
        // Invalid arguments are the call's own error, before any task exists.
        if (!parsed.success) throw invalidArguments(name, parsed.error);
        const start = (): void => {
          void runTask(tasks, created.taskId, async () => taskRunner.submit(parsed.data), taskRunner.includeExecutionId, opts);
        };
        // A task would wait for an answer this client can never give.
        if (decision.kind === 'ask' && clientCapabilities(ctx)['elicitation'] === undefined) return asModern(errorResult(refusedText(name, CANNOT_ASK)));
        const ask = decision.kind === 'ask' ? { [APPROVAL_INPUT_KEY]: inputRequired.elicit({ message: decision.message, requestedSchema: APPROVAL_SCHEMA }) } : undefined;
        const created = tasks.create(ask, (answers) => {
          if (answerOf(answers[APPROVAL_INPUT_KEY]) === 'approved') start();
          else tasks.settle(created.taskId, { result: errorResult(refusedText(name, 'the user declined')) });
        });
        if (ask === undefined) start();
        return { resultType: 'task', ...created } as never;
      }
      if (decision.kind === 'ask') {
        // input_required carries an elicitation: a client that declared none could never answer.
        if (clientCapabilities(ctx)['elicitation'] === undefined) return asModern(errorResult(refusedText(name, CANNOT_ASK)));
        const answer = answerOf(ctx.mcpReq.inputResponses?.[APPROVAL_INPUT_KEY]);
        if (answer === 'refused') return asModern(errorResult(refusedText(name, 'the user declined')));
        if (answer === 'missing') return inputRequired({ inputRequests: { [APPROVAL_INPUT_KEY]: inputRequired.elicit({ message: decision.message, requestedSchema: APPROVAL_SCHEMA }) } });
      }
      return asModern(await surface.call(name, rawArgs, callContext(ctx)));
    } catch (e) {
      try {
        return asModern(toolFailure(e));
      } catch (mapped) {
        return asProtocolError(mapped);
      }
    }
  });

  if (tasks !== undefined) {
    const requireTasks = (ctx: ServerContext): void => {
      if (!declaresTasks(ctx)) throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } as never);
    };
    const unknownTask = (taskId: string): ProtocolError => new ProtocolError(ProtocolErrorCode.InvalidParams, `Task not found: ${taskId}`, { taskId });
    server.setRequestHandler('tasks/get', { params: TASK_ID }, (params, ctx) => {
      requireTasks(ctx);
      const task = tasks.get(params.taskId);
      if (task === undefined) throw unknownTask(params.taskId);
      return { resultType: 'complete', ...task };
    });
    server.setRequestHandler('tasks/cancel', { params: TASK_ID }, (params, ctx) => {
      requireTasks(ctx);
      if (!tasks.cancel(params.taskId)) throw unknownTask(params.taskId);
      return { resultType: 'complete' };
    });
    // The SDK lifts `inputResponses` off the params (as on any retried request) into the context.
    server.setRequestHandler('tasks/update', { params: TASK_ID }, (params, ctx) => {
      requireTasks(ctx);
      if (!tasks.update(params.taskId, ctx.mcpReq.inputResponses ?? {})) throw unknownTask(params.taskId);
      return { resultType: 'complete' };
    });
  }
  return server;
}

/** Submits the run behind a task and settles the task with its outcome (the result run_js would have returned, with the run's state). */
async function runTask(tasks: RunJsTaskStore2026, taskId: string, submit: () => Promise<string>, includeExecutionId: boolean, opts: McpSurfaceOptions): Promise<void> {
  let id: string;
  try {
    id = await submit();
  } catch (e) {
    // Refused (queue full, bad limits, ...): the tool's error result, as without a task.
    try {
      tasks.settle(taskId, { result: toolFailure(e) });
    } catch (mapped) {
      tasks.settle(taskId, { error: { code: mapped instanceof McpError ? mapped.code : ProtocolErrorCode.InternalError, message: mapped instanceof Error ? mapped.message : String(mapped) } });
    }
    return;
  }
  tasks.bindExecution(taskId, id);
  try {
    const result = outcomeResult(await waitForRun(opts.executions, id), includeExecutionId ? id : undefined);
    const full = includeExecutionId || opts.artifacts === undefined ? result : await attachArtifacts(result, opts.executions.get(id).artifacts, opts.artifacts);
    tasks.settle(taskId, { result: full });
  } catch (e) {
    opts.log(`waiting for execution ${id} (task ${taskId}) failed: ${String(e)}`);
    tasks.settle(taskId, { error: { code: ProtocolErrorCode.InternalError, message: `waiting for execution ${id} failed: ${String(e)}` } });
  }
}

