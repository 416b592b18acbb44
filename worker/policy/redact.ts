// Secrets never reach the decision log: values under secret-looking keys (authorization, cookies,
// tokens, the header names injection rules set), secret query parameters and URL passwords, and
// any string the run registered as a secret (an injected header value, an acquired token) are
// replaced before an input document is summarised. Header injection feeds `addKey` (its rule
// names, once per worker) and `addValue` (the values it injects, per run).

export const REDACTED = '[redacted]';

/** Key names whose values are always secret (compared lowercased). */
const SECRET_KEYS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
/** Key names that look like credentials. */
const SECRET_KEY_PATTERN = /token|secret|password|passwd|api[-_]?key|credential|session[-_]?id/i;
/** `?access_token=…`, `&api_key=…` in URLs, and `token=…` at the start of a bare query string (url_parsed.query). */
const SECRET_PARAM = /((?:^|[?&#;])(?:[^=&#;\s]*(?:token|secret|password|passwd|api[-_]?key|signature|sig)[^=&#;\s]*)=)[^&#;\s]*/gi;
/** `scheme://user:password@host`. */
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@]*:)[^\s/@]*@/gi;

/** Secret values shorter than this are not searched for (they would redact ordinary text). */
const MIN_SECRET_CHARS = 6;

export class Redactor {
  readonly #keys: Set<string>;
  readonly #values = new Set<string>();

  constructor(keys: Iterable<string> = [], parent?: Redactor) {
    this.#keys = new Set([...keys].map((k) => k.toLowerCase()));
    if (parent !== undefined) {
      for (const k of parent.#keys) this.#keys.add(k);
      for (const v of parent.#values) this.#values.add(v);
    }
  }

  /** Values under this key name (any case, anywhere in a document) are redacted. */
  addKey(name: string): void {
    this.#keys.add(name.toLowerCase());
  }

  /** This exact text is redacted wherever it appears in a string. */
  addValue(secret: string): void {
    if (secret.length >= MIN_SECRET_CHARS) this.#values.add(secret);
  }

  isSecretKey(key: string): boolean {
    const k = key.toLowerCase();
    return SECRET_KEYS.has(k) || this.#keys.has(k) || SECRET_KEY_PATTERN.test(k);
  }

  redactString(s: string): string {
    let out = s.replace(SECRET_PARAM, `$1${REDACTED}`).replace(URL_PASSWORD, `$1${REDACTED}@`);
    for (const v of this.#values) if (out.includes(v)) out = out.replaceAll(v, REDACTED);
    return out;
  }

  /** A redacted copy of a JSON-like document. */
  redact(value: unknown, depth = 0): unknown {
    if (typeof value === 'string') return this.redactString(value);
    if (typeof value !== 'object' || value === null) return value;
    if (depth > 32) return '[…]';
    if (Array.isArray(value)) return value.map((v) => this.redact(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = this.isSecretKey(k) && v !== null && v !== undefined ? REDACTED : this.redact(v, depth + 1);
    }
    return out;
  }
}

/** Longest string kept in a summary (characters), items per array, depth. */
const SUMMARY_STRING_CHARS = 1024;
const SUMMARY_ARRAY_ITEMS = 32;
const SUMMARY_DEPTH = 6;
/** A summary whose JSON is longer than this is replaced by a cut preview of it. */
export const SUMMARY_MAX_CHARS = 4096;

/** The redacted input as the decision log keeps it: long strings, arrays and deep nesting cut. */
export function summarize(value: unknown, redactor: Redactor): unknown {
  const cut = shrink(redactor.redact(value), 0);
  const json = JSON.stringify(cut) ?? 'null';
  if (json.length <= SUMMARY_MAX_CHARS) return cut;
  return { '[runjs] summary truncated': `${json.slice(0, SUMMARY_MAX_CHARS)}…` };
}

function shrink(value: unknown, depth: number): unknown {
  if (typeof value === 'string') {
    return value.length <= SUMMARY_STRING_CHARS ? value : `${value.slice(0, SUMMARY_STRING_CHARS)}… [${value.length - SUMMARY_STRING_CHARS} more characters]`;
  }
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= SUMMARY_DEPTH) return '[…]';
  if (Array.isArray(value)) {
    const items = value.slice(0, SUMMARY_ARRAY_ITEMS).map((v) => shrink(v, depth + 1));
    if (value.length > SUMMARY_ARRAY_ITEMS) items.push(`[… ${value.length - SUMMARY_ARRAY_ITEMS} more items]`);
    return items;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = shrink(v, depth + 1);
  return out;
}
