import { NotFoundError } from '@care/service-kit';

/** The SQLSTATE of a database error, looking through drizzle's wrapper (`cause`). */
export function sqlState(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 5 && e && typeof e === 'object'; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** SQLSTATE of a unique-constraint violation. */
export const UNIQUE_VIOLATION = '23505';
/** SQLSTATE of a foreign-key violation. */
export const FOREIGN_KEY_VIOLATION = '23503';
/** SQLSTATE of a deletion refused by `ON DELETE RESTRICT`. */
export const RESTRICT_VIOLATION = '23001';

/**
 * What a foreign-key violation of a write into a tenant table means: the tenant is not registered (404
 * TENANT_NOT_FOUND); any other error is returned unchanged.
 */
export function unregisteredTenant(err: unknown, tenantId: string): unknown {
  if (sqlState(err) !== FOREIGN_KEY_VIOLATION) return err;
  return new NotFoundError(
    `Tenant ${tenantId} is not registered; a platform administrator must create it`,
    'TENANT_NOT_FOUND',
  );
}
