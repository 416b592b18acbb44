// Classifies AWS SDK failures. The SDK reports HTTP-level answers as named service exceptions with
// `$metadata.httpStatusCode`, and network failures as plain errors with an errno `code`; HEAD
// responses have no body, so their errors carry only the status ("NotFound", "UnknownError").
import { STATUS_CODES } from 'node:http';

interface SdkErrorShape {
  name?: string;
  message?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
}

export function httpStatusOf(error: unknown): number | undefined {
  return (error as SdkErrorShape | null)?.$metadata?.httpStatusCode;
}

/** The object is absent (but the bucket exists: a missing bucket is a configuration error). */
export function isMissingObject(error: unknown): boolean {
  const name = (error as SdkErrorShape | null)?.name;
  if (name === 'NoSuchBucket') return false;
  return name === 'NoSuchKey' || name === 'NotFound' || httpStatusOf(error) === 404;
}

/** `If-None-Match: *` refused the write because the object already exists. */
export function isAlreadyStored(error: unknown): boolean {
  return httpStatusOf(error) === 412;
}

/** A racing conditional write of the same key is still in flight; S3 asks the loser to retry. */
export function isWriteInFlight(error: unknown): boolean {
  return httpStatusOf(error) === 409;
}

/** The server does not implement conditional writes (some S3-compatible servers answer 501). */
export function isNotImplemented(error: unknown): boolean {
  return httpStatusOf(error) === 501;
}

/** Configuration failures the SDK reports tersely, with what an operator should set. */
const HINTS: readonly [RegExp, string][] = [
  [/^Region is missing$/, 'no AWS region configured: set AWS_REGION (any value, e.g. us-east-1, suits most S3-compatible servers)'],
  [/^Could not load credentials/, 'no AWS credentials found: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE, or run with an instance or pod role'],
];

/** One line naming what went wrong: `NoSuchBucket (HTTP 404): The specified bucket does not exist`. */
export function describeS3Error(error: unknown): string {
  const e = (error ?? {}) as SdkErrorShape;
  for (const [pattern, hint] of HINTS) if (pattern.test(e.message ?? '')) return hint;
  const status = httpStatusOf(error);
  const name = e.name && e.name !== 'Error' ? e.name : e.code;
  let message = e.message ?? String(error);
  if ((message === '' || message === 'UnknownError') && status !== undefined) message = STATUS_CODES[status] ?? 'unknown error';
  const head = [name, status === undefined ? undefined : `(HTTP ${status})`].filter(Boolean).join(' ');
  return head === '' ? message : `${head}: ${message}`;
}
