// DNS-rebinding and cross-site protection for the HTTP listeners: the Host header must be in
// --allowed-hosts, and when --allowed-origins is non-empty an Origin header (if any) must be in
// it. Rejections are 403 `{"error": ...}` before anything else runs (auth included).
//
// CORS: response headers are added only for an Origin explicitly listed in --allowed-origins.
// With an empty list there is no Origin check (as the spec says) but also no CORS grant, so a
// random web page can still not read responses from a server on the user's machine.
import type { RequestHandler } from 'express';

export interface GuardOptions {
  readonly allowedHosts: readonly string[];
  readonly allowedOrigins: readonly string[];
}

interface HostPattern {
  readonly host: string;
  /** Undefined: any port (a bare host entry). */
  readonly port: string | undefined;
}

/** `example.com`, `example.com:8080`, `[::1]:8080`, `::1` → host (lowercase, no brackets) and port. */
export function splitHost(value: string): HostPattern {
  const v = value.trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(v);
  if (bracketed) return { host: bracketed[1]!, port: bracketed[2] };
  // More than one colon without brackets: a bare IPv6 address, no port.
  if (v.indexOf(':') !== v.lastIndexOf(':')) return { host: v, port: undefined };
  const colon = v.indexOf(':');
  return colon === -1 ? { host: v.replace(/\.$/, ''), port: undefined } : { host: v.slice(0, colon).replace(/\.$/, ''), port: v.slice(colon + 1) };
}

export function hostAllowed(hostHeader: string | undefined, allowed: readonly string[]): boolean {
  if (allowed.includes('*')) return true;
  if (hostHeader === undefined || hostHeader === '') return false;
  const { host, port } = splitHost(hostHeader);
  return allowed.some((entry) => {
    const p = splitHost(entry);
    return p.host === host && (p.port === undefined || p.port === port);
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
      res.status(403).json({ error: host === undefined ? 'Missing Host header' : `Host '${host}' is not allowed (see --allowed-hosts)` });
      return;
    }
    const origin = req.headers.origin;
    if (!originAllowed(origin, opts.allowedOrigins)) {
      res.status(403).json({ error: `Origin '${origin ?? ''}' is not allowed (see --allowed-origins)` });
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
