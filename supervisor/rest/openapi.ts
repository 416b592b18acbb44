// The OpenAPI 3.1 document of /api/*, built from the route table and the shared component
// schemas (the same objects ajv validates requests with). Served at OPENAPI_PATH, printed by
// --print-openapi, and committed as openapi.json (scripts/gen-openapi.ts; a test checks it).
import { SCHEMAS } from '../../shared/schemas/index.ts';
import { ref, type JsonSchema } from '../../shared/schemas/json-schema.ts';
import { API_ROUTES, API_TAGS } from './route-table.ts';
import type { ResponseDoc, RouteSpec } from './route-types.ts';

export const OPENAPI_PATH = '/api-doc/openapi.json';

export type OpenApiDocument = Readonly<Record<string, unknown>>;

type Responses = Record<string, unknown>;

function response(doc: ResponseDoc): Readonly<Record<string, unknown>> {
  return 'mediaType' in doc
    ? { description: doc.description, content: { [doc.mediaType]: { schema: doc.schema } } }
    : { description: doc.description, content: { 'application/json': { schema: ref(doc.schema) } } };
}

const apiError = (description: string): ResponseDoc => ({ description, schema: 'ApiError' });

/** Responses any /api route can give, whatever the route does. */
const COMMON_RESPONSES: Readonly<Record<number, ResponseDoc>> = {
  401: apiError('JWT enforcement is on (`--jwks-url`) and the token is missing, invalid or expired.'),
  403: apiError('The Host header is not in `--allowed-hosts`, or the Origin is not in a non-empty `--allowed-origins`.'),
  500: apiError('Internal error: `{"error": "internal error"}` (the detail is logged by the server).'),
};

function operation(route: RouteSpec): Readonly<Record<string, unknown>> {
  const responses: Responses = {};
  const all: Record<number, ResponseDoc> = { ...COMMON_RESPONSES, ...route.responses };
  if (route.noBearerAuth === true) delete all[401];
  for (const status of Object.keys(all).map(Number).sort((a, b) => a - b)) responses[String(status)] = response(all[status]!);
  return {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    ...(route.description === undefined ? {} : { description: route.description }),
    ...(route.parameters === undefined || route.parameters.length === 0 ? {} : { parameters: route.parameters }),
    ...(route.requestBody === undefined ? {} : { requestBody: route.requestBody }),
    ...(route.noBearerAuth === true ? { security: [] } : {}),
    responses,
  };
}

/** The document itself is public: neither JWT enforcement nor the Host/Origin guard applies to it
 * (http-app.ts isPublic), so it has no 401 or 403. */
const OPENAPI_OPERATION = {
  operationId: 'getOpenApiDocument',
  tags: ['meta'],
  summary: 'This OpenAPI document',
  security: [],
  responses: {
    '200': { description: 'The OpenAPI 3.1 description of /api/*.', content: { 'application/json': { schema: { type: 'object' } } } },
  },
};

export function buildOpenApiDocument(version: string): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of API_ROUTES) (paths[route.path] ??= {})[route.method] = operation(route);
  paths[OPENAPI_PATH] = { get: OPENAPI_OPERATION };
  return {
    openapi: '3.1.0',
    info: {
      title: 'runjs REST API',
      version,
      description: 'Sandboxed JavaScript/TypeScript execution for AI agents. Every error body is `{"error": "..."}`. '
        + 'Lines and bytes of output are 0-based, page ends exclusive. See docs/api.md.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    // Relative: resolved against wherever the document was fetched from (this server).
    servers: [{ url: '/', description: 'The server this document was fetched from.' }],
    tags: API_TAGS,
    // Anonymous unless the server runs with --jwks-url; then one of the two token forms.
    security: [{}, { bearerAuth: [] }, { agentSession: [] }],
    paths,
    components: {
      schemas: SCHEMAS as Readonly<Record<string, JsonSchema>>,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: '`Authorization: Bearer <jwt>`; wins over agent-session.' },
        agentSession: { type: 'apiKey', in: 'header', name: 'agent-session', description: 'The raw JWT, no prefix.' },
      },
    },
  };
}

/** The document as committed in openapi.json and served: 2-space JSON and a final newline. */
export function openApiJson(version: string): string {
  return `${JSON.stringify(buildOpenApiDocument(version), null, 2)}\n`;
}
