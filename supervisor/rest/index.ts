// The REST surface, for the server assembly: mount createRestRouter(deps) at API_PREFIX, and
// serve openApiJson(version) at OPENAPI_PATH (also what --print-openapi prints).
export { createRestRouter } from './rest-router.ts';
export { buildOpenApiDocument, openApiJson, OPENAPI_PATH, type OpenApiDocument } from './openapi.ts';
export { API_PREFIX, API_ROUTES } from './route-table.ts';
export { packageVersion } from './package-version.ts';
export { MAX_BYTE_LIMIT, MAX_LINE_LIMIT } from './output-query.ts';
export type { RestDeps, ExecutionsApi } from './route-types.ts';
export type { Capabilities, CliAsset, CliIndex } from './resource-types.ts';
