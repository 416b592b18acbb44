// Routes about the server itself (interface spec: "REST: server and CLI").
import { CLI_PLATFORMS, type CliPlatform } from '../../shared/schemas/index.ts';
import { ref } from '../../shared/schemas/json-schema.ts';
import { baseUrl } from './base-url.ts';
import { RunjsError } from '../../shared/errors.ts';
import type { CliIndex } from './resource-types.ts';
import type { RouteContext, RouteSpec } from './route-types.ts';
import { typesDts } from '../upstream-mcp/types-dts.ts';

const TAG = 'server';

function isPlatform(p: string): p is CliPlatform {
  return (CLI_PLATFORMS as readonly string[]).includes(p);
}

function embedded(ctx: RouteContext, platform: CliPlatform): Uint8Array | undefined {
  const bytes = ctx.deps.cliBinary?.(platform);
  return bytes !== undefined && bytes.length > 0 ? bytes : undefined;
}

function cliIndex(ctx: RouteContext): CliIndex {
  // req.baseUrl is where the router is mounted (/api), so the URLs follow the mount point.
  const base = `${baseUrl(ctx.req, ctx.deps.publicBaseUrl)}${ctx.req.baseUrl}/cli/`;
  return {
    version: ctx.deps.version,
    assets: CLI_PLATFORMS.map((platform) => ({ platform, url: base + platform, available: embedded(ctx, platform) !== undefined })),
  };
}

export const SERVER_ROUTES: readonly RouteSpec[] = [
  {
    method: 'get',
    path: '/api/capabilities',
    operationId: 'getCapabilities',
    tag: TAG,
    summary: 'Which optional stores are configured',
    responses: { 200: { description: 'The capabilities.', schema: 'Capabilities' } },
    handle: (ctx) => ({ status: 200, json: ctx.deps.capabilities() }),
  },
  {
    method: 'get',
    path: '/api/version',
    operationId: 'getVersion',
    tag: TAG,
    summary: 'The running server version',
    responses: { 200: { description: '`{"version": "<package.json version>"}`.', schema: 'Version' } },
    handle: (ctx) => ({ status: 200, json: { version: ctx.deps.version } }),
  },
  {
    method: 'get',
    path: '/api/mcp-servers/types.d.ts',
    operationId: 'getMcpTypes',
    tag: TAG,
    summary: 'TypeScript declarations of the `mcp` global',
    description: 'The `mcp` global scripts use to call upstream MCP servers, typed from their tools as runjs holds them now: `mcp.callTool`, `mcp.listTools`, `mcp.servers` and the typed bindings `mcp.tools.<server>.<tool>(args)` (docs/mcp-servers.md). With no server configured, the declarations of an empty `mcp`.',
    responses: { 200: { description: 'The declarations.', mediaType: 'application/typescript', schema: { type: 'string' } } },
    handle: (ctx) => ({
      status: 200,
      bytes: new Uint8Array(Buffer.from(ctx.deps.upstream?.typesDts() ?? typesDts({ version: 0, servers: [] }), 'utf8')),
      contentType: 'application/typescript; charset=utf-8',
    }),
  },
  {
    method: 'get',
    path: '/api/cli',
    operationId: 'getCliIndex',
    tag: TAG,
    summary: 'Index of the CLI binaries this server offers',
    description: 'All three platforms, each with its absolute download URL on this server (from `--public-url`, else the request Host) and whether the binary is embedded.',
    responses: { 200: { description: 'The index.', schema: 'CliIndex' } },
    handle: (ctx) => ({ status: 200, json: cliIndex(ctx) }),
  },
  {
    method: 'get',
    path: '/api/cli/{platform}',
    operationId: 'downloadCli',
    tag: TAG,
    summary: 'Download the CLI binary for a platform',
    parameters: [{ name: 'platform', in: 'path', required: true, description: `One of ${CLI_PLATFORMS.join(', ')}.`, schema: ref('CliPlatformName') }],
    responses: {
      200: { description: 'The binary.', mediaType: 'application/octet-stream', schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
      404: { description: "Unknown platform (`Unknown platform '<p>'. Valid platforms: linux-x86_64, linux-aarch64, macos-aarch64`) or binary not embedded (`CLI binary for '<p>' is not embedded in this build`).", schema: 'ApiError' },
    },
    handle(ctx) {
      const platform = ctx.params['platform'] ?? '';
      if (!isPlatform(platform)) throw new RunjsError('UNKNOWN_PLATFORM', platform, CLI_PLATFORMS);
      const bytes = embedded(ctx, platform);
      if (bytes === undefined) throw new RunjsError('CLI_NOT_EMBEDDED', platform);
      return {
        status: 200,
        bytes,
        contentType: 'application/octet-stream',
        headers: { 'Content-Disposition': `attachment; filename="runjs-cli-${platform}"` },
      };
    },
  },
];
