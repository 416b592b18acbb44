// Upstream MCP servers: what the rest of the supervisor and the tests import.
export { UpstreamHub } from './upstream-hub.ts';
export { upstreamOpRoutes } from './upstream-op-routes.ts';
export { typesDts } from './types-dts.ts';
export { openUpstreams, type UpstreamSurface, type Upstreams, type UpstreamLog } from './open-upstreams.ts';
