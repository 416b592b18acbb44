// URL parsing for the guest's URL class: Node's WHATWG parser (ada). The guest keeps the
// components; the host only parses and applies setters. Also node:url's legacy helpers.
import { OpError, type OpFactory } from '../op-types.ts';
import { domainToASCII, domainToUnicode, format as legacyFormat, parse as legacyParse, resolve as legacyResolve } from 'node:url';

/** A parsed URL as the guest's component record (see worker/guest/platform/core/url.js). */
function components(u: URL): string[] {
  return [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash];
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
          try {
            const u = legacyParse(a.input, false, a.slashesDenoteHost === true);
            return { ...u };
          } catch (e) {
            // Node's legacy parser throws a URIError for a malformed escape (decodeURIComponent's).
            const name = e instanceof URIError ? 'URIError' : 'TypeError';
            throw new OpError(e instanceof Error ? e.message : String(e), name, (e as { code?: string }).code);
          }
        }
        case 'format': return legacyFormat(a.object as Parameters<typeof legacyFormat>[0]);
        case 'resolve':
          if (typeof a.input !== 'string' || typeof a.base !== 'string') throw new OpError('url.resolve expects strings', 'TypeError');
          return legacyResolve(a.base, a.input);
        case 'domainToASCII': return domainToASCII(String(a.input));
        case 'domainToUnicode': return domainToUnicode(String(a.input));
        default: throw new OpError('url.legacy: unknown function', 'TypeError');
      }
    },
  },
});
