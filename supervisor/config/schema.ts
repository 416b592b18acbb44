/**
 * One JSON Schema (draft 2020-12) for the merged, converted settings, generated
 * from the flag table and checked with ajv. It covers types, ranges, enums,
 * item patterns and unknown keys; rules that relate two flags live in
 * conflicts.ts because their messages are fixed texts.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, SchemaObject, ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { SPECS } from './describe-flag.ts';
import type { FlagSpec } from './flag-spec.ts';

function stringSchema(spec: FlagSpec): SchemaObject {
  // A pattern fully describes the accepted strings (stub prefixes may be
  // empty); without one, an empty string is never a meaningful setting.
  return spec.pattern === undefined ? { type: 'string', minLength: 1 } : { type: 'string', pattern: spec.pattern };
}

function bounds(spec: FlagSpec): SchemaObject {
  return {
    ...(spec.min === undefined ? {} : { minimum: spec.min }),
    ...(spec.max === undefined ? {} : { maximum: spec.max }),
  };
}

function propertySchema(spec: FlagSpec): SchemaObject {
  switch (spec.kind) {
    case 'port':
      return { type: 'integer', minimum: 1, maximum: 65535 };
    case 'integer':
    case 'size':
      return { type: 'integer', ...bounds(spec) };
    case 'boolean':
      return { type: 'boolean' };
    case 'enum':
      return { type: 'string', enum: [...(spec.values ?? [])] };
    case 'path':
      return { type: 'string', minLength: 1 };
    case 'url':
      return { type: 'string', format: 'uri', pattern: '^https?://' };
    case 'json-or-path': {
      const shape = spec.jsonShape ?? 'object';
      return { type: shape === 'object-or-array' ? ['object', 'array'] : shape };
    }
    case 'string':
      return stringSchema(spec);
    case 'list':
      return { type: 'array', items: stringSchema(spec) };
  }
}

/** The schema of the settings object keyed by flag name (kebab-case). */
export function configSchema(): SchemaObject {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'runjs configuration',
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(
      SPECS.map((spec) => [spec.name, { description: spec.description, ...propertySchema(spec) }]),
    ),
  };
}

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (compiled === undefined) {
    // validateSchema: false — checking the schema against the 2020-12 meta-schema compiles the
    // meta-schema first (≈ 2/3 of this compile, on every process start); the schema is ours and a
    // unit test (test/unit/config/schema-meta.test.ts) checks it against the meta-schema instead.
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: false, validateSchema: false });
    formats.default(ajv, ['uri']);
    compiled = ajv.compile(configSchema());
  }
  return compiled;
}

/** The first offending setting: the flag, and for a list the index of the bad item. */
export type Violation =
  | { readonly kind: 'value'; readonly flag: string; readonly index?: number }
  | { readonly kind: 'unknown'; readonly flag: string };

export function findViolation(settings: Readonly<Record<string, unknown>>): Violation | undefined {
  const validate = validator();
  if (validate(settings)) return undefined;
  const error: ErrorObject | undefined = validate.errors?.[0];
  if (error === undefined) return undefined;
  if (error.keyword === 'additionalProperties') {
    return { kind: 'unknown', flag: String((error.params as { additionalProperty: unknown }).additionalProperty) };
  }
  // instancePath is `/flag` or `/flag/<index>`; flag names contain no `/` or `~`.
  const [, flag = '', index] = error.instancePath.split('/');
  return index === undefined ? { kind: 'value', flag } : { kind: 'value', flag, index: Number(index) };
}
