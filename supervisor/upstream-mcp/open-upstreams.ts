// Upstream MCP servers, as the composition root (app.ts) wires them: the hub of clients, the
// delegated-op route scripts reach it by, and what the MCP surface and REST show of it (stubs,
// the typed API as a .d.ts). The hub and the MCP SDK's client load only when a server is
// configured: most servers have none, and the SDK is a large part of a start's CPU.
import type { Config } from '../config/load-config.ts';
import type { OpRoutes } from '../pool/op-router.ts';
import type { McpCatalog } from '../../shared/mcp-catalog.ts';
import type { UpstreamHub } from './upstream-hub.ts';
import { upstreamServersOf } from './upstream-config.ts';
import { upstreamOpRoutes } from './upstream-op-routes.ts';
import { typesDts } from './types-dts.ts';

/** What the MCP surface and REST show of the upstream servers. */
export interface UpstreamSurface {
  /** `--mcp-stubs` with its prefix; undefined when stubs are off. */
  readonly stubPrefix: string | undefined;
  catalog(): McpCatalog;
  /** The TypeScript declarations of the `mcp` global for the current catalogue. */
  typesDts(): string;
}

export interface Upstreams {
  readonly hub: UpstreamHub | undefined;
  readonly routes: OpRoutes;
  /** Undefined when no server is configured (nothing is listed, the REST route still answers). */
  readonly surface: UpstreamSurface | undefined;
  /** Settles when every server's first connection attempt has connected or failed. */
  readonly started: Promise<void>;
}

export interface UpstreamLog {
  info(line: string): void;
  warn(line: string): void;
}

export async function openUpstreams(config: Config, version: string, log: UpstreamLog): Promise<Upstreams> {
  // Checked when the config was loaded (load-config.ts), parsed again here.
  const servers = upstreamServersOf(config.mcpServer, config.mcpConfig);
  if (servers.length === 0) return { hub: undefined, routes: {}, surface: undefined, started: Promise.resolve() };
  for (const s of servers) {
    if (s.transport === 'stdio' && s.ignoredAuth === true) log.warn(`upstream MCP server '${s.name}': 'auth' (oauth_browser) applies to the http transport only; ignored for stdio`);
  }
  const { UpstreamHub } = await import('./upstream-hub.ts');
  const hub = new UpstreamHub(servers, { version, log });
  let dts: { version: number; text: string } | undefined;
  const surface: UpstreamSurface = {
    stubPrefix: config.mcpStubs ? config.mcpStubPrefix : undefined,
    catalog: () => hub.catalog(),
    typesDts: () => {
      const catalog = hub.catalog();
      if (dts?.version !== catalog.version) dts = { version: catalog.version, text: typesDts(catalog) };
      return dts.text;
    },
  };
  return { hub, routes: upstreamOpRoutes(hub), surface, started: hub.start() };
}
