// One ajv instance over all component schemas, compiled lazily, once per schema. Requests are
// validated with it; tests validate responses with it. Messages name the offending field.
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { SCHEMAS, type SchemaName } from './index.ts';

const DOCUMENT_ID = 'runjs:api';
let ajv: Ajv2020 | undefined;
const compiled = new Map<SchemaName, ValidateFunction>();

function instance(): Ajv2020 {
  if (ajv === undefined) {
    // validateSchema: false — the meta-schema check compiles the 2020-12 meta-schema in every
    // server at its first request; the schemas are ours and test/unit/config/schema-meta.test.ts
    // checks them against the meta-schema once.
    ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: false, verbose: true, validateSchema: false });
    formats.default(ajv, ['date-time', 'uri', 'int64']);
    // The schemas live where the OpenAPI document puts them, so their `#/components/schemas/…`
    // references resolve unchanged; `components` is only a container, not a keyword.
    ajv.addKeyword('components');
    ajv.addSchema({ $id: DOCUMENT_ID, components: { schemas: SCHEMAS } });
  }
  return ajv;
}

export function validatorFor(name: SchemaName): ValidateFunction {
  let v = compiled.get(name);
  if (v === undefined) {
    v = instance().getSchema(`${DOCUMENT_ID}#/components/schemas/${name}`);
    if (v === undefined) throw new Error(`no schema named ${name}`);
    compiled.set(name, v);
  }
  return v;
}

export type Validation<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

/**
 * Checks `value` against a component schema. `subject` names what a top-level property is called
 * in the message: "field" for a JSON body, "query parameter" when the value was built from a query.
 */
export function validate<T>(name: SchemaName, value: unknown, subject = 'field'): Validation<T> {
  const v = validatorFor(name);
  if (v(value)) return { ok: true, value: value as T };
  return { ok: false, message: describeError(v.errors?.[0], value, subject) };
}

function at(value: unknown, pointer: string): unknown {
  let cur = value;
  for (const part of pointer.split('/').slice(1)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return cur;
}

const ARTICLED: Readonly<Record<string, string>> = {
  object: 'an object', array: 'an array', string: 'a string', integer: 'an integer', number: 'a number', boolean: 'a boolean', null: 'null',
};

/** A value for a message: JSON, shortened (a body can be megabytes). */
function preview(v: unknown): string {
  const text = JSON.stringify(v) ?? 'undefined';
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function describeError(error: ErrorObject | undefined, value: unknown, subject: string): string {
  if (error === undefined) return 'invalid value';
  const path = error.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~')).join('.');
  const params = error.params as Record<string, unknown>;
  const where = path === '' ? 'the body' : `${subject} '${path}'`;
  switch (error.keyword) {
    case 'required':
      return `missing required ${subject} '${[path, String(params['missingProperty'])].filter((p) => p !== '').join('.')}'`;
    case 'additionalProperties': {
      const parent = at(error.parentSchema, '/properties');
      const allowed = parent !== null && typeof parent === 'object' ? Object.keys(parent) : [];
      const name = [path, String(params['additionalProperty'])].filter((p) => p !== '').join('.');
      return `unknown ${subject} '${name}'` + (allowed.length > 0 ? ` (allowed: ${allowed.join(', ')})` : '');
    }
    case 'type': {
      const types = (Array.isArray(params['type']) ? params['type'] : [params['type']]).map((t) => ARTICLED[String(t)] ?? String(t)).join(' or ');
      return `${where} must be ${types}, got ${preview(at(value, error.instancePath))}`;
    }
    default:
      return `${where} ${error.message ?? 'is invalid'}, got ${preview(at(value, error.instancePath))}`;
  }
}
