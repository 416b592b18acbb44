// Bulk text ↔ bytes conversions on the host (ops encoding.toBytes / encoding.toText, Node's
// Buffer): converting code unit by code unit in the guest runs at well under 1 MB/s on QuickJS,
// so inputs past BULK_MIN go to the host in one op each, and smaller ones stay in the guest
// (where an op's fixed cost would dominate).
import { op } from './host.js';

/** Inputs longer than this (code units or bytes) are converted on the host. */
export const BULK_MIN = 1024;

/** `text` as bytes in a Node Buffer encoding ('utf8', 'base64', 'base64url', 'hex', 'latin1', 'ascii'). */
export function hostToBytes(text, encoding) {
  return op('encoding.toBytes', { encoding, text });
}

/** The byte count of `text` in `encoding`. */
export function hostByteLength(text, encoding) {
  return op('encoding.toBytes', { encoding, text, count: true });
}

/** `bytes` (a Uint8Array) as text in a Node Buffer encoding. */
export function hostToText(bytes, encoding) {
  return op('encoding.toText', { encoding }, bytes);
}
