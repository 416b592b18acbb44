// URL parsing for the guest's URL class: Node's WHATWG parser (ada). The guest keeps the
// components; the host only parses and applies setters. Also node:url's legacy helpers.
import { OpError, type OpFactory } from '../op-types.ts';
import * as nodeUrl from 'node:url';
import { domainToASCII, domainToUnicode, format as legacyFormat, parse as legacyParse, resolve as legacyResolve } from 'node:url';

/** A parsed URL as the guest's component record (see worker/guest/platform/core/url.js). */
function components(u: URL): string[] {
  return [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash];
}

/** node:url's legacy Url class, what url.parse returns (Node's typings have only its interface). */
const LegacyUrl = (nodeUrl as unknown as { Url: new () => Record<string, unknown> }).Url;

type LegacyProto = { parse(this: unknown, ...args: unknown[]): unknown; parseHost(this: { hostname?: unknown }): void };

/**
 * Runs a legacy parser call, its failures as the guest's errors: Node's legacy parser throws a
 * URIError for a malformed escape (decodeURIComponent's) and ERR_INVALID_URL for a bad host.
 * Also reports the URL Node's DEP0170 warning would name ("The URL … is invalid"): a parsed host
 * whose hostname keeps a `:` that is no port (not an IPv6 literal). Node warns once per process,
 * so the warning is the guest's to emit, once per run; the host's own once-only flag is long
 * spent, hence Url#parse and Url#parseHost are watched for the duration of the call (ops are
 * synchronous: nothing else runs meanwhile, and both are put back).
 */
function legacyCall<T>(fn: () => T): { value: T; invalidPortUrl: string | null } {
  const proto = LegacyUrl.prototype as unknown as LegacyProto;
  const { parse, parseHost } = proto;
  let parsing: unknown = null;
  let invalidPortUrl: string | null = null;
  proto.parse = function watchedParse(...args) {
    const outer = parsing;
    parsing = args[0];
    try {
      return parse.apply(this, args);
    } finally {
      parsing = outer;
    }
  };
  proto.parseHost = function watchedParseHost() {
    parseHost.call(this);
    const h = this.hostname;
    if (invalidPortUrl === null && typeof h === 'string' && h.includes(':') && !(h.startsWith('[') && h.endsWith(']'))) invalidPortUrl = String(parsing);
  };
  try {
    return { value: fn(), invalidPortUrl };
  } catch (e) {
    const name = e instanceof URIError ? 'URIError' : 'TypeError';
    throw new OpError(e instanceof Error ? e.message : String(e), name, (e as { code?: string }).code);
  } finally {
    proto.parse = parse;
    proto.parseHost = parseHost;
  }
}

/**
 * A legacy-API operand from the guest: a string (parsed as Node's resolveObject parses it,
 * slashes denoting a host), a Url's fields (rebuilt as a Url) or a plain object's (kept plain:
 * Node reads absent fields of a plain object as undefined, a Url's as null).
 */
function legacyOperand(v: unknown, op: string): string | Record<string, unknown> {
  if (typeof v === 'string') return v;
  if (typeof v !== 'object' || v === null) throw new OpError(`${op}: operand must be a string or { url, fields }`, 'TypeError');
  const { url, fields } = v as { url?: unknown; fields?: unknown };
  if (typeof fields !== 'object' || fields === null) throw new OpError(`${op}: operand fields must be an object`, 'TypeError');
  return url === true ? Object.assign(new LegacyUrl(), fields) : { ...fields };
}

const SETTABLE = new Set(['href', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash']);

function strings(args: unknown, min: number, max: number, op: string): string[] {
  if (!Array.isArray(args) || args.length < min || args.length > max || !args.every((a) => typeof a === 'string')) {
    throw new OpError(`${op} expects ${min}–${max} strings`, 'TypeError');
  }
  return args as string[];
}

/** The capability's ops; they need no settings. */
export const createUrlOps: OpFactory = () => ({
  'url.parse': {
    kind: 'sync',
    run(args) {
      const [input, base] = strings(args, 1, 2, 'url.parse');
      const u = URL.parse(input!, base);
      return u === null ? null : components(u);
    },
  },
  'url.set': {
    kind: 'sync',
    run(args) {
      const [href, name, value] = strings(args, 3, 3, 'url.set');
      if (!SETTABLE.has(name!)) throw new OpError(`url.set: '${name}' is not settable`, 'TypeError');
      const u = new URL(href!);
      if (name === 'href') {
        const next = URL.parse(value!);
        return next === null ? null : components(next);
      }
      (u as unknown as Record<string, string>)[name!] = value!;
      return components(u);
    },
  },
  'url.legacy': {
    kind: 'sync',
    run(args) {
      if (typeof args !== 'object' || args === null) throw new OpError('url.legacy expects an object', 'TypeError');
      const a = args as { fn?: unknown; input?: unknown; base?: unknown; parseQuery?: unknown; slashesDenoteHost?: unknown; object?: unknown };
      switch (a.fn) {
        case 'parse': {
          if (typeof a.input !== 'string') throw new OpError('url.parse: input must be a string', 'TypeError');
          const input = a.input;
          return legacyCall(() => ({ ...legacyParse(input, false, a.slashesDenoteHost === true) }));
        }
        case 'format': return legacyCall(() => legacyFormat(a.object as Parameters<typeof legacyFormat>[0]));
        case 'resolve': {
          if (typeof a.input !== 'string' || typeof a.base !== 'string') throw new OpError('url.resolve expects strings', 'TypeError');
          const { base, input } = a;
          return legacyCall(() => legacyResolve(base, input));
        }
        case 'resolveObject': {
          // Node's Url#resolveObject on the source (a string is parsed with slashes denoting a
          // host, as url.resolveObject parses it); `format` asks for url.resolve's string.
          const b = args as { source?: unknown; relative?: unknown; format?: unknown };
          const source = legacyOperand(b.source, 'url.resolveObject');
          const relative = legacyOperand(b.relative, 'url.resolveObject');
          return legacyCall(() => {
            const base = typeof source === 'string' ? legacyParse(source, false, true) : Object.assign(new LegacyUrl(), source);
            const result = (base as unknown as { resolveObject(r: unknown): Record<string, unknown> & { format(): string } }).resolveObject(relative);
            if (b.format === true) return result.format();
            // Fields a plain-object operand left undefined stay undefined (not the Url's null);
            // named apart, since undefined does not survive the trip to the guest.
            return { fields: { ...result }, undefinedKeys: Object.keys(result).filter((k) => result[k] === undefined) };
          });
        }
        case 'domainToASCII': return domainToASCII(String(a.input));
        case 'domainToUnicode': return domainToUnicode(String(a.input));
        default: throw new OpError('url.legacy: unknown function', 'TypeError');
      }
    },
  },
});
