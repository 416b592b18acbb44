// The /api router: one express route per RouteSpec, then 405 for a known path with another
// method, 404 for any other path, and the error mapping. Every error body is {"error": "..."}.
import express from 'express';
import type { ErrorRequestHandler, Request, RequestHandler, Response, Router } from 'express';
import { API_PREFIX, API_ROUTES } from './route-table.ts';
import { RunjsError } from '../../shared/errors.ts';
import { sendError } from './api-error.ts';
import type { Reply, RestDeps, RouteSpec } from './route-types.ts';
import { redactUploadTokens } from '../artifacts/upload-url.ts';

/** After an early error reply the unread rest of a body is dropped; a client still sending after this long is cut off. */
const DRAIN_MS = 5_000;

/** `/api/executions/{id}` → `/executions/:id` (relative to the mount point). */
function expressPath(path: string): string {
  // `{path}` spans slashes (session files): Express's splat, whose value is the segments.
  return path.slice(API_PREFIX.length).replace(/\{path\}$/, '{*path}').replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
}

function send(res: Response, reply: Reply): void {
  if ('json' in reply) {
    res.status(reply.status).json(reply.json);
    return;
  }
  // setHeader, not res.set: express appends `; charset=utf-8` to text/* types given to set(),
  // and a stored artifact's Content-Type must be exactly its mime type.
  res.status(reply.status).set({ ...reply.headers });
  res.setHeader('Content-Type', reply.contentType);
  res.send(Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength));
}

function handler(route: RouteSpec, deps: RestDeps): RequestHandler {
  return async (req, res) => {
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.params as Record<string, unknown>)) {
      if (typeof v === 'string') params[k] = v;
      else if (Array.isArray(v)) params[k] = v.join('/');
    }
    const query = new URL(req.originalUrl, 'http://localhost').searchParams;
    send(res, await route.handle({ deps, req, params, query }));
  };
}

/**
 * Errors express itself raises: a path parameter that is not valid percent-encoding. No resource
 * can live at such a URL, so it is a 404 — the status every route with a path parameter documents.
 */
function frameworkError(e: unknown): RunjsError | undefined {
  return e instanceof URIError ? new RunjsError('MALFORMED_URL') : undefined;
}

/** An error can be answered before the body was read (413, 415, a bad query): drop the rest unread. */
function drainThenClose(req: Request): void {
  if (req.complete) return;
  req.resume();
  setTimeout(() => {
    if (!req.complete) req.socket.destroy();
  }, DRAIN_MS).unref();
}

export function createRestRouter(deps: RestDeps): Router {
  const log = deps.log ?? ((line: string) => { process.stderr.write(`${line}\n`); });
  // Exact paths (`/api/Version` is a 404), like the app around it, so guards and routes agree.
  const router = express.Router({ caseSensitive: true });

  // Statuses and outputs change while a client polls: nothing here may be cached.
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  const methodsByPath = new Map<string, string[]>();
  for (const route of API_ROUTES) {
    const path = expressPath(route.path);
    router[route.method](path, handler(route, deps));
    methodsByPath.set(path, [...(methodsByPath.get(path) ?? []), route.method.toUpperCase()]);
  }
  for (const [path, methods] of methodsByPath) {
    const allowed = [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'];
    router.all(path, (req, res) => {
      res.set('Allow', allowed.join(', '));
      if (req.method === 'OPTIONS') {
        res.status(204).end();
        return;
      }
      throw new RunjsError('METHOD_NOT_ALLOWED', req.method, req.baseUrl + req.path, allowed);
    });
  }
  router.use((req) => {
    throw new RunjsError('NO_API_ROUTE', req.method, req.baseUrl + req.path);
  });

  const onError: ErrorRequestHandler = (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    res.on('finish', () => drainThenClose(req));
    const known = err instanceof RunjsError ? err : frameworkError(err);
    if (known === undefined) {
      log(`runjs: ${req.method} ${redactUploadTokens(req.originalUrl)} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    }
    sendError(res, known ?? new RunjsError('INTERNAL'));
  };
  router.use(onError);
  return router;
}
