// The configuration schema and the REST component schemas are compiled at runtime without ajv's
// meta-schema check (validateSchema: false: it compiled the 2020-12 meta-schema in every process).
// This test is that check, once, against the same meta-schema.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { configSchema } from '../../../supervisor/config/schema.ts';
import { SCHEMAS } from '../../../shared/schemas/index.ts';

const ajv = new Ajv2020({ strict: false, allErrors: true });

function metaCheck(schema: unknown): string {
  const valid = ajv.validateSchema(schema as object);
  return valid === true ? 'valid' : ajv.errorsText(ajv.errors);
}

test('the configuration schema is a valid JSON Schema 2020-12 document', () => {
  assert.equal(metaCheck(configSchema()), 'valid');
});

test('every REST component schema is a valid JSON Schema 2020-12 document', () => {
  const invalid = Object.entries(SCHEMAS).map(([name, schema]) => [name, metaCheck(schema)]).filter(([, verdict]) => verdict !== 'valid');
  assert.deepEqual(invalid, []);
  assert.ok(Object.keys(SCHEMAS).length > 20, 'the REST schemas were found');
});

test('the check catches what the runtime no longer does', () => {
  assert.equal(metaCheck({ type: 'strnig' }), 'data/type must be equal to one of the allowed values, data/type must be array, data/type must match a schema in anyOf');
  assert.equal(metaCheck({ properties: { a: { minLength: -1 } } }), 'data/properties/a/minLength must be >= 0');
});
