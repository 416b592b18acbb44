// Strict query-string reading: each parameter at most once, only known names, integers written
// as plain decimal digits. `?limit=10abc`, `?limit=-1`, `?limit=1e3` are 400s, not guesses.
import { RunjsError } from '../../shared/errors.ts';

/** The query's parameters by name; a repeated or unlisted name is a 400. */
export function singleValues(query: URLSearchParams, allowed: readonly string[]): Map<string, string> {
  const values = new Map<string, string>();
  for (const [name, value] of query) {
    if (!allowed.includes(name)) throw new RunjsError('QUERY_PARAMETER_UNKNOWN', name, allowed);
    if (values.has(name)) throw new RunjsError('QUERY_PARAMETER_REPEATED', name);
    values.set(name, value);
  }
  return values;
}

export function parseNonNegativeInt(name: string, raw: string): number {
  const n = /^[0-9]{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw new RunjsError('QUERY_PARAMETER_NOT_AN_INTEGER', name, raw);
  return n;
}
