import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { readBearerToken, setCaller, UnauthorizedError, type AccessTokenVerifier } from '@care/service-kit';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Options of {@link callerAuth}. */
export interface CallerAuthOptions {
  /** Shared `X-API-Key`; unset: no key. */
  apiKey?: string;
  /** Verifier of platform bearer tokens; unset: tokens are not accepted. */
  verifier?: AccessTokenVerifier;
  /** GET/HEAD paths answered without credentials (probes). */
  exemptPaths: string[];
}

/**
 * Who may call (ADR 0007). A platform bearer token, when a verifier is configured, is verified like the other
 * services do and its caller recorded with `setCaller` (its tenant becomes the partition); a bad token is
 * always 401. Otherwise `X-API-Key` is checked when a key is set (constant-time digest comparison). With neither
 * configured (dev only: prod refuses to start) every request passes. CORS preflights never reach this.
 */
export function callerAuth(opts: CallerAuthOptions): RequestHandler {
  const expected = opts.apiKey ? digest(opts.apiKey) : undefined;
  const exempt = new Set(opts.exemptPaths);
  const keyChallenge = 'ApiKey header="X-API-Key"';
  return (req, _res, next) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && exempt.has(req.path)) return next();
    if (opts.verifier && req.headers.authorization !== undefined) {
      let token: string | undefined;
      try {
        token = readBearerToken(req.headers.authorization);
      } catch (err) {
        return next(err);
      }
      if (token !== undefined) {
        opts.verifier.verify(token).then((principal) => {
          setCaller(req, principal);
          next();
        }, next);
        return;
      }
    }
    if (expected) {
      const given = req.headers['x-api-key'];
      if (typeof given === 'string' && timingSafeEqual(digest(given), expected)) return next();
      return next(
        new UnauthorizedError(
          'A valid X-API-Key header or bearer token is required',
          'INVALID_API_KEY',
          opts.verifier ? `Bearer, ${keyChallenge}` : keyChallenge,
        ),
      );
    }
    if (opts.verifier) return next(new UnauthorizedError('A bearer token is required'));
    next();
  };
}
