// The OpenAPI document: the committed openapi.json is what the code generates (regenerate with
// `node scripts/gen-openapi.ts`), every route is documented, every reference resolves, and the
// component schemas are the very objects the request validator uses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { API_ROUTES, buildOpenApiDocument, OPENAPI_PATH, openApiJson, packageVersion } from '../../../supervisor/rest/index.ts';
import { SCHEMAS, type SchemaName } from '../../../shared/schemas/index.ts';
import { validatorFor } from '../../../shared/schemas/validator.ts';

interface Operation {
  operationId: string;
  security?: unknown[];
  parameters?: { name: string; in: string; schema: unknown }[];
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
}
interface Doc {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

const doc = buildOpenApiDocument('1.2.3') as unknown as Doc;

test('openapi.json at the repository root is up to date', () => {
  const committed = readFileSync(new URL('../../../openapi.json', import.meta.url), 'utf8');
  assert.ok(committed === openApiJson(packageVersion()), 'openapi.json is stale: run `node scripts/gen-openapi.ts` and commit the result');
});

test('every /api route and the document route are documented, with unique operation ids', () => {
  assert.equal(doc.openapi, '3.1.0');
  assert.equal(doc.info.version, '1.2.3');
  const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
  assert.deepEqual(documented, [
    'POST /api/exec',
    'GET /api/executions',
    'GET /api/executions/{id}',
    'POST /api/executions/{id}/cancel',
    'GET /api/executions/{id}/output',
    'GET /api/executions/{id}/decisions',
    'GET /api/artifacts',
    'GET /api/artifacts/{key}',
    'PUT /api/artifacts/{key}',
    'DELETE /api/artifacts/{key}',
    'PUT /api/artifact-uploads/{token}',
    'GET /api/heaps/{heap}/tags',
    'PUT /api/heaps/{heap}/tags',
    'DELETE /api/heaps/{heap}/tags',
    'POST /api/heaps/query',
    'GET /api/sessions',
    'GET /api/sessions/{session}/snapshots', 'GET /api/sessions/{session}/dir/{path}', 'GET /api/sessions/{session}/entries/{path}', 'GET /api/sessions/{session}/files/{path}', 'PUT /api/sessions/{session}/files/{path}', 'DELETE /api/sessions/{session}/files/{path}', 'POST /api/sessions/{session}/fs',
    'GET /api/fs/labels',
    'POST /api/fs/labels',
    'GET /api/fs/labels/{label}',
    'GET /api/fs/labels/{label}/log',
    'POST /api/fs/push',
    'POST /api/fs/reset',
    'POST /api/fs/merge',
    'POST /api/fs/gc',
    'GET /api/capabilities',
    'GET /api/version',
    'GET /api/mcp-servers/types.d.ts',
    'GET /api/cli',
    'GET /api/cli/{platform}',
    `GET ${OPENAPI_PATH}`,
  ]);
  assert.equal(API_ROUTES.length, documented.length - 1);
  const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((o) => o.operationId));
  assert.equal(new Set(ids).size, ids.length);
  assert.deepEqual(doc.paths[OPENAPI_PATH]!['get']!.security, [], 'the document itself is public');
  assert.deepEqual(doc.paths['/api/artifact-uploads/{token}']!['put']!.security, [], 'the upload token is its own credential');
});

test('every status code a route can answer is listed, with the common 401/403/500', () => {
  const statuses = Object.fromEntries(Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([m, op]) => [`${m.toUpperCase()} ${path}`, Object.keys(op.responses).join(' ')])));
  assert.deepEqual(statuses, {
    'POST /api/exec': '202 400 401 403 413 415 500 503',
    'GET /api/executions': '200 401 403 500',
    'GET /api/executions/{id}': '200 400 401 403 404 500',
    'POST /api/executions/{id}/cancel': '200 400 401 403 404 500',
    'GET /api/executions/{id}/output': '200 400 401 403 404 500',
    'GET /api/executions/{id}/decisions': '200 401 403 404 500',
    'GET /api/artifacts': '200 401 403 500',
    'GET /api/artifacts/{key}': '200 401 403 404 500',
    'PUT /api/artifacts/{key}': '200 400 401 403 500',
    'DELETE /api/artifacts/{key}': '200 401 403 404 500',
    'PUT /api/artifact-uploads/{token}': '200 400 403 404 413 500',
    'GET /api/heaps/{heap}/tags': '200 400 401 403 500',
    'PUT /api/heaps/{heap}/tags': '200 400 401 403 500',
    'DELETE /api/heaps/{heap}/tags': '200 400 401 403 500',
    'POST /api/heaps/query': '200 400 401 403 500',
    'GET /api/sessions': '200 400 401 403 500',
    'GET /api/sessions/{session}/snapshots': '200 400 401 403 500', 'GET /api/sessions/{session}/dir/{path}': '200 400 401 403 404 500', 'GET /api/sessions/{session}/entries/{path}': '200 400 401 403 404 500', 'GET /api/sessions/{session}/files/{path}': '200 400 401 403 404 500', 'PUT /api/sessions/{session}/files/{path}': '204 400 401 403 500', 'DELETE /api/sessions/{session}/files/{path}': '204 400 401 403 404 500', 'POST /api/sessions/{session}/fs': '200 400 401 403 404 500',
    'GET /api/fs/labels': '200 400 401 403 500',
    'POST /api/fs/labels': '200 400 401 403 500',
    'GET /api/fs/labels/{label}': '200 400 401 403 404 500',
    'GET /api/fs/labels/{label}/log': '200 400 401 403 500',
    'POST /api/fs/push': '200 400 401 403 409 500',
    'POST /api/fs/reset': '200 400 401 403 500',
    'POST /api/fs/merge': '200 400 401 403 500',
    'POST /api/fs/gc': '200 400 401 403 500',
    'GET /api/capabilities': '200 401 403 500',
    'GET /api/version': '200 401 403 500',
    'GET /api/mcp-servers/types.d.ts': '200 401 403 500',
    'GET /api/cli': '200 401 403 500',
    'GET /api/cli/{platform}': '200 401 403 404 500',
    // Public: neither the Host/Origin guard nor JWT enforcement applies to the document.
    [`GET ${OPENAPI_PATH}`]: '200',
  });
  const cancel400 = doc.paths['/api/executions/{id}/cancel']!['post']!.responses['400']!.content!['application/json']!.schema;
  assert.deepEqual(cancel400, { $ref: '#/components/schemas/CancelResult' });
  const output = doc.paths['/api/executions/{id}/output']!['get']!.parameters!.map((p) => `${p.in}:${p.name}`);
  assert.deepEqual(output, ['path:id', 'query:line_offset', 'query:line_limit', 'query:byte_offset', 'query:byte_limit']);
  const minimums = doc.paths['/api/executions/{id}/output']!['get']!.parameters!.map((p) => (p.schema as { minimum?: number }).minimum);
  assert.deepEqual(minimums, [undefined, 0, 1, 0, 1], 'limits start at 1');
  const exec = doc.paths['/api/exec']!['post']!.parameters!;
  assert.deepEqual(exec.map((p) => p.name), ['heap', 'session', 'heap_memory_max_mb', 'execution_timeout_secs']);
  assert.deepEqual(exec[3]!.schema, { type: 'integer', format: 'int64', minimum: 1, maximum: 300 });
});

test('every $ref resolves to a component schema, and every component compiles in the validator', () => {
  const refs: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === '$ref') refs.push(String(x));
        else walk(x);
      }
    }
  };
  walk(doc);
  assert.ok(refs.length > 20);
  for (const r of refs) {
    assert.match(r, /^#\/components\/schemas\/[A-Za-z]+$/);
    assert.ok(r.split('/').pop()! in doc.components.schemas, r);
  }
  for (const name of Object.keys(SCHEMAS) as SchemaName[]) {
    assert.equal(doc.components.schemas[name], SCHEMAS[name], `${name} is not the validator's own object`);
    assert.equal(typeof validatorFor(name), 'function');
  }
});
