// Upstream MCP tools listed on runjs's own MCP surface as stubs (`--mcp-stubs`, on by default when
// a server is configured): `<prefix><server>__<tool>` with the upstream input schema, whose call
// only answers how to call the tool from a script. The agent discovers upstream tools where it
// looks for tools, and is pointed at code mode. Texts are the reference's (mcp-v8 §7.1).
// Also the typed API of the `mcp` global as an MCP resource (`runjs://mcp-servers/types.d.ts`).
import type { CallToolResult, Resource, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpCatalog } from '../../shared/mcp-catalog.ts';

export const TYPES_RESOURCE_URI = 'runjs://mcp-servers/types.d.ts';

export const TYPES_RESOURCE: Resource = {
  uri: TYPES_RESOURCE_URI,
  name: 'mcp-types',
  title: 'TypeScript declarations of the mcp global',
  description: 'The `mcp` global of run_js scripts, typed from the upstream MCP servers\' tools: mcp.callTool, mcp.listTools, mcp.servers and the typed bindings mcp.tools.<server>.<tool>(args). Read it before writing code that calls upstream tools.',
  mimeType: 'application/typescript',
};

export interface Stub {
  readonly server: string;
  readonly tool: string;
  readonly entry: Tool;
}

function stubDescription(server: string, tool: string, description: string | null): string {
  const head = `[stub for upstream MCP tool ${server}.${tool} — invoke via run_js then \`await mcp.callTool(${JSON.stringify(server)}, ${JSON.stringify(tool)}, args)\`. Calling this tool directly only returns instructions; it does not execute.]`;
  return description === null || description === '' ? head : `${head}\n\n${description}`;
}

/** The stubs of every upstream tool (annotations and output schemas are dropped, as in the reference). */
export function stubsOf(catalog: McpCatalog, prefix: string): Stub[] {
  const stubs: Stub[] = [];
  for (const s of catalog.servers) {
    for (const t of s.tools) {
      const inputSchema = (typeof t.inputSchema === 'object' && t.inputSchema !== null ? t.inputSchema : { type: 'object' }) as Tool['inputSchema'];
      stubs.push({ server: s.name, tool: t.name, entry: { name: `${prefix}${s.name}__${t.name}`, description: stubDescription(s.name, t.name, t.description), inputSchema } });
    }
  }
  return stubs;
}

/** What calling a stub answers: how to make the call from run_js. */
export function stubResult(stub: Stub, args: Record<string, unknown> | undefined): CallToolResult {
  const shown = JSON.stringify(args ?? {}, null, 2);
  const text = [
    'This tool is a stub. Execute it from JavaScript via the `run_js` tool, e.g.:',
    '',
    `const result = await mcp.callTool(${JSON.stringify(stub.server)}, ${JSON.stringify(stub.tool)}, ${shown});`,
    'console.log(JSON.stringify(result));',
  ].join('\n');
  return { content: [{ type: 'text', text }] };
}

/** Appended to the default instructions when upstream servers are configured. */
export function upstreamInstructions(servers: readonly string[]): string {
  return `\n\nExternal MCP servers are callable from run_js scripts: \`await mcp.callTool(server, tool, args)\` or the typed \`mcp.tools.<server>.<tool>(args)\` (servers: ${servers.join(', ')}). `
    + `Their typed API is the resource ${TYPES_RESOURCE_URI}; \`mcp.listTools(server?)\` lists the tools from a script. `
    + 'Call several tools in one script and return only what you need.';
}
