// The `mcp` global: tools of the upstream MCP servers the operator configured, called through the
// host (worker/ops/mcp/, which asks the `mcp_tools` policy; the supervisor holds the clients).
// - mcp.callTool(server, tool, args?) → Promise<{content, structuredContent?, isError: false}>;
//   an upstream result with `isError: true` rejects with McpToolError (`result`, `serverName`,
//   `toolName`), the reference's text: `mcp.callTool S.T failed: <first text block>`.
// - mcp.listTools(server?) → [{server, name, description, inputSchema, outputSchema?}] (synchronous).
// - mcp.servers → the configured server names.
// - mcp.tools.<server>.<tool>(args) → the typed binding: `structuredContent` when the tool declares
//   an output schema, the whole result otherwise (errors thrown the same way).
// The catalogue behind the last three is the supervisor's as of the run's start (op mcp.catalog).
import core from 'runjs:part/core';

const { op, opAsync } = core.shared;
const EMPTY = Object.freeze({ version: 0, servers: Object.freeze([]) });

let lastText;
let lastCatalog = EMPTY;
let bindings;

function catalog() {
  const text = op('mcp.catalog');
  if (text !== lastText) {
    lastCatalog = text === '' ? EMPTY : JSON.parse(text);
    lastText = text;
    bindings = undefined;
  }
  return lastCatalog;
}

function serverNames() {
  return catalog().servers.map((s) => s.name);
}

function notFound(server) {
  return new Error(`MCP server '${server}' not found. Available: [${serverNames().map((n) => JSON.stringify(n)).join(', ')}]`);
}

export class McpToolError extends Error {
  constructor(message, result, serverName, toolName) {
    super(message);
    this.result = result;
    this.serverName = serverName;
    this.toolName = toolName;
  }
}
Object.defineProperty(McpToolError.prototype, 'name', { __proto__: null, value: 'McpToolError', writable: true, enumerable: false, configurable: true });

function firstText(result) {
  const content = Array.isArray(result.content) ? result.content : [];
  for (const block of content) {
    if (block !== null && typeof block === 'object' && block.type === 'text' && typeof block.text === 'string') return block.text;
  }
  return undefined;
}

function checked(result, server, tool) {
  if (result === null || typeof result !== 'object') throw new Error(`mcp.callTool ${server}.${tool} failed: malformed result`);
  if (result.isError === true) {
    throw new McpToolError(`mcp.callTool ${server}.${tool} failed: ${firstText(result) ?? 'Tool returned an error'}`, result, server, tool);
  }
  const out = { content: Array.isArray(result.content) ? result.content : [] };
  if (result.structuredContent !== undefined) out.structuredContent = result.structuredContent;
  out.isError = false;
  return out;
}

function callTool(server, tool, args) {
  if (typeof server !== 'string') throw new TypeError('mcp.callTool: server name must be a string');
  if (typeof tool !== 'string') throw new TypeError('mcp.callTool: tool name must be a string');
  if (args !== undefined && args !== null && (typeof args !== 'object' || Array.isArray(args))) {
    throw new TypeError('mcp.callTool: arguments must be an object');
  }
  return opAsync('mcp.callTool', { server, tool, arguments: args ?? null }).then((result) => checked(result, server, tool));
}

function listTools(server) {
  if (server !== undefined && typeof server !== 'string') throw new TypeError('mcp.listTools: server name must be a string');
  const servers = catalog().servers;
  if (server !== undefined && !servers.some((s) => s.name === server)) throw notFound(server);
  const out = [];
  for (const s of servers) {
    if (server !== undefined && s.name !== server) continue;
    for (const t of s.tools) {
      const entry = { server: s.name, name: t.name, description: t.description ?? null, inputSchema: t.inputSchema };
      if (t.outputSchema !== undefined) entry.outputSchema = t.outputSchema;
      out.push(entry);
    }
  }
  return out;
}

function binding(server, t) {
  const structured = t.outputSchema !== undefined;
  const fn = {
    [t.name](args) {
      return callTool(server, t.name, args).then((r) => (structured && r.structuredContent !== undefined ? r.structuredContent : r));
    },
  }[t.name];
  for (const [key, value] of [['description', t.description ?? null], ['inputSchema', t.inputSchema], ['outputSchema', t.outputSchema]]) {
    if (value !== undefined) Object.defineProperty(fn, key, { __proto__: null, value, enumerable: false });
  }
  return fn;
}

function tools() {
  const cat = catalog();
  if (bindings !== undefined) return bindings;
  const out = { __proto__: null };
  for (const s of cat.servers) {
    const perServer = { __proto__: null };
    for (const t of s.tools) perServer[t.name] = binding(s.name, t);
    out[s.name] = Object.freeze(perServer);
  }
  bindings = Object.freeze(out);
  return bindings;
}

const mcp = {};
Object.defineProperties(mcp, {
  callTool: { value: callTool, enumerable: true },
  listTools: { value: listTools, enumerable: true },
  servers: { get: serverNames, enumerable: true },
  tools: { get: tools, enumerable: true },
  [Symbol.toStringTag]: { value: 'mcp' },
});
Object.freeze(mcp);

export const globals = { mcp, McpToolError };
export const modules = {};
