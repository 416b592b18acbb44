// The `mcp` global as TypeScript declarations, generated from the upstream catalogue: each tool's
// inputSchema becomes its argument type and its outputSchema (when declared) the type its typed
// binding `mcp.tools.<server>.<tool>()` resolves to. Served as an MCP resource and at
// GET /api/mcp-servers/types.d.ts, so an agent can read the API before it writes code.
// JSON Schema → TypeScript covers what tool schemas use (types, properties and required,
// additionalProperties, items, enum, const, anyOf/oneOf/allOf, nullable type lists); anything else
// (a $ref, a deep nesting) is `unknown`, never wrong.
import type { McpCatalog, McpCatalogTool } from '../../shared/mcp-catalog.ts';

const MAX_DEPTH = 8;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

type Schema = Record<string, unknown>;

function isSchema(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function key(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** A JSDoc block for `text` at `indent` (nothing for an empty text); `*​/` cannot end it early. */
function doc(text: unknown, indent: string): string {
  if (typeof text !== 'string' || text.trim() === '') return '';
  const lines = text.trim().replaceAll('*/', '*\\/').split(/\r?\n/);
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

function literal(v: unknown): string {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === null ? JSON.stringify(v) : 'unknown';
}

function union(types: readonly string[]): string {
  const unique = [...new Set(types)];
  if (unique.includes('unknown')) return 'unknown';
  return unique.length === 0 ? 'never' : unique.join(' | ');
}

function objectType(s: Schema, depth: number, indent: string): string {
  const props = isSchema(s['properties']) ? s['properties'] : {};
  const required = new Set(Array.isArray(s['required']) ? s['required'].filter((r): r is string => typeof r === 'string') : []);
  const inner = `${indent}  `;
  const lines: string[] = [];
  for (const [name, sub] of Object.entries(props)) {
    lines.push(`${doc(isSchema(sub) ? sub['description'] : undefined, inner)}${inner}${key(name)}${required.has(name) ? '' : '?'}: ${typeOf(sub, depth + 1, inner)};`);
  }
  const extra = s['additionalProperties'];
  if (isSchema(extra)) lines.push(`${inner}[key: string]: ${typeOf(extra, depth + 1, inner)};`);
  else if (extra !== false && Object.keys(props).length === 0) lines.push(`${inner}[key: string]: unknown;`);
  return lines.length === 0 ? '{}' : `{\n${lines.join('\n')}\n${indent}}`;
}

function arrayType(s: Schema, depth: number, indent: string): string {
  const items = s['items'];
  if (Array.isArray(items)) return `[${items.map((i) => typeOf(i, depth + 1, indent)).join(', ')}]`;
  const t = items === undefined ? 'unknown' : typeOf(items, depth + 1, indent);
  return /^[A-Za-z0-9_"']+$/.test(t) ? `${t}[]` : `Array<${t}>`;
}

function typeOf(schema: unknown, depth: number, indent: string): string {
  if (schema === true || schema === undefined) return 'unknown';
  if (!isSchema(schema) || depth > MAX_DEPTH || schema['$ref'] !== undefined) return 'unknown';
  if (Object.hasOwn(schema, 'const')) return literal(schema['const']);
  if (Array.isArray(schema['enum'])) return union(schema['enum'].map(literal));
  for (const k of ['anyOf', 'oneOf'] as const) {
    const alts = schema[k];
    if (Array.isArray(alts)) return union(alts.map((a) => typeOf(a, depth + 1, indent)));
  }
  if (Array.isArray(schema['allOf'])) {
    const parts = schema['allOf'].map((a) => typeOf(a, depth + 1, indent));
    return parts.includes('unknown') ? 'unknown' : parts.map((p) => (p.includes('|') ? `(${p})` : p)).join(' & ');
  }
  const type = schema['type'];
  const types = Array.isArray(type) ? type : [type];
  return union(types.map((t) => {
    switch (t) {
      case 'string': return 'string';
      case 'number': case 'integer': return 'number';
      case 'boolean': return 'boolean';
      case 'null': return 'null';
      case 'array': return arrayType(schema, depth, indent);
      case 'object': return objectType(schema, depth, indent);
      case undefined: return isSchema(schema['properties']) ? objectType(schema, depth, indent) : 'unknown';
      default: return 'unknown';
    }
  }));
}

function toolDecl(server: string, t: McpCatalogTool, indent: string): string {
  const args = typeOf(t.inputSchema, 0, indent);
  const optional = !isSchema(t.inputSchema) || !Array.isArray(t.inputSchema['required']) || t.inputSchema['required'].length === 0;
  const result = t.outputSchema === undefined ? 'McpToolResult' : typeOf(t.outputSchema, 0, indent);
  const note = t.outputSchema === undefined ? '' : '\n\nResolves to the tool\'s structuredContent.';
  const text = `${t.description ?? ''}${note}\n\nmcp.callTool(${JSON.stringify(server)}, ${JSON.stringify(t.name)}, args)`.trim();
  return `${doc(text, indent)}${indent}${key(t.name)}(args${optional ? '?' : ''}: ${args}): Promise<${result}>;`;
}

/** The declarations for `catalog` (a .d.ts an agent or an editor can read). */
export function typesDts(catalog: McpCatalog): string {
  const servers = catalog.servers.map((s) => {
    const state = s.connected ? '' : ' (not connected at the moment; tools as last listed)';
    const tools = s.tools.map((t) => toolDecl(s.name, t, '    ')).join('\n');
    return `  /** Upstream MCP server ${JSON.stringify(s.name)}${state}. */\n  ${key(s.name)}: {\n${tools}${tools === '' ? '' : '\n'}  };`;
  });
  return `// The \`mcp\` global of runjs scripts (run_js), generated from the upstream MCP servers' tools.
// Catalogue version ${catalog.version}${catalog.truncated === true ? '; some tools were left out (the catalogue is too large)' : ''}.

/** A content block of an MCP tool result (text, image, audio, resource link, embedded resource). */
type McpContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; data: string; mimeType: string }
  | { type: 'resource_link'; uri: string; name: string; mimeType?: string; description?: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } };

interface McpToolResult {
  content: McpContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError: false;
}

interface McpToolInfo {
  server: string;
  name: string;
  description: string | null;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
}

/** Thrown when an upstream tool answers with isError: true. */
declare class McpToolError extends Error {
  readonly name: 'McpToolError';
  /** The upstream result as received. */
  readonly result: { content: McpContentBlock[]; isError: true; structuredContent?: Record<string, unknown> };
  readonly serverName: string;
  readonly toolName: string;
}

/** Typed bindings: mcp.tools.<server>.<tool>(args). */
interface McpTools {
${servers.join('\n')}
}

declare const mcp: {
  /** Calls an upstream tool; rejects with McpToolError when the tool reports an error. */
  callTool(server: string, tool: string, args?: Record<string, unknown>): Promise<McpToolResult>;
  /** The tools of one server, or of all (synchronous). */
  listTools(server?: string): McpToolInfo[];
  /** The configured server names. */
  readonly servers: string[];
  readonly tools: McpTools;
};
`;
}
