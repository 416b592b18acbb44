// The 2025 protocol generation (initialize; 2024-11-05 to 2025-11-25; SDK v1): one MCP server
// object per MCP connection (a stdio process, a Streamable HTTP session, an SSE stream) over the
// shared surface (mcp-surface.ts), and 2025-11-25 tasks where the transport offers them.
// MCP 2026-07-28 is mcp-server-2026.ts (docs/mcp-protocol.md).
//
// Built on the SDK's low-level `Server` rather than `McpServer`, for two reasons: McpServer runs
// a task-capable tool called *without* a task by creating a task and polling it (every 5 s by
// default), which would turn stateful `run_js` (an id at once) into a wait; and its argument
// errors are plain text, where ours are `{"error": ...}` JSON like every other failure.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolRequest, CallToolResult, CreateTaskResult, LoggingLevel, ServerCapabilities, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { TransportKind } from './mcp-texts.ts';
import { serveLogLevel } from './log-level.ts';
import { RunJsTaskStore, startRunTask } from './run-js-tasks.ts';
import { RunjsError } from '../../shared/errors.ts';
import { errorResult, invalidArguments, toolFailure, type ToolCallContext } from './tool-kit.ts';
import { buildSurface, onResourcesChanged, type McpSurface, type McpSurfaceOptions } from './mcp-surface.ts';
import { answerOf, APPROVAL_SCHEMA, CANNOT_ASK, refusedText } from './approval.ts';

export type { McpSurfaceOptions } from './mcp-surface.ts';

/**
 * The MCP session name of one connection, handed to `run_js` submissions. Set from the
 * `X-MCP-Session-Id` header at initialize (HTTP) or `--session-id`; unrelated to the transport's
 * own `Mcp-Session-Id`.
 */
export interface SessionName {
  value: string | undefined;
}

export interface McpConnection {
  readonly server: Server;
  readonly session: SessionName;
  /** Closes the server (and its transport) and drops its tasks. */
  close(): Promise<void>;
}

/** `serverInfo.name` in the initialize result. */
export const SERVER_NAME = 'runjs';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The protocol-neutral call context (tool-kit.ts) from the SDK v1 request context. */
function callContext(server: Server, logs: (level: LoggingLevel) => boolean, extra: Extra, progressToken: string | number | undefined): ToolCallContext {
  return {
    signal: extra.signal,
    progress: (params) => extra.sendNotification({ method: 'notifications/progress', params }),
    progressToken,
    requestUrl: extra.requestInfo?.url,
    // Below the level this connection set (logging/setLevel, log-level.ts) it is not sent; a
    // closed connection drops it.
    log: (level, logger, data) => {
      if (logs(level)) server.notification({ method: 'notifications/message', params: { level, logger, data } }).catch(() => { /* the connection is closing */ });
    },
  };
}

export function createMcpConnection(opts: McpSurfaceOptions, transport: TransportKind, session: SessionName): McpConnection {
  const tasksEnabled = transport !== 'sse';
  const surface: McpSurface = buildSurface(opts, transport, () => session.value);
  const taskStore = tasksEnabled ? new RunJsTaskStore(opts.executions) : undefined;
  const capabilities: ServerCapabilities = {
    tools: { listChanged: false },
    // Log messages: a stateful run_js's end (docs/mcp-protocol.md, Logging).
    logging: {},
    ...(surface.hasResources ? { resources: surface.resourcesChange ? { listChanged: true } : {} } : {}),
    ...(tasksEnabled ? { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } } : {}),
  };
  const server = new Server(
    { name: SERVER_NAME, title: 'runjs', version: opts.version },
    { capabilities, instructions: surface.instructions, ...(taskStore === undefined ? {} : { taskStore }) },
  );
  const logs = serveLogLevel(server);

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: surface.listTools(tasksEnabled) }));
  if (surface.hasResources) {
    server.setRequestHandler(ListResourcesRequestSchema, (request) => surface.listResources(request.params?.cursor));
    if (surface.hasTemplates) server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: surface.templates }));
    server.setRequestHandler(ReadResourceRequestSchema, (request) => surface.readResource(request.params.uri));
  }

  /** The approval hook's answer; `ask` elicits from the client when it can be asked (2025: server-to-client request). */
  const approved = async (name: string, rawArgs: Record<string, unknown> | undefined): Promise<CallToolResult | undefined> => {
    const decision = await surface.approval(name, rawArgs);
    if (decision.kind === 'allow') return undefined;
    if (decision.kind === 'deny') return errorResult(refusedText(name, decision.reason));
    if (server.getClientCapabilities()?.elicitation === undefined) return errorResult(refusedText(name, CANNOT_ASK));
    const answer = await server.elicitInput({ message: decision.message, requestedSchema: APPROVAL_SCHEMA });
    return answerOf(answer) === 'approved' ? undefined : errorResult(refusedText(name, 'the user declined'));
  };

  const callTool = async (request: CallToolRequest, extra: Extra): Promise<CallToolResult | CreateTaskResult> => {
    const { name, arguments: rawArgs, task, _meta } = request.params;
    const refused = await approved(name, rawArgs);
    if (refused !== undefined) return refused;
    const def = surface.tool(name);
    // A stub or an unknown name answers as without a task (its text, or -32602).
    if (task !== undefined && def !== undefined) {
      if (def.task === undefined || taskStore === undefined || extra.taskStore === undefined) throw new RunjsError('TOOL_NOT_TASK', name);
      const runner = def.task;
      const parsed = def.input.safeParse(rawArgs ?? {});
      return startRunTask({
        store: taskStore,
        requestStore: extra.taskStore,
        requestedTtl: extra.taskRequestedTtl,
        executions: opts.executions,
        includeExecutionId: runner.includeExecutionId,
        artifacts: opts.artifacts,
        log: opts.log,
        submit: async () => {
          try {
            if (!parsed.success) throw invalidArguments(name, parsed.error);
            return await runner.submit(parsed.data);
          } catch (e) {
            return toolFailure(e);
          }
        },
      });
    }
    return surface.call(name, rawArgs, callContext(server, logs, extra, _meta?.progressToken));
  };
  // Every failure of a call, from any tool, is mapped here (tool-kit.ts toolFailure).
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => callTool(request, extra).catch(toolFailure));

  // Artifacts come and go: the connection hears about it (2025 sends list-changed unsolicited).
  const unwatch = surface.resourcesChange ? onResourcesChanged(opts, () => {
    if (server.transport !== undefined) server.sendResourceListChanged().catch(() => { /* the connection is closing */ });
  }) : () => {};

  let closed = false;
  return {
    server,
    session,
    close: async () => {
      if (closed) return;
      closed = true;
      unwatch();
      taskStore?.close();
      await server.close();
    },
  };
}
