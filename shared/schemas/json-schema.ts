// Plain JSON Schema (draft 2020-12) values. They are written once and used verbatim in two places:
// ajv validates requests (and tests validate responses) with them, and the OpenAPI 3.1 document
// embeds them under components/schemas. So every `$ref` points at `#/components/schemas/<Name>`,
// which resolves in both (the validator registers them under a document with that layout).

export type JsonSchema = { readonly [keyword: string]: unknown };

export const COMPONENT_REF_PREFIX = '#/components/schemas/';

/** A reference to another component schema by name. */
export function ref(name: string, description?: string): JsonSchema {
  // 2020-12 (and so OpenAPI 3.1) allows siblings next to $ref; ajv honours them too.
  return description === undefined ? { $ref: COMPONENT_REF_PREFIX + name } : { $ref: COMPONENT_REF_PREFIX + name, description };
}

/** The schema of a query parameter taken from a body property: the same rules without `null`. */
export function withoutNull(schema: JsonSchema): JsonSchema {
  const type = schema['type'];
  if (!Array.isArray(type)) return schema;
  const rest = type.filter((t) => t !== 'null');
  return { ...schema, type: rest.length === 1 ? rest[0] : rest };
}
