import type { Request } from 'express';
import type { Principal } from '../auth/access-token-verifier';
import { UnauthorizedError } from '../errors';

/** The verified caller of a request: the principal of its access token. */
export type Caller = Principal;

// The tenant a request was admitted for without a token (memory's `X-Tenant-Id` partition); a token's tenant wins.
const tenants = new WeakMap<Request, string>();

/** Records the verified caller of `req` (what `bearerAuth` does after a token verified). */
export function setCaller(req: Request, caller: Caller): void {
  req.principal = caller;
}

/** The verified caller, or undefined when the request came without a token. */
export function optionalCallerOf(req: Request): Caller | undefined {
  return req.principal;
}

/** The verified caller; a 401 problem when the request has none (a route mounted without authentication). */
export function callerOf(req: Request): Caller {
  const caller = req.principal;
  if (!caller) throw new UnauthorizedError();
  return caller;
}

/** Records the tenant (partition) of a request admitted without a token. */
export function setTenant(req: Request, tenantId: string): void {
  tenants.set(req, tenantId);
}

/** The tenant the request acts for: its caller's, else the one recorded by {@link setTenant}; 401 when neither. */
export function tenantOf(req: Request): string {
  const tenantId = req.principal?.tenantId ?? tenants.get(req);
  if (tenantId === undefined) throw new UnauthorizedError();
  return tenantId;
}

/** The request id assigned by the service app (echoed as `X-Request-Id`); `''` when none was assigned. */
export function requestIdOf(req: Request): string {
  const id = (req as { id?: unknown }).id;
  return id === undefined || id === null ? '' : String(id);
}
