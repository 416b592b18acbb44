// A JSON request body checked against its schema: read with a byte cap (the route's own, within
// --max-request-body), UTF-8, parsed, validated. The one path every JSON route body takes.
import { validate } from '../../shared/schemas/validator.ts';
import type { SchemaName } from '../../shared/schemas/index.ts';
import { RunjsError } from '../../shared/errors.ts';
import { decodeUtf8, readBody } from './read-body.ts';
import type { RouteContext } from './route-types.ts';

/**
 * `maxBytes`: the route's cap (the smaller of it and --max-request-body applies). `empty`: what a
 * blank body is answered with, when the route names it (otherwise it fails as invalid JSON).
 */
export async function readJsonBody<T>(ctx: RouteContext, schema: SchemaName, maxBytes: number, empty?: () => RunjsError): Promise<T> {
  const text = decodeUtf8(await readBody(ctx.req, Math.min(maxBytes, ctx.deps.maxRequestBody)));
  if (empty !== undefined && text.trim() === '') throw empty();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new RunjsError('INVALID_JSON', e instanceof Error ? e.message : String(e));
  }
  const v = validate<T>(schema, value);
  if (!v.ok) throw new RunjsError('INVALID_BODY', v.message);
  return v.value;
}
