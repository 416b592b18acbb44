// Query parameters of GET /api/executions/{id}/output: one table drives parsing and the OpenAPI
// parameters. REST lines are 0-based. Byte mode is used when `byte_offset` is given (it wins
// over line parameters); each mode ignores the other mode's parameters. Limits above their
// maximum are capped (the page's cursors show what was returned). Limits start at 1: a zero limit
// would return an empty page with has_more true and unchanged cursors, so a client paging until
// has_more is false would never finish.
import type { PageRequest } from '../executions/output-log.ts';
import type { ParameterDoc } from './route-types.ts';
import { RunjsError } from '../../shared/errors.ts';
import { parseNonNegativeInt, singleValues } from './query-params.ts';

export const MAX_LINE_LIMIT = 10_000;
export const MAX_BYTE_LIMIT = 1024 * 1024;

const PARAMS = {
  line_offset: { default: 0, min: 0, description: 'First line to return, 0-based (line mode).' },
  line_limit: { default: 100, min: 1, max: MAX_LINE_LIMIT, description: `Lines to return (line mode); at most ${MAX_LINE_LIMIT}, larger values are capped.` },
  byte_offset: { default: undefined, min: 0, description: 'First byte to return, 0-based; giving it selects byte mode. A window never splits a UTF-8 character: start moves forward and end back to character boundaries.' },
  byte_limit: { default: 4096, min: 1, max: MAX_BYTE_LIMIT, description: `Bytes to return (byte mode); at most ${MAX_BYTE_LIMIT}, larger values are capped.` },
} as const satisfies Record<string, { default: number | undefined; min: number; max?: number; description: string }>;

const NAMES = Object.keys(PARAMS) as (keyof typeof PARAMS)[];

export const OUTPUT_QUERY_PARAMETERS: readonly ParameterDoc[] = NAMES.map((name) => {
  const p: { default: number | undefined; min: number; description: string } = PARAMS[name];
  return {
    name,
    in: 'query',
    description: p.description,
    schema: { type: 'integer', format: 'int64', minimum: p.min, ...(p.default === undefined ? {} : { default: p.default }) },
  };
});

export function parseOutputQuery(query: URLSearchParams): PageRequest {
  const values = singleValues(query, NAMES);
  const int = (name: keyof typeof PARAMS): number | undefined => {
    const raw = values.get(name);
    if (raw === undefined) return undefined;
    const n = parseNonNegativeInt(name, raw);
    if (n < PARAMS[name].min) throw new RunjsError('QUERY_PARAMETER_TOO_SMALL', name, PARAMS[name].min, raw);
    return n;
  };
  // Parse all four, so a malformed parameter is reported even in the mode that ignores it.
  const lineOffset = int('line_offset') ?? PARAMS.line_offset.default;
  const lineLimit = Math.min(int('line_limit') ?? PARAMS.line_limit.default, MAX_LINE_LIMIT);
  const byteOffset = int('byte_offset');
  const byteLimit = Math.min(int('byte_limit') ?? PARAMS.byte_limit.default, MAX_BYTE_LIMIT);
  return byteOffset === undefined
    ? { mode: 'line', offset: lineOffset, limit: lineLimit }
    : { mode: 'byte', offset: byteOffset, limit: byteLimit };
}
