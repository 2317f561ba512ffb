import type { Request } from 'express';
import { UnauthorizedError } from '@care/service-kit';

/** Who is calling and for which tenant: the tenant context every service call and repository query receives. */
export interface RequestContext {
  tenantId: string;
  userId: string;
  email?: string;
  roles: string[];
  scopes: string[];
  requestId: string;
  ip: string;
}

/** Builds the tenant context from the verified principal; 401 when the request has none. */
export function contextOf(req: Request): RequestContext {
  const p = req.principal;
  if (!p) throw new UnauthorizedError();
  return {
    tenantId: p.tenantId,
    userId: p.userId,
    ...(p.email ? { email: p.email } : {}),
    roles: p.roles,
    scopes: p.scopes,
    requestId: requestIdOf(req),
    ip: req.ip ?? '',
  };
}

/** Whether the caller holds the global platform-admin scope. */
export function isPlatformAdmin(ctx: RequestContext): boolean {
  return ctx.scopes.includes('platform:admin');
}

/** The request id pino-http assigned (also echoed as `X-Request-Id`). */
export function requestIdOf(req: Request): string {
  return String((req as { id?: unknown }).id ?? '');
}
