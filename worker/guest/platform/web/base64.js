// atob/btoa (HTML's forgiving-base64) and the byte ↔ base64 helpers the platform shares.
import { DOMException } from './dom-exception.js';
import { nodeError } from './errors.js';
import { BULK_MIN, hostToBytes, hostToText } from './bulk-codec.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE = new Int16Array(256).fill(-1);
for (let i = 0; i < 64; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

/** Bytes → base64 (with padding). */
export function bytesToBase64(bytes) {
  if (bytes.length > BULK_MIN) return hostToText(bytes, 'base64');
  const parts = [];
  let chunk = '';
  const n = bytes.length;
  let i = 0;
  for (; i + 2 < n; i += 3) {
    const v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    chunk += ALPHABET[v >> 18] + ALPHABET[(v >> 12) & 63] + ALPHABET[(v >> 6) & 63] + ALPHABET[v & 63];
    if (chunk.length >= 8192) { parts.push(chunk); chunk = ''; }
  }
  if (i < n) {
    const v = (bytes[i] << 16) | (i + 1 < n ? bytes[i + 1] << 8 : 0);
    chunk += ALPHABET[v >> 18] + ALPHABET[(v >> 12) & 63] + (i + 1 < n ? ALPHABET[(v >> 6) & 63] : '=') + '=';
  }
  parts.push(chunk);
  return parts.join('');
}

/** Forgiving-base64 decode; returns undefined on failure. */
export function base64ToBytes(input) {
  let s = input.replace(/[\t\n\f\r ]+/g, '');
  if (s.length % 4 === 0) {
    if (s.endsWith('==')) s = s.slice(0, -2);
    else if (s.endsWith('=')) s = s.slice(0, -1);
  }
  if (s.length % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((s.length * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const v = c < 256 ? DECODE[c] : -1;
    if (v < 0) return undefined;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

export function btoa(data) {
  if (arguments.length === 0) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "input" argument must be specified');
  const s = String(data);
  if (s.length > BULK_MIN && !/[^\x00-\xff]/.test(s)) return hostToText(hostToBytes(s, 'latin1'), 'base64');
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0xff) throw new DOMException('Invalid character', 'InvalidCharacterError');
    bytes[i] = c;
  }
  return bytesToBase64(bytes);
}

export function atob(data) {
  if (arguments.length === 0) throw nodeError(TypeError, 'ERR_MISSING_ARGS', 'The "input" argument must be specified');
  const input = String(data);
  if (input.length > BULK_MIN) {
    // Well-formed input (the common case) decodes on the host; anything else takes the exact path below.
    const s = input.replace(/[\t\n\f\r ]+/g, '');
    if (/^[A-Za-z0-9+/]*={0,2}$/.test(s)) {
      const equals = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
      let remainder = s.length % 4;
      if (remainder === 0) remainder = (s.length - equals) % 4;
      if (remainder !== 1 && (equals === 0 || s.length % 4 === 0)) return latin1(hostToBytes(s, 'base64'));
    }
  }
  // Node's validation order (lib/buffer.js), so the error texts match it.
  let significant = 0;
  let equals = 0;
  for (let i = 0; i < input.length; i++) {
    const c = input.charCodeAt(i);
    if (c === 9 || c === 10 || c === 12 || c === 13 || c === 32) continue;
    significant++;
    if (c === 61) equals++;
    else if (c > 255 || DECODE[c] < 0 || equals > 0) throw new DOMException('Invalid character', 'InvalidCharacterError');
    if (equals > 2) throw new DOMException('Invalid character', 'InvalidCharacterError');
  }
  let remainder = significant % 4;
  if (remainder === 0) remainder = (significant - equals) % 4;
  else if (equals > 0) throw new DOMException('Invalid character', 'InvalidCharacterError');
  if (remainder === 1) throw new DOMException('The string to be decoded is not correctly encoded.', 'InvalidCharacterError');
  const bytes = base64ToBytes(input);
  if (bytes === undefined) throw new DOMException('Invalid character', 'InvalidCharacterError');
  return latin1(bytes);
}

/** Bytes as a string of code units 0–255. */
export function latin1(bytes) {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) {
    out += String.fromCharCode.apply(null, bytes.subarray(i, Math.min(i + 8192, bytes.length)));
  }
  return out;
}
