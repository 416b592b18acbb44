// One MCP server object per MCP connection (a stdio process, a Streamable HTTP session, an SSE
// stream): the tools of the mode, the instructions, and tasks where the transport offers them.
//
// Built on the SDK's low-level `Server` rather than `McpServer`, for two reasons: McpServer runs
// a task-capable tool called *without* a task by creating a task and polling it (every 5 s by
// default), which would turn stateful `run_js` (an id at once) into a wait; and its argument
// errors are plain text, where ours are `{"error": ...}` JSON like every other failure.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema, McpError, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ARTIFACT_TEMPLATE, listArtifactResources, readArtifactResource } from './artifact-resources.ts';
import type { CallToolRequest, CallToolResult, CreateTaskResult, ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { executionTools, type McpExecutionsApi } from './execution-tools.ts';
import type { ExecutionLimits } from '../../shared/execution-contract.ts';
import { defaultInstructions, type McpMode, type TransportKind } from './mcp-texts.ts';
import { RunJsTaskStore, startRunTask } from './run-js-tasks.ts';
import { runJsTool } from './run-js-tool.ts';
import { heapTools } from './heap-tools.ts';
import type { HeapService } from '../heaps/index.ts';
import { fsTools } from './fs-tools.ts';
import { sessionFileTools } from './session-file-tools.ts';
import type { SessionFiles } from '../fs/session-files.ts';
import type { FsService } from '../fs/index.ts';
import { artifactTools, type McpArtifactsApi } from './artifact-tools.ts';
import { RunjsError } from '../../shared/errors.ts';
import { invalidArguments, listEntry, toolFailure, type ToolCallContext, type ToolDef } from './tool-kit.ts';
import type { RunJsFileReader } from '../executions/run-js-file.ts';
import { wasmStubTools, type WasmStubModule } from './wasm-stubs.ts';
import type { UpstreamSurface } from '../upstream-mcp/index.ts';
import { stubResult, stubsOf, TYPES_RESOURCE, TYPES_RESOURCE_URI, upstreamInstructions } from './upstream-stubs.ts';

export interface McpSurfaceOptions {
  readonly executions: McpExecutionsApi;
  /** The artifact tools (get_artifact, list_artifacts, delete_artifact, get_artifact_upload_url) are listed only with this, when its `tools` is set. */
  readonly artifacts?: McpArtifactsApi | undefined;
  /** Heap tags and the session log (stateful mode): the session tools always, the tag tools when its store is set. */
  readonly heaps?: HeapService | undefined;
  /** Filesystem snapshot labels (stateful mode): the fs_* tools, listed when its store is set. */
  readonly fs?: FsService | undefined;
  /** A session's files (fs_list_dir, fs_read_file, …); absent without a filesystem store. */
  readonly sessionFiles?: SessionFiles | undefined;
  readonly mode: McpMode;
  /** Defaults and the heap ceiling (shared/execution-contract.ts), for run_js's schema and the texts. */
  readonly limits: ExecutionLimits;
  readonly version: string;
  /** `--instructions`: replaces the default instructions whole. */
  readonly instructions?: string | undefined;
  /** `--run-js-description`. */
  readonly runJsDescription?: string | undefined;
  /** run_js `file` (stateful mode); absent: `file` answers "disabled". */
  readonly files?: RunJsFileReader | undefined;
  /** WASM stub tools (`--wasm-stubs`): listed after the others, except on the legacy SSE transport (as the reference). */
  readonly wasmStubs?: { readonly prefix: string; readonly modules: readonly WasmStubModule[] } | undefined;
  /** Upstream MCP servers: their tools listed as stubs (when on) and the `mcp` global's types as a resource. */
  readonly upstream?: UpstreamSurface | undefined;
  readonly log: (line: string) => void;
}

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

export function createMcpConnection(opts: McpSurfaceOptions, transport: TransportKind, session: SessionName): McpConnection {
  const tasksEnabled = transport !== 'sse';
  const tools: ToolDef[] = [
    runJsTool({
      executions: opts.executions, mode: opts.mode, limits: opts.limits, description: opts.runJsDescription,
      sessionName: () => session.value, artifacts: opts.artifacts, heap: opts.mode === 'stateful' && opts.heaps?.enabled === true,
      files: opts.files,
    }),
    ...(opts.mode === 'stateful' ? executionTools(opts.executions) : []),
    ...(opts.mode === 'stateful' && opts.heaps ? heapTools(opts.heaps, () => session.value) : []),
    ...(opts.mode === 'stateful' && opts.fs ? fsTools(opts.fs) : []),
    ...(opts.mode === 'stateful' ? sessionFileTools(opts.sessionFiles, () => session.value) : []),
    ...(opts.artifacts?.tools === true ? artifactTools(opts.artifacts) : []),
    ...(opts.wasmStubs !== undefined && transport !== 'sse' ? wasmStubTools(opts.wasmStubs.modules, opts.wasmStubs.prefix) : []),
  ];
  const byName = new Map(tools.map((t) => [t.name, t]));
  const taskStore = tasksEnabled ? new RunJsTaskStore(opts.executions) : undefined;
  const upstream = opts.upstream;
  // Artifacts are resources wherever the artifact tools are listed (docs/mcp-tools.md, "Resources").
  const artifactResources = opts.artifacts?.tools === true;
  const capabilities: ServerCapabilities = {
    tools: { listChanged: false },
    ...(upstream !== undefined || artifactResources ? { resources: {} } : {}),
    ...(tasksEnabled ? { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } } : {}),
  };
  const server = new Server(
    { name: SERVER_NAME, title: 'runjs', version: opts.version },
    {
      capabilities,
      instructions: opts.instructions ?? `${defaultInstructions(opts.mode, transport, opts.limits, opts.heaps?.enabled === true)}${upstream === undefined ? '' : upstreamInstructions(upstream.catalog().servers.map((s) => s.name))}`,
      ...(taskStore === undefined ? {} : { taskStore }),
    },
  );

  let listed: ReturnType<typeof listEntry>[] | undefined;
  // Stubs follow the upstream catalogue as it is at each listing (servers reconnect, tools change).
  const stubs = () => (upstream?.stubPrefix === undefined ? [] : stubsOf(upstream.catalog(), upstream.stubPrefix).filter((s) => !byName.has(s.entry.name)));
  server.setRequestHandler(ListToolsRequestSchema, () => {
    listed ??= tools.map((t) => listEntry(t, tasksEnabled));
    // The legacy SSE transport lists no stubs (the reference's rule; they stay callable by name).
    return { tools: upstream === undefined || transport === 'sse' ? listed : [...listed, ...stubs().map((s) => s.entry)] };
  });
  if (upstream !== undefined || artifactResources) {
    const artifacts = artifactResources ? opts.artifacts : undefined;
    const sessionExecutions = opts.executions.sessionExecutionIds?.bind(opts.executions);
    server.setRequestHandler(ListResourcesRequestSchema, (request) => {
      const cursor = request.params?.cursor;
      // The types resource leads the first page; artifacts follow, a page at a time.
      const fixed = upstream !== undefined && cursor === undefined ? [TYPES_RESOURCE] : [];
      if (artifacts === undefined) return { resources: fixed };
      const page = listArtifactResources({ service: artifacts.service, ...(sessionExecutions ? { sessionExecutions } : {}) }, cursor, session.value);
      return { ...page, resources: [...fixed, ...page.resources] };
    });
    if (artifacts !== undefined) server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [ARTIFACT_TEMPLATE] }));
    server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
      const { uri } = request.params;
      if (upstream !== undefined && uri === TYPES_RESOURCE_URI) return { contents: [{ uri: TYPES_RESOURCE_URI, mimeType: TYPES_RESOURCE.mimeType, text: upstream.typesDts() }] };
      const read = artifacts === undefined ? undefined : await readArtifactResource(artifacts.service, uri);
      // SEP-2164: a resource that does not exist is invalid params, with the URI as data.
      if (read === undefined) throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${uri}`, { uri });
      return read;
    });
  }

  const callTool = async (request: CallToolRequest, extra: ToolCallContext['extra']): Promise<CallToolResult | CreateTaskResult> => {
    const { name, arguments: rawArgs, task, _meta } = request.params;
    const def = byName.get(name);
    const stub = def === undefined && upstream !== undefined ? stubs().find((s) => s.entry.name === name) : undefined;
    if (stub !== undefined) return stubResult(stub, rawArgs);
    // An unknown tool is a protocol error (MCP: "Unknown tools" → -32602); everything about a
    // known tool's call is a tool error the model can read and correct.
    if (def === undefined) throw new RunjsError('UNKNOWN_TOOL', name);
    const parsed = def.input.safeParse(rawArgs ?? {});
    if (task !== undefined) {
      if (def.task === undefined || taskStore === undefined || extra.taskStore === undefined) throw new RunjsError('TOOL_NOT_TASK', name);
      const runner = def.task;
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
    if (!parsed.success) throw invalidArguments(name, parsed.error);
    return def.handle(parsed.data, { extra, progressToken: _meta?.progressToken });
  };
  // Every failure of a call, from any tool, is mapped here (tool-kit.ts toolFailure).
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => callTool(request, extra).catch(toolFailure));

  let closed = false;
  return {
    server,
    session,
    close: async () => {
      if (closed) return;
      closed = true;
      taskStore?.close();
      await server.close();
    },
  };
}
