import { Type } from '@care/contracts';

/** Tenant ids: lower-case slug, also the first segment of refresh tokens. */
export const TENANT_ID_PATTERN = '^[a-z0-9][a-z0-9-]{0,62}$';
/** Schema of a tenant id. */
export const TenantId = Type.String({ pattern: TENANT_ID_PATTERN });
/** Schema of a resource id (UUID). */
export const UuidParam = Type.Object({ id: Type.String({ format: 'uuid' }) });
/** `limit` / `offset` paging. */
export const Paging = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
};

/** Reads paging from validated query values. */
export function pageOf(q: { limit?: number; offset?: number } | undefined): { limit: number; offset: number } {
  return { limit: q?.limit ?? 50, offset: q?.offset ?? 0 };
}
