// What an artifact key, mime type and payload may be (shared: the worker checks them before
// sending bytes, the supervisor again on every route). Keys are a safe charset with no path
// separators, so a key can never name anything but itself in a URL, a file or an S3 object.
// Violations are RunjsErrors (shared/errors.ts): 400 over REST, an MCP error result, and the
// registry's `guest` class (TypeError, RangeError for the size) in a script.
import { RunjsError } from './errors.ts';

/** @deprecated The rules throw RunjsError; this name stays while worker/ops/artifacts imports it. */
export { RunjsError as ArtifactRuleError } from './errors.ts';

export const MAX_ARTIFACT_BYTES = 16 * 1024 * 1024;
export const MAX_KEY_LENGTH = 128;
export const MAX_MIME_LENGTH = 255;
export const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** RFC 9110 token characters. */
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"(?:[^"\\\\\\x00-\\x08\\x0a-\\x1f\\x7f]|\\\\[\\x09\\x20-\\x7e])*"';
const MIME_PATTERN = new RegExp(`^(${TOKEN})/(${TOKEN})((?:[ \\t]*;[ \\t]*${TOKEN}=(?:${TOKEN}|${QUOTED}))*)[ \\t]*$`);

export function checkKey(key: unknown): string {
  if (typeof key !== 'string' || key.length === 0) throw new RunjsError('ARTIFACT_KEY_EMPTY');
  if (key.length > MAX_KEY_LENGTH) throw new RunjsError('ARTIFACT_KEY_TOO_LONG', MAX_KEY_LENGTH);
  if (!KEY_PATTERN.test(key)) throw new RunjsError('ARTIFACT_KEY_INVALID', key);
  return key;
}

/** Returns the mime type normalised (type/subtype lower-cased, parameters kept), or throws. */
export function checkMime(mime: unknown): string {
  if (typeof mime !== 'string' || mime.trim() === '') throw new RunjsError('MIME_EMPTY');
  const trimmed = mime.trim();
  if (trimmed.length > MAX_MIME_LENGTH) throw new RunjsError('MIME_TOO_LONG', MAX_MIME_LENGTH);
  const m = MIME_PATTERN.exec(trimmed);
  if (!m) throw new RunjsError('MIME_INVALID', mime);
  // `*` is a token character, but `*/*` and `image/*` are ranges (Accept headers), not a type a payload can have.
  if (m[1]!.includes('*') || m[2]!.includes('*')) throw new RunjsError('MIME_WILDCARD', mime);
  return `${m[1]!.toLowerCase()}/${m[2]!.toLowerCase()}${m[3] ?? ''}`;
}

/** `size` bytes (omitted: a stream that went past the limit) is over the limit: RunjsError ARTIFACT_PAYLOAD_TOO_LARGE. */
export function checkSize(size: number): void {
  if (size > MAX_ARTIFACT_BYTES) throw new RunjsError('ARTIFACT_PAYLOAD_TOO_LARGE', MAX_ARTIFACT_BYTES, size);
}

/** A rule's message as a script sees it: `artifact: payload of … exceeds …`, `artifact: invalid mime type …`. */
export function scriptMessage(message: string): string {
  return message.startsWith('artifact ') ? `artifact: ${message.slice('artifact '.length)}` : `artifact: ${message}`;
}
