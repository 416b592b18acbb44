// What runjs offers an MCP client, independent of the protocol generation that carries it: the
// tools of the mode (with upstream stubs), the resources, the instructions, and one synchronous
// tools/call. The 2025 server (mcp-server.ts, SDK v1) and the 2026-07-28 server
// (mcp-server-2026.ts, SDK v2) are both thin adapters over this, so the two generations can never
// offer different tools or answer a call differently.
import type { CallToolResult, ListResourcesResult, ReadResourceResult, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ARTIFACT_TEMPLATE, listArtifactResources, readArtifactResource, watchArtifactResources } from './artifact-resources.ts';
import { executionTools, type McpExecutionsApi } from './execution-tools.ts';
import type { ExecutionLimits } from '../../shared/execution-contract.ts';
import { defaultInstructions, type McpMode, type TransportKind } from './mcp-texts.ts';
import { runJsTool } from './run-js-tool.ts';
import { heapTools } from './heap-tools.ts';
import type { HeapService } from '../heaps/index.ts';
import { fsTools } from './fs-tools.ts';
import { sessionFileTools } from './session-file-tools.ts';
import type { SessionFiles } from '../fs/session-files.ts';
import type { FsService } from '../fs/index.ts';
import { artifactTools, type McpArtifactsApi } from './artifact-tools.ts';
import { RunjsError } from '../../shared/errors.ts';
import { invalidArguments, listEntry, type ToolCallContext, type ToolDef } from './tool-kit.ts';
import type { RunJsFileReader } from '../executions/run-js-file.ts';
import { wasmStubTools, type WasmStubModule } from './wasm-stubs.ts';
import type { UpstreamSurface } from '../upstream-mcp/open-upstreams.ts';
import { stubResult, stubsOf, TYPES_RESOURCE, TYPES_RESOURCE_URI, upstreamInstructions, type Stub } from './upstream-stubs.ts';
import type { ApprovalDecision, ApprovalHook } from './approval.ts';

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
  /** Asks a human before a run_js call goes ahead (the policy hook; see approval.ts). Absent: never asks. */
  readonly approval?: ApprovalHook | undefined;
  readonly log: (line: string) => void;
}

/** The tools a policy may want a human to approve: the ones that run code. */
const APPROVAL_TOOLS = new Set(['run_js']);
const ALLOW: ApprovalDecision = { kind: 'allow' };

export interface McpSurface {
  readonly tools: readonly ToolDef[];
  readonly instructions: string;
  /** Whether resources/* are served (upstream types, artifacts). */
  readonly hasResources: boolean;
  /** Whether resources/templates/list is served (artifacts). */
  readonly hasTemplates: boolean;
  /** Whether the resource list changes while the server runs (artifacts), so list-changed notifications are sent. */
  readonly resourcesChange: boolean;
  /** The tools/list entries; `taskSupport` marks the task-capable tools (2025-11-25 wire only). */
  listTools(taskSupport: boolean): Tool[];
  /** A known tool by name (not a stub). */
  tool(name: string): ToolDef | undefined;
  /** tools/call without a task: a stub's answer, a tool's result, or a thrown error (tool-kit.ts toolFailure maps it). */
  call(name: string, rawArgs: Record<string, unknown> | undefined, ctx: ToolCallContext): Promise<CallToolResult>;
  listResources(cursor: string | undefined): ListResourcesResult;
  readonly templates: ResourceTemplate[];
  readResource(uri: string): Promise<ReadResourceResult>;
  /** The approval hook's decision on a call (`allow` without a hook, for other tools, and for invalid arguments, which fail on their own). */
  approval(name: string, rawArgs: Record<string, unknown> | undefined): Promise<ApprovalDecision>;
}

/**
 * Calls `notify` when the resource list changed (artifacts stored or deleted), coalesced; returns
 * the unsubscribe. Nothing to watch (no artifact resources): a no-op.
 */
export function onResourcesChanged(opts: McpSurfaceOptions, notify: () => void): () => void {
  return opts.artifacts?.tools === true ? watchArtifactResources(opts.artifacts.service, notify) : () => {};
}

/**
 * The surface of one MCP server object. `sessionName` is read at each call: the 2025 transports
 * set it at initialize, the 2026 ones per request.
 */
export function buildSurface(opts: McpSurfaceOptions, transport: TransportKind, sessionName: () => string | undefined): McpSurface {
  const tools: ToolDef[] = [
    runJsTool({
      executions: opts.executions, mode: opts.mode, limits: opts.limits, description: opts.runJsDescription,
      sessionName, artifacts: opts.artifacts, heap: opts.mode === 'stateful' && opts.heaps?.enabled === true,
      files: opts.files,
    }),
    ...(opts.mode === 'stateful' ? executionTools(opts.executions) : []),
    ...(opts.mode === 'stateful' && opts.heaps ? heapTools(opts.heaps, sessionName) : []),
    ...(opts.mode === 'stateful' && opts.fs ? fsTools(opts.fs) : []),
    ...(opts.mode === 'stateful' ? sessionFileTools(opts.sessionFiles, sessionName) : []),
    ...(opts.artifacts?.tools === true ? artifactTools(opts.artifacts) : []),
    ...(opts.wasmStubs !== undefined && transport !== 'sse' ? wasmStubTools(opts.wasmStubs.modules, opts.wasmStubs.prefix) : []),
  ];
  const byName = new Map(tools.map((t) => [t.name, t]));
  const upstream = opts.upstream;
  // Artifacts are resources wherever the artifact tools are listed (docs/mcp-tools.md, "Resources").
  const artifacts = opts.artifacts?.tools === true ? opts.artifacts : undefined;
  const sessionExecutions = opts.executions.sessionExecutionIds?.bind(opts.executions);
  // Stubs follow the upstream catalogue as it is at each listing (servers reconnect, tools change).
  const stubs = (): Stub[] => (upstream?.stubPrefix === undefined ? [] : stubsOf(upstream.catalog(), upstream.stubPrefix).filter((s) => !byName.has(s.entry.name)));
  const listed = new Map<boolean, Tool[]>();

  return {
    tools,
    instructions: opts.instructions ?? `${defaultInstructions(opts.mode, transport, opts.limits, opts.heaps?.enabled === true)}${upstream === undefined ? '' : upstreamInstructions(upstream.catalog().servers.map((s) => s.name))}`,
    hasResources: upstream !== undefined || artifacts !== undefined,
    hasTemplates: artifacts !== undefined,
    resourcesChange: artifacts !== undefined,
    listTools(taskSupport) {
      let own = listed.get(taskSupport);
      if (own === undefined) listed.set(taskSupport, own = tools.map((t) => listEntry(t, taskSupport)));
      // The legacy SSE transport lists no stubs (the reference's rule; they stay callable by name).
      return upstream === undefined || transport === 'sse' ? own : [...own, ...stubs().map((s) => s.entry)];
    },
    tool: (name) => byName.get(name),
    async call(name, rawArgs, ctx) {
      const def = byName.get(name);
      const stub = def === undefined && upstream !== undefined ? stubs().find((s) => s.entry.name === name) : undefined;
      if (stub !== undefined) return stubResult(stub, rawArgs);
      // An unknown tool is a protocol error (MCP: "Unknown tools" → -32602); everything about a
      // known tool's call is a tool error the model can read and correct.
      if (def === undefined) throw new RunjsError('UNKNOWN_TOOL', name);
      const parsed = def.input.safeParse(rawArgs ?? {});
      if (!parsed.success) throw invalidArguments(name, parsed.error);
      return def.handle(parsed.data, ctx);
    },
    listResources(cursor) {
      // The types resource leads the first page; artifacts follow, a page at a time.
      const fixed = upstream !== undefined && cursor === undefined ? [TYPES_RESOURCE] : [];
      if (artifacts === undefined) return { resources: fixed };
      const page = listArtifactResources({ service: artifacts.service, ...(sessionExecutions ? { sessionExecutions } : {}) }, cursor, sessionName());
      return { ...page, resources: [...fixed, ...page.resources] };
    },
    templates: artifacts === undefined ? [] : [ARTIFACT_TEMPLATE],
    async readResource(uri) {
      if (upstream !== undefined && uri === TYPES_RESOURCE_URI) return { contents: [{ uri: TYPES_RESOURCE_URI, mimeType: TYPES_RESOURCE.mimeType, text: upstream.typesDts() }] };
      const read = artifacts === undefined ? undefined : await readArtifactResource(artifacts.service, uri);
      // SEP-2164: a resource that does not exist is invalid params, with the URI as data.
      if (read === undefined) throw new McpError(ErrorCode.InvalidParams, `Resource not found: ${uri}`, { uri });
      return read;
    },
    async approval(name, rawArgs) {
      const def = byName.get(name);
      if (opts.approval === undefined || def === undefined || !APPROVAL_TOOLS.has(name)) return ALLOW;
      const parsed = def.input.safeParse(rawArgs ?? {});
      if (!parsed.success) return ALLOW;
      return opts.approval({ tool: name, args: parsed.data, session: sessionName() });
    },
  };
}
