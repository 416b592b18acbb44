// The upstream MCP servers as scripts see them: which servers are configured, whether each is
// connected, and its tools. The supervisor builds it (supervisor/upstream-mcp/) and sends its JSON
// with every run (RunRequest.mcpCatalog); the worker hands it to the guest's `mcp` global
// (worker/ops/mcp/), which answers `mcp.servers`, `mcp.listTools()` and builds `mcp.tools` from it.
// The size limits of upstream calls live here too: the worker applies them, the supervisor again.

const MiB = 1024 * 1024;

/** JSON bytes of one call's `arguments`. */
export const MAX_MCP_ARGUMENT_BYTES = 4 * MiB;
/** JSON bytes of one call's result; also the route's maxAnswerBytes (so eight calls fill a run's 64 MiB of delegated ops). */
export const MAX_MCP_RESULT_BYTES = 8 * MiB;
/** JSON bytes of the catalogue sent with each run: tools beyond it are left out (and the catalogue says so). */
export const MAX_MCP_CATALOG_BYTES = 4 * MiB;

export interface McpCatalogTool {
  readonly name: string;
  readonly description: string | null;
  readonly inputSchema: unknown;
  /** Present when the upstream declares one: the typed binding then returns `structuredContent`. */
  readonly outputSchema?: unknown;
}

export interface McpCatalogServer {
  readonly name: string;
  /** False while runjs cannot reach the server (it keeps reconnecting); `tools` are then the last known ones. */
  readonly connected: boolean;
  readonly tools: readonly McpCatalogTool[];
}

export interface McpCatalog {
  /** Changes whenever the catalogue does (a reconnect, a changed tool list). */
  readonly version: number;
  readonly servers: readonly McpCatalogServer[];
  /** Set when tools were left out to keep the catalogue within MAX_MCP_CATALOG_BYTES. */
  readonly truncated?: boolean;
}

/** `["a", "b"]`: how the reference lists server names in its messages. */
export function serverList(names: readonly string[]): string {
  return `[${names.map((n) => JSON.stringify(n)).join(', ')}]`;
}
