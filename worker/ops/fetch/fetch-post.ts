// The `fetch` category's post hooks: what they see of a response and what they may change. Only
// when post hooks are configured is a response buffered (within the run's response budget) before
// the script sees it, so a hook can read and rewrite the whole body: the output document is
// `{status, status_text, url, redirected, headers, body}` (`body` the UTF-8 text, or `body_base64`
// when the bytes are not UTF-8). A hook returning `{output}` replaces any of status, status_text,
// headers and the body (`body` text or `body_base64`; `null` empties it); what it leaves out stays.
import { OpError } from '../op-types.ts';
import type { ResponseHead } from './exchange.ts';

export interface FetchOutput {
  readonly status: number;
  readonly status_text: string;
  readonly url: string;
  readonly redirected: boolean;
  /** Lowercased names; repeated headers joined with `, ` (set-cookie never reaches a script). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly body_base64?: string;
}

/** A post-processed response: its head and its whole body. */
export interface FilteredResponse {
  readonly head: ResponseHead;
  readonly body: Uint8Array;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function bodyFields(bytes: Uint8Array): { body: string } | { body_base64: string } {
  try {
    return { body: UTF8.decode(bytes) };
  } catch {
    return { body_base64: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') };
  }
}

export function fetchOutput(head: ResponseHead, body: Uint8Array): FetchOutput {
  const headers: Record<string, string> = {};
  for (const [k, v] of head.headers) {
    const name = k.toLowerCase();
    headers[name] = headers[name] === undefined ? v : `${headers[name]}, ${v}`;
  }
  return { status: head.status, status_text: head.statusText, url: head.url, redirected: head.redirected, headers, ...bodyFields(body) };
}

function failed(detail: string): OpError {
  return new OpError(`fetch policy failed: a post hook ${detail}`, 'Error', 'ERR_POLICY_FAILED');
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// The reason phrase of a status line (RFC 9110): visible characters, spaces and tabs.
const REASON = /^[\t\x20-\x7e\x80-\xff]*$/;

function rewrittenHeaders(v: unknown): [string, string][] {
  if (!isObject(v)) throw failed('rewrote headers to something that is not an object of strings');
  const out: [string, string][] = [];
  for (const [k, value] of Object.entries(v)) {
    if (!TOKEN.test(k) || typeof value !== 'string' || /[\r\n\0]/.test(value)) throw failed(`rewrote header ${JSON.stringify(k)} to an invalid name or value`);
    out.push([k.toLowerCase(), value]);
  }
  return out;
}

function rewrittenBody(r: Record<string, unknown>, original: Uint8Array): Uint8Array {
  if (Object.hasOwn(r, 'body_base64') && r['body_base64'] !== undefined) {
    const b64 = r['body_base64'];
    if (b64 === null) return new Uint8Array(0);
    if (typeof b64 !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) throw failed('rewrote body_base64 to something that is not base64');
    return new Uint8Array(Buffer.from(b64, 'base64'));
  }
  if (Object.hasOwn(r, 'body') && r['body'] !== undefined) {
    const text = r['body'];
    if (text === null) return new Uint8Array(0);
    if (typeof text !== 'string') throw failed('rewrote body to something that is not a string');
    return new TextEncoder().encode(text);
  }
  return original;
}

/** The response a post hook's (possibly rewritten) output describes. */
export function applyOutput(head: ResponseHead, body: Uint8Array, output: unknown, before: FetchOutput): FilteredResponse {
  if (output === before) return { head, body };
  if (!isObject(output)) throw failed('rewrote the output to something that is not an object');
  const status = output['status'] ?? head.status;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599) throw failed(`rewrote status to ${JSON.stringify(status)} (expected an integer 200-599)`);
  const statusText = output['status_text'] ?? head.statusText;
  if (typeof statusText !== 'string' || !REASON.test(statusText)) throw failed('rewrote status_text to an invalid reason phrase');
  let headers = output['headers'] === undefined || output['headers'] === before.headers ? head.headers : rewrittenHeaders(output['headers']);
  // Unchanged text is re-encoded to the same bytes; only a rewritten body gets a new length.
  const changed = output['body'] !== before.body || output['body_base64'] !== before.body_base64;
  const next = changed ? rewrittenBody(output, body) : body;
  if (next !== body) headers = headers.map(([k, v]) => (k.toLowerCase() === 'content-length' ? [k, String(next.byteLength)] : [k, v]));
  return { head: { ...head, status, statusText, headers }, body: next };
}
