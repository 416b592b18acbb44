// json.*, base64*, hex and urlquery.* (Go's url.QueryEscape: space as `+`, only A-Z a-z 0-9 - _ . ~ kept).
import { BuiltinError } from '../errors.ts';
import { fromJson, RegoObject, RegoSet, toJson, type Value } from '../values.ts';
import { fail, list, obj, str, type BuiltinTable } from './kit.ts';

function marshal(v: Value): string {
  return JSON.stringify(toJson(v));
}

function unmarshal(s: string): Value {
  try {
    return fromJson(JSON.parse(s));
  } catch {
    throw new BuiltinError('invalid JSON');
  }
}

const B64 = /^[A-Za-z0-9+/]*={0,2}$/;
const B64URL = /^[A-Za-z0-9_-]*={0,2}$/;

function b64decode(s: string, url: boolean): string {
  if (!(url ? B64URL : B64).test(s) || (!url && s.length % 4 !== 0)) throw new BuiltinError('illegal base64 data');
  return Buffer.from(s, url ? 'base64url' : 'base64').toString('utf8');
}

export function queryEscape(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(/%20/g, '+');
}

function queryUnescape(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    throw new BuiltinError(`invalid URL escape in ${JSON.stringify(s)}`);
  }
}

export const ENCODING: BuiltinTable = {
  'json.marshal': { arity: 1, fn: (a) => marshal(a[0]!) },
  'json.unmarshal': { arity: 1, fn: (a) => unmarshal(str(a, 0)) },
  'json.is_valid': {
    arity: 1,
    fn: (a) => {
      if (typeof a[0] !== 'string') return false;
      try {
        JSON.parse(a[0]);
        return true;
      } catch {
        return false;
      }
    },
  },
  'base64.encode': { arity: 1, fn: (a) => Buffer.from(str(a, 0), 'utf8').toString('base64') },
  'base64.decode': { arity: 1, fn: (a) => b64decode(str(a, 0), false) },
  'base64.is_valid': { arity: 1, fn: (a) => typeof a[0] === 'string' && B64.test(a[0]) && a[0].length % 4 === 0 },
  'base64url.encode': { arity: 1, fn: (a) => { const s = Buffer.from(str(a, 0), 'utf8').toString('base64url'); return s + '='.repeat((4 - (s.length % 4)) % 4); } },
  'base64url.encode_no_pad': { arity: 1, fn: (a) => Buffer.from(str(a, 0), 'utf8').toString('base64url') },
  'base64url.decode': { arity: 1, fn: (a) => b64decode(str(a, 0), true) },
  'hex.encode': { arity: 1, fn: (a) => Buffer.from(str(a, 0), 'utf8').toString('hex') },
  'hex.decode': { arity: 1, fn: (a) => { const s = str(a, 0); if (!/^([0-9a-fA-F]{2})*$/.test(s)) fail('invalid hex'); return Buffer.from(s, 'hex').toString('utf8'); } },
  'urlquery.encode': { arity: 1, fn: (a) => queryEscape(str(a, 0)) },
  'urlquery.decode': { arity: 1, fn: (a) => queryUnescape(str(a, 0)) },
  'urlquery.encode_object': {
    arity: 1,
    fn: (a) => {
      const parts: string[] = [];
      for (const [k, v] of obj(a, 0).sortedEntries()) {
        if (typeof k !== 'string') fail('operand 1 keys must be strings');
        const values = typeof v === 'string' ? [v] : Array.isArray(v) || v instanceof RegoSet ? list([v], 0) : fail('operand 1 values must be strings, arrays or sets of strings');
        for (const x of values) parts.push(`${queryEscape(k)}=${queryEscape(typeof x === 'string' ? x : fail('operand 1 values must be strings'))}`);
      }
      return parts.join('&');
    },
  },
  'urlquery.decode_object': {
    arity: 1,
    fn: (a) => {
      const out = new RegoObject();
      const s = str(a, 0);
      if (s === '') return out;
      for (const part of s.split('&')) {
        if (part === '') continue;
        const eq = part.indexOf('=');
        const k = queryUnescape(eq < 0 ? part : part.slice(0, eq));
        const v = eq < 0 ? '' : queryUnescape(part.slice(eq + 1));
        const prev = out.get(k);
        out.set(k, Array.isArray(prev) ? [...prev, v] : [v]);
      }
      return out;
    },
  },
};
