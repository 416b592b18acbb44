// Errors a route raises on purpose: a status and the ApiError text. Anything else thrown inside a
// route is an internal error (500, detail logged, never shown to the client).
import { ServiceError } from '../../shared/errors.ts';

export class HttpError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
  }
}

/** Texts of the REST layer's own errors (the service's are in shared/errors.ts). */
export const REST_ERRORS = {
  INTERNAL: 'internal error',
  BODY_TOO_LARGE: (limit: number) => `Request body is larger than the limit of ${limit} bytes (server option --max-request-body)`,
  BODY_INCOMPLETE: 'Request body ended before Content-Length bytes were received',
  BODY_NOT_UTF8: 'Request body is not valid UTF-8: send the script source (or the JSON) encoded as UTF-8',
  BODY_EMPTY: 'Request body is empty: send a JSON ExecRequest such as {"code": "1 + 1"}, or the script source with a Content-Type such as text/plain',
  INVALID_JSON: (detail: string) => `Request body is not valid JSON: ${detail}`,
  INVALID_BODY: (detail: string) => `Invalid ExecRequest: ${detail}`,
  INVALID_QUERY: (detail: string) => `Invalid query: ${detail}`,
  MULTIPART: (type: string) => `Unsupported Content-Type '${type}': send a JSON ExecRequest (application/json) or the script source as the raw body (e.g. text/plain or application/javascript)`,
  CHARSET: (charset: string) => `Unsupported charset '${charset}': the body must be UTF-8`,
  CONTENT_ENCODING: (encoding: string) => `Unsupported Content-Encoding '${encoding}': send the body uncompressed`,
  NOT_AN_INTEGER: (name: string, raw: string) => `query parameter '${name}' must be a non-negative integer, got '${raw}'`,
  REPEATED: (name: string) => `query parameter '${name}' was given more than once`,
  UNKNOWN_QUERY: (name: string, allowed: readonly string[]) => `unknown query parameter '${name}' (allowed: ${allowed.join(', ')})`,
  RAW_ONLY_QUERY: (name: string) => `query parameter '${name}' applies only when the body is raw source; with a JSON body put "${name}" in the JSON object`,
  NOT_FOUND: (method: string, path: string) => `No API route ${method} ${path}`,
  METHOD_NOT_ALLOWED: (method: string, path: string, allowed: readonly string[]) => `Method ${method} is not allowed on ${path} (allowed: ${allowed.join(', ')})`,
  MALFORMED_URL: 'Malformed URL: a path segment is not valid percent-encoded UTF-8',
  UNKNOWN_PLATFORM: (p: string, valid: readonly string[]) => `Unknown platform '${p}'. Valid platforms: ${valid.join(', ')}`,
  CLI_NOT_EMBEDDED: (p: string) => `CLI binary for '${p}' is not embedded in this build`,
} as const;

/** Status and client-facing text for anything thrown by a route; undefined means internal. */
export function publicError(e: unknown): { status: number; message: string } | undefined {
  if (e instanceof HttpError || e instanceof ServiceError) return { status: e.status, message: e.message };
  return undefined;
}
