import type { RequestHandler, Response } from 'express';
import { ForbiddenError, ValidationError } from '@care/service-kit';
import { principalOf } from './caller-auth.middleware';

/** Partition used when a request names none. */
const DEFAULT_PARTITION = 'default';
const PARTITION = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/;

/**
 * Reads the partition into `res.locals.tenantId`: a bearer token's tenant when the caller sent one (an
 * `X-Tenant-Id` that disagrees is 403, ADR 0007), else `X-Tenant-Id` (default `default`); 400 when malformed.
 */
export const tenantMiddleware: RequestHandler = (req, res, next) => {
  const header = req.headers['x-tenant-id'];
  const principal = principalOf(res);
  if (principal) {
    if (header !== undefined && (typeof header !== 'string' || header.trim() !== principal.tenantId)) {
      return next(
        new ForbiddenError('X-Tenant-Id does not match the tenant of the bearer token', 'TENANT_MISMATCH'),
      );
    }
  }
  const value = principal ? principal.tenantId : typeof header === 'string' ? header.trim() : '';
  if (value === '') {
    res.locals.tenantId = DEFAULT_PARTITION;
    return next();
  }
  if (!PARTITION.test(value)) {
    return next(
      new ValidationError(
        'X-Tenant-Id is not a valid partition name',
        [
          {
            pointer: '/headers/x-tenant-id',
            detail: 'letters, digits, _ . : - (1 to 100, starting with a letter or digit)',
          },
        ],
        'INVALID_TENANT',
      ),
    );
  }
  res.locals.tenantId = value;
  next();
};

/** The partition of the request (set by {@link tenantMiddleware}). */
export function tenantOf(res: Response): string {
  return res.locals.tenantId as string;
}
