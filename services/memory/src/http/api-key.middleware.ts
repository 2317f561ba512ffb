import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { UnauthorizedError } from '@care/service-kit';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * When `apiKey` is set, every request needs `X-API-Key` with that value (401 problem otherwise), except GET/HEAD
 * on `exemptPaths` (probes). CORS preflights never reach this: the CORS middleware answers them first.
 * Digests are compared in constant time so the key's length and prefix do not leak through timing.
 */
export function apiKeyMiddleware(apiKey: string | undefined, exemptPaths: string[]): RequestHandler {
  if (!apiKey) return (_req, _res, next) => next();
  const expected = digest(apiKey);
  const exempt = new Set(exemptPaths);
  return (req, _res, next) => {
    if ((req.method === 'GET' || req.method === 'HEAD') && exempt.has(req.path)) return next();
    const given = req.headers['x-api-key'];
    if (typeof given === 'string' && timingSafeEqual(digest(given), expected)) return next();
    next(
      new UnauthorizedError(
        'A valid X-API-Key header is required',
        'INVALID_API_KEY',
        'ApiKey header="X-API-Key"',
      ),
    );
  };
}
