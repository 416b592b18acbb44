// node:querystring, following Node's lib/querystring.js (its escaping table, '+' as space,
// maxKeys, and the unescape fallback for malformed percent sequences).
import core from 'runjs:part/core';

const { utf8Encode, utf8Decode } = core.shared;
const HEX = '0123456789ABCDEF';
// Node's noEscape set: A-Z a-z 0-9 - . _ ~ ! ' ( ) *
const NO_ESCAPE = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!'()*") NO_ESCAPE[c.charCodeAt(0)] = 1;

function escape(str) {
  const s = typeof str === 'string' ? str : typeof str === 'object' && str !== null ? String(str) : `${str}`;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 128 && NO_ESCAPE[c] === 1) { out += s[i]; continue; }
    let cp = c;
    if (c >= 0xd800 && c <= 0xdfff) {
      // As Node: any surrogate takes the low 10 bits of the unit after it (a lone one at the end throws).
      if (++i >= s.length) {
        const e = new URIError('URI malformed');
        e.code = 'ERR_INVALID_URI';
        throw e;
      }
      cp = 0x10000 + (((c & 0x3ff) << 10) | (s.charCodeAt(i) & 0x3ff));
    }
    for (const b of utf8Encode(String.fromCodePoint(cp))) out += `%${HEX[b >> 4]}${HEX[b & 15]}`;
  }
  return out;
}

function unescapeBuffer(s, decodeSpaces = false) {
  const bytes = utf8Encode(s);
  const out = new Uint8Array(bytes.length);
  let o = 0;
  const hex = (b) => (b >= 48 && b <= 57 ? b - 48 : b >= 65 && b <= 70 ? b - 55 : b >= 97 && b <= 102 ? b - 87 : -1);
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 43 && decodeSpaces) { out[o++] = 32; continue; }
    if (b === 37 && i + 2 < bytes.length) {
      const h = hex(bytes[i + 1]);
      const l = hex(bytes[i + 2]);
      if (h >= 0 && l >= 0) { out[o++] = h * 16 + l; i += 2; continue; }
    }
    out[o++] = b;
  }
  // A Buffer, as Node's (its callers call toString() on it); node:buffer loads on first use.
  const { Buffer } = core.shared.requirePart('buffer').globals;
  return Buffer.from(out.buffer, 0, o);
}

function unescape(s, decodeSpaces = false) {
  try {
    return decodeURIComponent(s);
  } catch {
    return utf8Decode(unescapeBuffer(s, decodeSpaces));
  }
}

function stringifyPrimitive(v) {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return `${v}`;
  if (typeof v === 'bigint') return `${v}`;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return '';
}

function stringify(obj, sep = '&', eq = '=', options = undefined) {
  sep ||= '&';
  eq ||= '=';
  const enc = typeof options?.encodeURIComponent === 'function' ? options.encodeURIComponent : qs.escape;
  if (obj === null || typeof obj !== 'object') return '';
  const parts = [];
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    const ks = `${enc(stringifyPrimitive(k))}${eq}`;
    if (Array.isArray(v)) for (const item of v) parts.push(ks + enc(stringifyPrimitive(item)));
    else parts.push(ks + enc(stringifyPrimitive(v)));
  }
  return parts.join(sep);
}

function parse(qsInput, sep = '&', eq = '=', options = undefined) {
  const obj = Object.create(null);
  if (typeof qsInput !== 'string' || qsInput.length === 0) return obj;
  const separator = sep ? String(sep) : '&';
  const equals = eq ? String(eq) : '=';
  // As Node: a maxKeys that is not a number is ignored (1000); 0, negative or NaN means no limit.
  let maxKeys = typeof options?.maxKeys === 'number' ? options.maxKeys : 1000;
  if (!(maxKeys > 0)) maxKeys = Infinity;
  const decode = typeof options?.decodeURIComponent === 'function' ? options.decodeURIComponent : qs.unescape;
  // As Node: with its own unescape, only text with a '+' or a valid %XX is decoded; a custom
  // decoder (or a replaced qs.unescape) sees every key and value, with '+' as '%20'.
  const custom = decode !== unescape;
  const decodePart = (raw) => {
    if (!custom && !/\+|%[0-9a-fA-F]{2}/.test(raw)) return raw;
    return decodeStr(raw.replace(/\+/g, '%20'), decode);
  };
  const pieces = qsInput.split(separator);
  // As Node: maxKeys counts pairs, not distinct keys — a repeated key and an empty piece between
  // two separators use one up each ('&a' with maxKeys 1 is {}); a trailing empty piece does not.
  let pairs = maxKeys;
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i];
    if (piece.length === 0) {
      if (i < pieces.length - 1 && --pairs === 0) break;
      continue;
    }
    const idx = piece.indexOf(equals);
    let k = idx >= 0 ? piece.slice(0, idx) : piece;
    let v = idx >= 0 ? piece.slice(idx + equals.length) : '';
    k = decodePart(k);
    v = decodePart(v);
    if (!(k in obj)) obj[k] = v;
    else if (Array.isArray(obj[k])) obj[k].push(v);
    else obj[k] = [obj[k], v];
    if (--pairs === 0) break;
  }
  return obj;
}

function decodeStr(s, decoder) {
  try {
    return decoder(s);
  } catch {
    return qs.unescape(s, true);
  }
}

export const qs = { escape, unescape, unescapeBuffer, stringify, parse, encode: stringify, decode: parse };
