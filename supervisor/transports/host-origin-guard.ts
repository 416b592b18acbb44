// DNS-rebinding and cross-site protection for the HTTP listeners: the Host header must be in
// --allowed-hosts, and when --allowed-origins is non-empty an Origin header (if any) must be in
// it. Rejections are 403 `{"error": ...}` before anything else runs (auth included).
//
// CORS: response headers are added only for an Origin explicitly listed in --allowed-origins.
// With an empty list there is no Origin check (as the spec says) but also no CORS grant, so a
// random web page can still not read responses from a server on the user's machine.
import type { RequestHandler } from 'express';
import { RunjsError } from '../../shared/errors.ts';
import { sendError } from '../rest/api-error.ts';

export interface GuardOptions {
  readonly allowedHosts: readonly string[];
  readonly allowedOrigins: readonly string[];
}

interface HostPattern {
  readonly host: string;
  /** Undefined: any port (a bare host entry). */
  readonly port: string | undefined;
}

const REG_NAME = /^[a-z0-9._-]+$/;
const PORT = /^[0-9]{1,5}$/;
const BRACKETED = /^\[([0-9a-f:.]+)\](?::([0-9]{1,5}))?$/;
const BARE_IPV6 = /^[0-9a-f.]*:[0-9a-f.]*:[0-9a-f:.]*$/;

/**
 * A Host header: `example.com`, `example.com:8080`, `[::1]:8080` → host (lowercase, no brackets,
 * no trailing dot) and port. Anything else is undefined: userinfo (`localhost:1@evil` must not
 * read as host `localhost`, port `1@evil`), a path, spaces, an empty host, a port that is not
 * 1–5 digits, an IPv6 address without brackets.
 */
export function parseHost(value: string): HostPattern | undefined {
  const v = value.toLowerCase();
  const bracketed = BRACKETED.exec(v);
  if (bracketed) return { host: bracketed[1]!, port: bracketed[2] };
  const colon = v.indexOf(':');
  const host = (colon === -1 ? v : v.slice(0, colon)).replace(/\.$/, '');
  const port = colon === -1 ? undefined : v.slice(colon + 1);
  if (!REG_NAME.test(host) || (port !== undefined && !PORT.test(port))) return undefined;
  return { host, port };
}

/** An --allowed-hosts entry: Host syntax, or a bare IPv6 address (the default `::1`), which has no port. */
function parseEntry(entry: string): HostPattern | undefined {
  const v = entry.trim().toLowerCase();
  return BARE_IPV6.test(v) ? { host: v, port: undefined } : parseHost(v);
}

export function hostAllowed(hostHeader: string | undefined, allowed: readonly string[]): boolean {
  if (hostHeader === undefined || hostHeader === '') return allowed.includes('*');
  // A malformed Host is refused even under `*`: absolute URLs (artifact links) are built from it.
  const parsed = parseHost(hostHeader);
  if (parsed === undefined) return false;
  if (allowed.includes('*')) return true;
  return allowed.some((entry) => {
    const p = parseEntry(entry);
    return p !== undefined && p.host === parsed.host && (p.port === undefined || p.port === parsed.port);
  });
}

/** Scheme, host and port, normalised (`HTTPS://App.Example.com:443` → `https://app.example.com`); undefined when unparsable. */
function normaliseOrigin(value: string): string | undefined {
  if (value === 'null') return 'null';
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

export function originAllowed(origin: string | undefined, allowed: readonly string[]): boolean {
  if (allowed.length === 0 || origin === undefined) return true;
  const normalised = normaliseOrigin(origin);
  return normalised !== undefined && allowed.some((entry) => normaliseOrigin(entry) === normalised);
}

/** Origins that get CORS headers: listed ones only (see the file comment). */
function corsOrigin(origin: string | undefined, allowed: readonly string[]): string | undefined {
  return origin !== undefined && allowed.length > 0 && originAllowed(origin, allowed) ? origin : undefined;
}

const CORS_METHODS = 'GET, POST, PUT, DELETE, OPTIONS';
const CORS_EXPOSE = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate';

export function hostOriginGuard(opts: GuardOptions): RequestHandler {
  return (req, res, next) => {
    const host = req.headers.host;
    if (!hostAllowed(host, opts.allowedHosts)) {
      sendError(res, host === undefined ? new RunjsError('HOST_MISSING') : new RunjsError('HOST_NOT_ALLOWED', host));
      return;
    }
    const origin = req.headers.origin;
    if (!originAllowed(origin, opts.allowedOrigins)) {
      sendError(res, new RunjsError('ORIGIN_NOT_ALLOWED', origin ?? ''));
      return;
    }
    const grant = corsOrigin(origin, opts.allowedOrigins);
    if (grant !== undefined) {
      res.vary('Origin');
      res.set({ 'Access-Control-Allow-Origin': grant, 'Access-Control-Expose-Headers': CORS_EXPOSE });
    }
    // A CORS preflight is answered here: it carries no credentials, so auth never sees it.
    // Plain OPTIONS requests go on to the routes (the REST router answers them with Allow).
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      if (grant !== undefined) {
        const requested = req.headers['access-control-request-headers'];
        res.set({
          'Access-Control-Allow-Methods': CORS_METHODS,
          'Access-Control-Allow-Headers': typeof requested === 'string' ? requested : '',
          'Access-Control-Max-Age': '600',
        });
      }
      res.status(204).end();
      return;
    }
    next();
  };
}
