import type { RequestHandler } from 'express';
import { ForbiddenError, optionalCallerOf, setTenant, ValidationError } from '@care/service-kit';

/** Partition used when a request names none. */
const DEFAULT_PARTITION = 'default';
const PARTITION = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/;

/**
 * Records the partition of the request (`setTenant`; routes read it with `tenantOf(req)`): a bearer token's
 * tenant when the caller sent one (an `X-Tenant-Id` that disagrees is 403, ADR 0007), else `X-Tenant-Id`
 * (default `default`); 400 when malformed.
 */
export const tenantMiddleware: RequestHandler = (req, _res, next) => {
  const header = req.headers['x-tenant-id'];
  const principal = optionalCallerOf(req);
  if (principal) {
    if (header !== undefined && (typeof header !== 'string' || header.trim() !== principal.tenantId)) {
      return next(
        new ForbiddenError('X-Tenant-Id does not match the tenant of the bearer token', 'TENANT_MISMATCH'),
      );
    }
  }
  const value = principal ? principal.tenantId : typeof header === 'string' ? header.trim() : '';
  if (value === '') {
    setTenant(req, DEFAULT_PARTITION);
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
  setTenant(req, value);
  next();
};
