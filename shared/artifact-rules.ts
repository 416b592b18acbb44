// What an artifact key, mime type and payload may be (shared: the worker checks them before
// sending bytes, the supervisor again on every route). Keys are a safe charset with no path
// separators, so a key can never name anything but itself in a URL, a file or an S3 object.

export const MAX_ARTIFACT_BYTES = 16 * 1024 * 1024;
export const MAX_KEY_LENGTH = 128;
export const MAX_MIME_LENGTH = 255;
export const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** RFC 9110 token characters. */
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"(?:[^"\\\\\\x00-\\x08\\x0a-\\x1f\\x7f]|\\\\[\\x09\\x20-\\x7e])*"';
const MIME_PATTERN = new RegExp(`^(${TOKEN})/(${TOKEN})((?:[ \\t]*;[ \\t]*${TOKEN}=(?:${TOKEN}|${QUOTED}))*)[ \\t]*$`);

export class ArtifactRuleError extends Error {
  /** HTTP status: 400 for bad keys/mimes, 413 for payloads over the limit. */
  readonly status: number;
  constructor(message: string, status = 400) {
    super(message);
    this.name = 'ArtifactRuleError';
    this.status = status;
  }
}

export function checkKey(key: unknown): string {
  if (typeof key !== 'string' || key.length === 0) throw new ArtifactRuleError('artifact key must be a non-empty string');
  if (key.length > MAX_KEY_LENGTH) throw new ArtifactRuleError(`artifact key is longer than ${MAX_KEY_LENGTH} characters`);
  if (!KEY_PATTERN.test(key)) {
    throw new ArtifactRuleError(`invalid artifact key '${key}': use letters, digits, '.', '_' and '-', starting with a letter or digit`);
  }
  return key;
}

/** Returns the mime type normalised (type/subtype lower-cased, parameters kept), or throws. */
export function checkMime(mime: unknown): string {
  if (typeof mime !== 'string' || mime.trim() === '') throw new ArtifactRuleError('mime type must be a non-empty string (e.g. "image/png")');
  const trimmed = mime.trim();
  if (trimmed.length > MAX_MIME_LENGTH) throw new ArtifactRuleError(`mime type is longer than ${MAX_MIME_LENGTH} characters`);
  const m = MIME_PATTERN.exec(trimmed);
  if (!m) throw new ArtifactRuleError(`invalid mime type '${mime}': expected type/subtype with optional parameters (e.g. "text/csv; charset=utf-8")`);
  // `*` is a token character, but `*/*` and `image/*` are ranges (Accept headers), not a type a payload can have.
  if (m[1]!.includes('*') || m[2]!.includes('*')) throw new ArtifactRuleError(`invalid mime type '${mime}': '*' is a wildcard, name the exact type (e.g. "image/png")`);
  return `${m[1]!.toLowerCase()}/${m[2]!.toLowerCase()}${m[3] ?? ''}`;
}

export function checkSize(size: number): void {
  if (size > MAX_ARTIFACT_BYTES) {
    throw new ArtifactRuleError(`artifact payload of ${size} bytes exceeds the limit of ${MAX_ARTIFACT_BYTES} bytes (16 MiB)`, 413);
  }
}

/** A rule's message as a script sees it: `artifact: payload of … exceeds …`, `artifact: invalid mime type …`. */
export function scriptMessage(message: string): string {
  return message.startsWith('artifact ') ? `artifact: ${message.slice('artifact '.length)}` : `artifact: ${message}`;
}
