// Every configured upstream MCP server, one shared client each (upstream-server.ts), and the
// catalogue of their tools that runs receive (shared/mcp-catalog.ts): rebuilt when a server
// connects, drops or changes its tools, serialized once per change.
import { MAX_MCP_CATALOG_BYTES, serverList, type McpCatalog, type McpCatalogServer } from '../../shared/mcp-catalog.ts';
import { RunjsError } from '../../shared/errors.ts';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { UpstreamConfig } from './upstream-config.ts';
import { DEFAULT_UPSTREAM_TIMINGS, UpstreamServer, type UpstreamTimings } from './upstream-server.ts';

export interface UpstreamHubOptions {
  readonly version: string;
  readonly log: { info(line: string): void; warn(line: string): void };
  readonly timings?: Partial<UpstreamTimings>;
}

export class UpstreamHub {
  readonly #servers: ReadonlyMap<string, UpstreamServer>;
  #version = 1;
  #catalog: { readonly value: McpCatalog; readonly json: string } | undefined;

  constructor(configs: readonly UpstreamConfig[], opts: UpstreamHubOptions) {
    const timings = { ...DEFAULT_UPSTREAM_TIMINGS, ...opts.timings };
    const onChange = (): void => { this.#version++; this.#catalog = undefined; };
    this.#servers = new Map(configs.map((c) => [c.name, new UpstreamServer(c, { version: opts.version, timings, log: opts.log, onChange })]));
  }

  get names(): readonly string[] {
    return [...this.#servers.keys()];
  }

  get configured(): boolean {
    return this.#servers.size > 0;
  }

  /** Connects every server; resolves when each first attempt has connected or failed (failures retry in the background). */
  async start(): Promise<void> {
    await Promise.all([...this.#servers.values()].map((s) => s.start()));
  }

  server(name: string): UpstreamServer | undefined {
    return this.#servers.get(name);
  }

  /** Calls `server`'s `tool` (RunjsError MCP_SERVER_NOT_FOUND, MCP_SERVER_UNAVAILABLE or MCP_CALL_FAILED when it cannot). */
  callTool(server: string, tool: string, args: Record<string, unknown> | undefined, signal?: AbortSignal): Promise<CallToolResult> {
    const s = this.#servers.get(server);
    if (s === undefined) return Promise.reject(new RunjsError('MCP_SERVER_NOT_FOUND', server, serverList(this.names)));
    return s.callTool(tool, args, signal);
  }

  /** The current catalogue, within MAX_MCP_CATALOG_BYTES (tools beyond it are left out, and `truncated` says so). */
  catalog(): McpCatalog {
    return this.#current().value;
  }

  /** The catalogue's JSON, as sent with each run (serialized once per change). */
  catalogJson(): string {
    return this.#current().json;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#servers.values()].map((s) => s.close()));
  }

  #current(): { readonly value: McpCatalog; readonly json: string } {
    if (this.#catalog !== undefined) return this.#catalog;
    const servers: McpCatalogServer[] = [...this.#servers.values()].map((s) => ({ name: s.name, connected: s.connected, tools: s.tools }));
    let value: McpCatalog = { version: this.#version, servers };
    let json = JSON.stringify(value);
    if (Buffer.byteLength(json) > MAX_MCP_CATALOG_BYTES) {
      // Keep whole tools, server by server, while they fit; a script can still call the rest by name.
      let budget = MAX_MCP_CATALOG_BYTES - Buffer.byteLength(JSON.stringify({ version: this.#version, servers: servers.map((s) => ({ ...s, tools: [] })), truncated: true }));
      const kept = servers.map((s) => ({
        ...s,
        tools: s.tools.filter((t) => {
          const size = Buffer.byteLength(JSON.stringify(t)) + 1;
          if (size > budget) return false;
          budget -= size;
          return true;
        }),
      }));
      value = { version: this.#version, servers: kept, truncated: true };
      json = JSON.stringify(value);
    }
    this.#catalog = { value, json };
    return this.#catalog;
  }
}
