import type { RequestHandler } from 'express';
import { UnauthorizedError } from '../errors';
import type { AccessTokenVerifier, Principal } from './access-token-verifier';
import { setCaller } from '../request/caller';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The verified caller, set by {@link bearerAuth}. */
      principal?: Principal;
    }
  }
}

/** Options of {@link bearerAuth}. */
export interface BearerAuthOptions {
  /** Let requests without an Authorization header through without a principal (a bad token is still 401). */
  optional?: boolean;
}

const BEARER = /^Bearer[ ]+([A-Za-z0-9\-_.~+/]+=*)[ ]*$/i;

/** Extracts the token of an `Authorization: Bearer <token>` header; undefined when absent, throws when malformed. */
export function readBearerToken(header: string | undefined): string | undefined {
  if (header === undefined || header === '') return undefined;
  const m = BEARER.exec(header);
  if (!m)
    throw new UnauthorizedError(
      'The Authorization header must be "Bearer <token>"',
      'INVALID_TOKEN',
      'Bearer error="invalid_request"',
    );
  return m[1];
}

/**
 * Middleware reading `Authorization: Bearer`, verifying it and setting `req.principal`. Missing token:
 * 401 (or pass-through when optional); invalid token: always 401 with `WWW-Authenticate: Bearer`.
 */
export function bearerAuth(verifier: AccessTokenVerifier, opts: BearerAuthOptions = {}): RequestHandler {
  return (req, _res, next) => {
    let token: string | undefined;
    try {
      token = readBearerToken(req.headers.authorization);
    } catch (err) {
      return next(err);
    }
    if (token === undefined) return next(opts.optional ? undefined : new UnauthorizedError());
    verifier.verify(token).then(
      (principal) => {
        setCaller(req, principal);
        next();
      },
      (err: unknown) => next(err),
    );
  };
}
