import type { Request, RequestHandler } from 'express';
import {
  bearerAuth,
  createAccessTokenVerifier,
  UnauthorizedError,
  type AccessTokenVerifier,
  type Principal,
} from '@care/service-kit';
import type { AppConfig } from '../config';

/** A route that needs no bearer token, relative to `/api`. */
export interface OpenRoute {
  method: 'GET' | 'POST';
  path: string;
}

/** The only `/api` routes open without a token (ADR 0200): health and the OAuth relay callback. */
const OPEN_ROUTES: readonly OpenRoute[] = [
  { method: 'GET', path: '/health' },
  { method: 'GET', path: '/relay/callback' },
];

/**
 * Builds the verifier of platform-auth access tokens from config: HS256 with JWT_SECRET (builtin) or the
 * provider's JWKS (external). Without a secret in dev the verifier refuses every token, so nothing is open
 * by accident; prod never gets here without a secret (config rule).
 */
export function createVerifier(config: AppConfig): AccessTokenVerifier {
  if (config.AUTH_PROVIDER === 'external') {
    return createAccessTokenVerifier({
      mode: 'external',
      jwksUri: config.AUTH_JWKS_URI,
      issuer: config.AUTH_ISSUER ?? '',
      audience: config.AUTH_AUDIENCE ?? '',
    });
  }
  if (!config.JWT_SECRET) {
    return {
      verify: async () => {
        throw new UnauthorizedError(
          'No JWT_SECRET is configured: tokens cannot be verified',
          'INVALID_TOKEN',
        );
      },
    };
  }
  return createAccessTokenVerifier({
    mode: 'builtin',
    secret: config.JWT_SECRET,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
  });
}

/** Express routes paths case-insensitively and ignores one trailing slash; the exemption check must agree. */
function normalise(path: string): string {
  const lower = path.toLowerCase();
  return lower.length > 1 && lower.endsWith('/') ? lower.slice(0, -1) : lower;
}

/** True when the request (path relative to `/api`) is one of the open routes; HEAD counts as GET. */
export function isOpenRoute(method: string, path: string, open: readonly OpenRoute[] = OPEN_ROUTES): boolean {
  const m = method === 'HEAD' ? 'GET' : method;
  const p = normalise(path);
  return open.some((r) => r.method === m && r.path === p);
}

/**
 * Middleware for `/api`: every request needs a valid bearer token (401 otherwise) except the open routes.
 * One place decides, so a new feature router is protected without doing anything.
 */
export function requireBearer(
  verifier: AccessTokenVerifier,
  open: readonly OpenRoute[] = OPEN_ROUTES,
): RequestHandler {
  const auth = bearerAuth(verifier);
  return (req, res, next) => (isOpenRoute(req.method, req.path, open) ? next() : auth(req, res, next));
}

/** The verified caller of an authenticated route; throws 401 if the route was mounted without auth. */
export function principalOf(req: Request): Principal {
  if (!req.principal) throw new UnauthorizedError();
  return req.principal;
}

/** The request id pino-http assigned (echoed in `X-Request-Id`), for audit events. */
export function requestIdOf(req: Request): string | undefined {
  const id = (req as { id?: unknown }).id;
  return id === undefined || id === null ? undefined : String(id);
}

/** Whether the caller administers its tenant (sees the whole tenant's audit trail). */
export function isTenantAdmin(principal: Principal): boolean {
  return principal.roles.includes('TENANT_ADMIN') || principal.roles.includes('PLATFORM_ADMIN');
}

export type { Principal, AccessTokenVerifier };
