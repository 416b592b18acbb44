// Runs one conformance case in OPA's test-case shape (v1/test/cases/testdata in OPA's repository):
// modules, data, input, a query, and want_result (the query's solutions as variable bindings) or
// want_error_code / want_error (a substring of the message). Our own cases live in
// test/fixtures/rego/*.json; OPA's are read there, never copied here.
import { RegoError } from '../../../../shared/rego/errors.ts';
import { RegoPolicy } from '../../../../shared/rego/policy.ts';

export interface RegoCase {
  readonly note: string;
  readonly query: string;
  readonly modules?: readonly string[];
  readonly data?: unknown;
  readonly input?: unknown;
  /** The input written as a Rego term (`{"a": {1, 2}}`). */
  readonly input_term?: string;
  readonly want_result?: readonly Record<string, unknown>[];
  readonly want_error_code?: string;
  readonly want_error?: string;
  readonly strict_error?: boolean;
  readonly sort_bindings?: boolean;
}

export interface CaseFile {
  readonly cases: readonly RegoCase[];
}

/** JSON with object keys sorted; `sets` also sorts arrays (a set arrives as an array in either order). */
function canonical(v: unknown, sets: boolean): string {
  if (Array.isArray(v)) {
    const items = v.map((x) => canonical(x, sets));
    return `[${(sets ? items.sort() : items).join(',')}]`;
  }
  if (typeof v === 'object' && v !== null) {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k], sets)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** The solutions as sorted canonical rows (OPA compares the set of solutions). */
const rows = (rs: readonly unknown[], sets: boolean): string => rs.map((r) => canonical(r, sets)).sort().join('\n');

/** undefined when the case passes; otherwise what differed. */
export function runCase(c: RegoCase): string | undefined {
  let got: Record<string, unknown>[];
  try {
    const policy = new RegoPolicy((c.modules ?? []).map((text, i) => ({ file: `module-${i}.rego`, text })), c.data ?? {});
    const input = c.input_term === undefined ? c.input : new RegoPolicy([]).query(`__input := ${c.input_term}`)[0]?.['__input'];
    got = policy.query(c.query, { input, strict: c.strict_error ?? false });
  } catch (e) {
    if (!(e instanceof RegoError)) return `threw ${e instanceof Error ? e.stack : String(e)}`;
    if (c.want_error_code === undefined && c.want_error === undefined) return `unexpected error: ${e.message}`;
    if (c.want_error_code !== undefined && e.code !== c.want_error_code) return `error code ${e.code}, want ${c.want_error_code} (${e.message})`;
    if (c.want_error !== undefined && !e.message.includes(c.want_error)) return `error "${e.message}", want it to contain "${c.want_error}"`;
    return undefined;
  }
  if (c.want_error_code !== undefined || c.want_error !== undefined) return `no error (got ${JSON.stringify(got)}), want ${c.want_error_code ?? ''} ${c.want_error ?? ''}`;
  const want = c.want_result ?? [];
  // Strict on array order, lenient on the order of set elements (YAML/JSON has no sets).
  if (rows(got, false) === rows(want, false) || rows(got, true) === rows(want, true)) return undefined;
  return `got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`;
}
