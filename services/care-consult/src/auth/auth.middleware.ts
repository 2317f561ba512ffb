import type { RequestHandler } from 'express';
import { bearerAuth, type AccessTokenVerifier, type Principal } from '@care/service-kit';

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

/** Whether the caller administers its tenant (sees the whole tenant's audit trail). */
export function isTenantAdmin(principal: Principal): boolean {
  return principal.roles.includes('TENANT_ADMIN') || principal.roles.includes('PLATFORM_ADMIN');
}
