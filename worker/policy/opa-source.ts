// An OPA-compatible policy server: `POST <base>/v1/data/<policy_path>` with `{"input": …}`. The
// answer's `result` is the source's verdict document (a missing result denies, the reference's
// rule); a non-2xx status, an unreadable answer or no answer within the source's timeout is an
// error that aborts the operation.
import type { OpaSource } from '../../shared/policy-settings.ts';
import { SourceError } from './policy-errors.ts';

/** The largest OPA answer read (a verdict is small; a rewritten input may be larger). */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export function opaEndpoint(source: OpaSource): string {
  const base = new URL(source.url);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return new URL(`v1/data/${source.policyPath}`, base).href;
}

/** The `result` of the query (undefined when the document has none). */
export async function queryOpa(source: OpaSource, input: unknown, signal?: AbortSignal): Promise<unknown> {
  const timeout = AbortSignal.timeout(source.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let res: Response;
  let text: string;
  try {
    res = await fetch(opaEndpoint(source), {
      method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ input }), signal: combined, redirect: 'error',
    });
    if (res.status < 200 || res.status > 299) {
      await res.body?.cancel().catch(() => {});
      throw new SourceError(`OPA returned HTTP ${res.status}`);
    }
    text = await readCapped(res);
  } catch (e) {
    if (e instanceof SourceError) throw e;
    if (timeout.aborted) throw new SourceError(`OPA did not answer within ${source.timeoutMs} ms`);
    if (signal?.aborted) throw new SourceError('the operation was aborted');
    const cause = (e as { cause?: { message?: string } }).cause?.message;
    throw new SourceError(`OPA request failed: ${cause ?? (e instanceof Error ? e.message : String(e))}`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new SourceError('OPA answered with a body that is not JSON');
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new SourceError('OPA answered with JSON that is not an object');
  return (doc as Record<string, unknown>)['result'];
}

async function readCapped(res: Response): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.byteLength;
    if (n > MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => {});
      throw new SourceError(`OPA answered with more than ${MAX_ANSWER_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
