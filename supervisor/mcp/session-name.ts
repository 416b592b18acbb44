// The MCP session name: `X-MCP-Session-Id` on the initialize request (HTTP transports), else
// `--session-id`. It tags executions (`session` in the registry); it is not the transport's
// `Mcp-Session-Id`, which the SDK issues and checks on its own.

export const SESSION_HEADER = 'x-mcp-session-id';
const MAX_LENGTH = 256;

export type SessionNameCheck = { readonly ok: true; readonly value: string | undefined } | { readonly ok: false; readonly error: string };

/** Narrows a header (or flag) value: absent is fine; present must be 1-256 visible characters. */
export function checkSessionName(raw: unknown, what = 'X-MCP-Session-Id'): SessionNameCheck {
  if (raw === undefined) return { ok: true, value: undefined };
  if (typeof raw !== 'string') return { ok: false, error: `${what} must be given once` };
  if (raw.trim() === '') return { ok: false, error: `${what} must not be empty` };
  // ' a' and 'a' would be two sessions that look the same in every listing.
  if (raw.trim() !== raw) return { ok: false, error: `${what} must not begin or end with whitespace` };
  if (raw.length > MAX_LENGTH) return { ok: false, error: `${what} is longer than ${MAX_LENGTH} characters` };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(raw)) return { ok: false, error: `${what} must not contain control characters` };
  return { ok: true, value: raw };
}
