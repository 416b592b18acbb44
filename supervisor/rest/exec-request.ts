// POST /api/exec bodies → a validated ExecRequest. Two forms: a JSON ExecRequest (Content-Type
// application/json, any application/*+json, or none), or the raw script source for any other
// Content-Type, with the optional fields as query parameters. Both forms are checked against the
// same ExecRequest schema, so the rules and the messages are the same.
import type { Request } from 'express';
import type { ExecRequest } from '../executions/execution-types.ts';
import { validate } from '../../shared/schemas/validator.ts';
import { RunjsError } from '../../shared/errors.ts';
import { parseNonNegativeInt, singleValues } from './query-params.ts';
import { decodeUtf8, readBody } from './read-body.ts';

/** The query parameters of the raw form, in documentation order. */
export const RAW_EXEC_QUERY = ['heap', 'session', 'heap_memory_max_mb', 'execution_timeout_secs'] as const;
const INTEGER_QUERY: ReadonlySet<string> = new Set(['heap_memory_max_mb', 'execution_timeout_secs']);

/** The JSON form as it arrives on the wire, once it has passed the schema. */
interface WireExecRequest {
  readonly code: string;
  readonly heap?: string | null;
  readonly fs?: string | null;
  readonly session?: string | null;
  readonly tags?: Readonly<Record<string, string>> | null;
  readonly heap_memory_max_mb?: number | null;
  readonly execution_timeout_secs?: number | null;
}

type BodyForm = 'json' | 'raw';

const UTF8_CHARSETS: ReadonlySet<string> = new Set(['utf-8', 'utf8', 'us-ascii']);

/** Which form a Content-Type selects; unsupported types and charsets are 415. */
export function bodyForm(contentType: string | undefined): BodyForm {
  const [typePart = '', ...paramParts] = (contentType ?? '').split(';');
  const type = typePart.trim().toLowerCase();
  // A form upload would hand us the multipart framing as "source"; say what to send instead.
  if (type.startsWith('multipart/')) throw new RunjsError('UNSUPPORTED_CONTENT_TYPE', type);
  for (const param of paramParts) {
    const [key = '', value = ''] = param.split('=');
    const charset = value.trim().replace(/^"(.*)"$/, '$1').toLowerCase();
    if (key.trim().toLowerCase() === 'charset' && !UTF8_CHARSETS.has(charset)) throw new RunjsError('UNSUPPORTED_CHARSET', charset);
  }
  return type === '' || type === 'application/json' || /^application\/[^/]+\+json$/.test(type) ? 'json' : 'raw';
}

function emptyToNull(v: string | null | undefined): string | null {
  return v === undefined || v === null || v === '' ? null : v;
}

function toExecRequest(b: WireExecRequest): ExecRequest {
  return {
    code: b.code,
    heap: emptyToNull(b.heap),
    fs: emptyToNull(b.fs),
    session: emptyToNull(b.session),
    tags: b.tags ?? null,
    heapMemoryMaxMb: b.heap_memory_max_mb ?? null,
    executionTimeoutSecs: b.execution_timeout_secs ?? null,
  };
}

/** Reads, parses and validates the body of `POST /api/exec`; every failure is a RunjsError. */
export async function readExecRequest(req: Request, query: URLSearchParams, maxBytes: number): Promise<ExecRequest> {
  const encoding = (req.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity') throw new RunjsError('UNSUPPORTED_CONTENT_ENCODING', encoding);
  const form = bodyForm(req.headers['content-type']);

  if (form === 'json') {
    // Query options with a JSON body would be ambiguous (which wins?); refuse rather than ignore.
    const first = query.keys().next();
    if (first.done !== true) throw new RunjsError('QUERY_PARAMETER_RAW_ONLY', first.value);
    const text = decodeUtf8(await readBody(req, maxBytes));
    if (text.trim() === '') throw new RunjsError('EXEC_BODY_EMPTY');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      throw new RunjsError('INVALID_JSON', e instanceof Error ? e.message : String(e));
    }
    const checked = validate<WireExecRequest>('ExecRequest', parsed);
    if (!checked.ok) throw new RunjsError('INVALID_EXEC_REQUEST', checked.message);
    return toExecRequest(checked.value);
  }

  // Raw form: check the query first, so a bad option fails before a large body is read.
  const candidate: Record<string, unknown> = { code: '' };
  for (const [name, raw] of singleValues(query, RAW_EXEC_QUERY)) {
    candidate[name] = INTEGER_QUERY.has(name) ? parseNonNegativeInt(name, raw) : raw;
  }
  const checked = validate<WireExecRequest>('ExecRequest', candidate, 'query parameter');
  if (!checked.ok) throw new RunjsError('INVALID_QUERY', checked.message);
  const code = decodeUtf8(await readBody(req, maxBytes));
  return toExecRequest({ ...checked.value, code });
}
