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

type PatternCtor = new (...args: unknown[]) => {
  readonly protocol: string; readonly username: string; readonly password: string; readonly hostname: string;
  readonly port: string; readonly pathname: string; readonly search: string; readonly hash: string; readonly hasRegExpGroups: boolean;
  test(...args: unknown[]): boolean;
  exec(...args: unknown[]): Record<string, { input: string; groups: Record<string, string | undefined> }> | null;
};

/** Node's TypeError (ERR_INVALID_URL_PATTERN, ERR_INVALID_ARG_TYPE…) as the guest's, code and all. */
function patternError(e: unknown): OpError {
  if (e instanceof Error) {
    const code: unknown = (e as Error & { code?: unknown }).code;
    return new OpError(e.message, e.name, typeof code === 'string' ? code : undefined);
  }
  return new OpError(String(e), 'TypeError');
}

const PATTERN_COMPONENTS = ['protocol', 'username', 'password', 'hostname', 'port', 'pathname', 'search', 'hash'] as const;

/** The capability's ops; they need no settings. */
export const createUrlOps: OpFactory = () => ({
  // [constructor args, null | { fn: 'test' | 'exec', input: args }].
  // The pattern is compiled again for every call: patterns are small, and the guest holds no host state.
  'url.pattern': {
    kind: 'sync',
    run(args) {
      if (!Array.isArray(args) || args.length !== 2 || !Array.isArray(args[0])) throw new OpError('url.pattern expects [args, call]', 'TypeError');
      const ctorArgs = args[0] as unknown[];
      const call = args[1] as { fn?: unknown; input?: unknown } | null;
      const URLPatternCtor = (globalThis as unknown as { URLPattern: PatternCtor }).URLPattern;
      try {
        const p = new URLPatternCtor(...ctorArgs);
        if (call === null) return [...PATTERN_COMPONENTS.map((k) => p[k]), p.hasRegExpGroups];
        if (!Array.isArray(call.input)) throw new OpError('url.pattern: input must be an array', 'TypeError');
        if (call.fn === 'test') return p.test(...(call.input as unknown[]));
        if (call.fn !== 'exec') throw new OpError('url.pattern: unknown call', 'TypeError');
        const r = p.exec(...(call.input as unknown[]));
        if (r === null) return null;
        return PATTERN_COMPONENTS.map((k) => [r[k]!.input, Object.entries(r[k]!.groups).map(([g, v]) => [g, v ?? null])]);
      } catch (e) {
        if (e instanceof OpError) throw e;
        throw patternError(e);
      }
    },
  },
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
            throw new OpError(e instanceof Error ? e.message : String(e), 'TypeError', (e as { code?: string }).code);
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
