// JWT enforcement (--jwks-url): express-jwt verifies, jwks-rsa supplies keys by `kid`.
//
// Claim checks (the spec leaves them open; decided here):
// - algorithms: RS256/384/512, PS256/384/512, ES256/384/512 only. Never `none`, never HS*
//   (an HMAC "signed" with a public key is the classic confusion attack). When the JWK names
//   its `alg`, the token's must be the same.
// - `exp` is required (a bearer token that never expires is a standing credential) and checked
//   with 30 s of clock leeway; `nbf` is checked with the same leeway when present.
// - `iss` and `aud` are not checked: no flag names them; the key set is the trust anchor.
// Keys: fetched once at startup (failure aborts the start, naming the URL); an unknown `kid`
// refetches the set, at most 10 times a minute, and known keys are cached for 10 minutes.
import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import { expressjwt, UnauthorizedError } from 'express-jwt';
import type { Algorithm } from 'jsonwebtoken';
import { JwksClient } from 'jwks-rsa';
import { RunjsError } from '../../shared/errors.ts';
import { sendError } from '../rest/api-error.ts';

export const ACCEPTED_ALGORITHMS: Algorithm[] = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512'];
export const CLOCK_TOLERANCE_SECS = 30;
const FETCH_TIMEOUT_MS = 10_000;

/** Startup could not load the key set; the message names the URL. */
export class JwksUnavailableError extends Error {
  override readonly name = 'JwksUnavailableError';
}

/** `Authorization: Bearer <t>` wins; otherwise the raw `agent-session` header. The scheme name is
 * case-insensitive (RFC 9110 §11.1), so `bearer <t>` is a token too. */
export function tokenFrom(req: Request): string | undefined {
  const match = /^bearer[ \t]+(.*)$/is.exec(req.headers.authorization ?? '');
  const token = match?.[1]?.trim();
  if (token !== undefined && token !== '') return token;
  const session = req.headers['agent-session'];
  return typeof session === 'string' && session.trim() !== '' ? session.trim() : undefined;
}

/** The 401 for whatever verification threw (express-jwt wraps jsonwebtoken's errors in `inner`). */
function failure(err: unknown): RunjsError {
  if (err instanceof RunjsError) return err;
  if (err instanceof UnauthorizedError) {
    if (err.code === 'credentials_required') return new RunjsError('TOKEN_MISSING');
    const inner: unknown = err.inner;
    if (inner instanceof Error) {
      if (inner.name === 'TokenExpiredError') return new RunjsError('TOKEN_EXPIRED');
      if (inner.name === 'NotBeforeError') return new RunjsError('TOKEN_NOT_YET_VALID');
      return new RunjsError('TOKEN_INVALID', inner.message);
    }
    return new RunjsError('TOKEN_INVALID', err.message);
  }
  if (err instanceof Error && err.name === 'SigningKeyNotFoundError') return new RunjsError('TOKEN_UNKNOWN_KEY');
  if (err instanceof Error && err.name === 'JwksRateLimitError') return new RunjsError('TOKEN_UNKNOWN_KEY');
  return new RunjsError('TOKEN_INVALID', err instanceof Error ? err.message : String(err));
}

export interface JwtAuth {
  /** Verifies the request's token (or answers 401). */
  readonly verify: RequestHandler;
}

export async function createJwtAuth(jwksUrl: string): Promise<JwtAuth> {
  const client = new JwksClient({
    jwksUri: jwksUrl,
    cache: true,
    cacheMaxAge: 10 * 60_000,
    rateLimit: true,
    jwksRequestsPerMinute: 10,
    timeout: FETCH_TIMEOUT_MS,
  });
  try {
    await client.getSigningKeys();
  } catch (e) {
    throw new JwksUnavailableError(`cannot load the JWT key set from --jwks-url ${jwksUrl}: ${e instanceof Error ? e.message : String(e)}`);
  }

  const checkToken = expressjwt({
    algorithms: ACCEPTED_ALGORITHMS,
    clockTolerance: CLOCK_TOLERANCE_SECS,
    credentialsRequired: true,
    getToken: tokenFrom,
    secret: async (_req, token) => {
      if (!token) throw new RunjsError('TOKEN_MALFORMED'); // jwt.decode gave null
      const alg = token.header.alg;
      if (!(ACCEPTED_ALGORITHMS as string[]).includes(alg)) throw new RunjsError('TOKEN_INVALID', `algorithm ${alg} is not accepted`);
      const key = await client.getSigningKey(token.header.kid);
      if (key.alg !== undefined && key.alg !== alg) throw new RunjsError('TOKEN_INVALID', `the key ${key.kid} is for ${key.alg}, not ${alg}`);
      return key.getPublicKey();
    },
  });

  const requireExp: RequestHandler = (req, _res, next) => {
    const claims = (req as Request & { auth?: { exp?: unknown } }).auth;
    next(typeof claims?.exp === 'number' ? undefined : new RunjsError('TOKEN_NO_EXP'));
  };

  const reject: ErrorRequestHandler = (err: unknown, _req, res, _next) => {
    const e = failure(err);
    const challenge = e.code === 'TOKEN_MISSING' ? 'Bearer realm="runjs"' : 'Bearer realm="runjs", error="invalid_token"';
    sendError(res, e, { 'WWW-Authenticate': challenge });
  };

  // express-jwt reports failures through next(err); answer them here, before any other handler.
  const verify: RequestHandler = (req, res, next) => {
    void checkToken(req, res, (err?: unknown) => {
      if (err !== undefined) {
        reject(err, req, res, next);
        return;
      }
      requireExp(req, res, (err2?: unknown) => {
        if (err2 !== undefined) reject(err2, req, res, next);
        else next();
      });
    });
  };
  return { verify };
}
