import type { RequestHandler, Response } from 'express';
import { ValidationError } from '@care/service-kit';

/** Partition used when a request names none. */
export const DEFAULT_PARTITION = 'default';
const PARTITION = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/;

/** Reads the partition from `X-Tenant-Id` (default `default`) into `res.locals.tenantId`; 400 when malformed. */
export const tenantMiddleware: RequestHandler = (req, res, next) => {
  const header = req.headers['x-tenant-id'];
  const value = typeof header === 'string' ? header.trim() : '';
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
