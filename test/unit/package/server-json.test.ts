// server.json against the MCP registry's rules (schema 2025-12-11 and the official registry's
// extra checks), without publishing: the name's reverse-DNS shape, the field limits, one npm
// package on the official npm registry with a pinned version and the stdio transport, and the
// ties to package.json the registry verifies (`mcpName`, versions). The name's namespace is a
// placeholder for the publisher's GitHub account (docs/operations.md, "Publishing").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (file: string): Record<string, unknown> => JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Record<string, unknown>;

/** The registry's constraints on the fields runjs uses (its published schema, restated). */
const SERVER_SCHEMA = {
  type: 'object',
  required: ['$schema', 'name', 'description', 'version', 'packages'],
  additionalProperties: false,
  properties: {
    $schema: { const: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json' },
    name: { type: 'string', minLength: 3, maxLength: 200, pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$' },
    description: { type: 'string', minLength: 1, maxLength: 100 },
    // A specific version: ranges and `latest` are refused.
    version: { type: 'string', maxLength: 255, pattern: '^\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?$' },
    packages: {
      type: 'array', minItems: 1, maxItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['registryType', 'registryBaseUrl', 'identifier', 'version', 'transport'],
        properties: {
          registryType: { const: 'npm' },
          // The official registry accepts npm packages from this base URL only.
          registryBaseUrl: { const: 'https://registry.npmjs.org' },
          identifier: { type: 'string', pattern: '^(@[a-z0-9-~][a-z0-9-._~]*/)?[a-z0-9-~][a-z0-9-._~]*$' },
          version: { type: 'string', minLength: 1, not: { const: 'latest' }, pattern: '^\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?$' },
          runtimeHint: { const: 'npx' },
          transport: { type: 'object', required: ['type'], additionalProperties: false, properties: { type: { const: 'stdio' } } },
        },
      },
    },
  },
} as const;

test('server.json has the registry shape for one npm package over stdio', () => {
  const ajv = new Ajv({ allErrors: true, strict: true });
  addFormats.default(ajv);
  const validate = ajv.compile(SERVER_SCHEMA);
  const server = read('server.json');
  assert.equal(validate(server), true, JSON.stringify(validate.errors));
  // The validator refuses what the registry refuses (so the test above can fail).
  assert.equal(validate({ ...server, name: 'runjs-mcp' }), false, 'a name without a namespace');
  assert.equal(validate({ ...server, packages: [{ ...(server['packages'] as object[])[0], version: 'latest' }] }), false, 'an unpinned package version');
  assert.equal(validate({ ...server, description: 'x'.repeat(101) }), false, 'a description over 100 characters');
});

test('server.json and package.json name the same server and version (what the registry verifies on npm)', () => {
  const server = read('server.json');
  const pkg = read('package.json');
  const [entry] = server['packages'] as { identifier: string; version: string }[];
  assert.deepEqual([server['name'], server['version'], entry!.identifier, entry!.version], [pkg['mcpName'], pkg['version'], pkg['name'], pkg['version']]);
  // The namespace is a GitHub account's (io.github.<account>): the publisher must log in as it.
  assert.match(String(server['name']), /^io\.github\.[A-Za-z0-9-]+\/runjs-mcp$/);
});
