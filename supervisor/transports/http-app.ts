// One express app per listening port: the MCP endpoint of its transport (/mcp, or /sse and
// /message), the REST router at /api, and the OpenAPI document. Every request except the OpenAPI
// document passes the host/origin guard (403), then JWT when configured (401): default-deny, so
// no spelling of a path (`/MCP`, `/mcp/`) that a router would still match can slip past them.
// Exempt from JWT as well: CORS preflights (answered by the guard), every OPTIONS, and
// PUT /api/artifact-uploads/{token}, whose path token is its own credential.
import { createHash } from 'node:crypto';
import express, { type ErrorRequestHandler, type Express, type RequestHandler, type Router } from 'express';
import { hostOriginGuard, type GuardOptions } from './host-origin-guard.ts';
import type { JwtAuth } from './jwt-auth.ts';
import { OPENAPI_PATH } from '../rest/index.ts';
import { RunjsError } from '../../shared/errors.ts';
import { sendError, sendFrameworkError } from '../rest/api-error.ts';
import { redactUploadTokens } from '../artifacts/upload-url.ts';

/** The one public route: API documentation, served to anyone (exact path, as the app routes it). */
function isPublic(path: string): boolean {
  return path === OPENAPI_PATH;
}

/** Requests that never need a bearer token (a path rule: the upload route may not exist yet). */
export function isAuthExempt(method: string, path: string): boolean {
  if (method === 'OPTIONS') return true;
  return method === 'PUT' && /^\/api\/artifact-uploads\/[^/]+\/?$/.test(path);
}

export interface HttpAppOptions {
  readonly guard: GuardOptions;
  readonly auth: JwtAuth | undefined;
  /** The MCP endpoint router of this port's transport. */
  readonly mcp: Router;
  /** The REST router (mounted at /api). */
  readonly rest: Router;
  /** The OpenAPI document, already serialised. */
  readonly openApiJson: string;
  /** `--max-request-body`, for the message of a too-large MCP message on /message. */
  readonly maxRequestBody: number;
  readonly log: (line: string) => void;
}

export function createHttpApp(opts: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  // No generated ETags: express hashes every body it sends (sha1) and, to do so, copies a string
  // body into a Buffer, so headers and body leave in two writes. Every API response is
  // `Cache-Control: no-store` (a status changes while a client polls), so no client could make
  // use of one; the OpenAPI document, the one cacheable response, keeps its ETag (precomputed).
  app.set('etag', false);
  const openApiEtag = `"${createHash('sha1').update(opts.openApiJson).digest('base64url')}"`;

  const guard = hostOriginGuard(opts.guard);
  app.use((req, res, next) => {
    if (isPublic(req.path)) next();
    else guard(req, res, next);
  });
  const auth = opts.auth;
  if (auth !== undefined) {
    const requireToken: RequestHandler = (req, res, next) => {
      if (isPublic(req.path) || isAuthExempt(req.method, req.path)) next();
      else auth.verify(req, res, next);
    };
    app.use(requireToken);
  }

  app.get(OPENAPI_PATH, (_req, res) => {
    // res.send answers a matching If-None-Match with 304 from the header set here.
    res.type('application/json').set('ETag', openApiEtag).send(opts.openApiJson);
  });
  app.use(opts.mcp);
  app.use('/api', opts.rest);
  app.use((req, res) => {
    sendError(res, new RunjsError('NO_ROUTE', req.method, req.path));
  });
  const onError: ErrorRequestHandler = (err: unknown, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    if (err instanceof RunjsError) {
      sendError(res, err);
      return;
    }
    const status = typeof err === 'object' && err !== null && 'status' in err && typeof err.status === 'number' ? err.status : 500;
    if (status >= 500) {
      opts.log(`${req.method} ${redactUploadTokens(req.originalUrl)} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      sendError(res, new RunjsError('INTERNAL'));
      return;
    }
    // Body-parser errors (POST /message): too large, or not JSON; any other 4xx it raises (an
    // unsupported charset, an aborted request) passes through with the framework's own text.
    const type = typeof err === 'object' && err !== null && 'type' in err ? err.type : undefined;
    const detail = err instanceof Error ? err.message : String(err);
    if (type === 'entity.too.large') sendError(res, new RunjsError('BODY_TOO_LARGE', opts.maxRequestBody));
    else if (type === 'entity.parse.failed') sendError(res, new RunjsError('INVALID_JSON', detail));
    else sendFrameworkError(res, status, detail);
  };
  app.use(onError);
  return app;
}
