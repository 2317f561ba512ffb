import { Paging, TenantId, Type } from '@care/contracts';

const Name = Type.String({ minLength: 1, maxLength: 200 });
/** POST /api/v1/tenants. */
export const CreateTenant = Type.Object({ id: TenantId, name: Name }, { additionalProperties: false });
/** PATCH /api/v1/tenants/{id}. */
export const UpdateTenant = Type.Object({ name: Name }, { additionalProperties: false });
/** Path parameters of one tenant. */
export const IdParam = Type.Object({ id: TenantId });
/** GET /api/v1/tenants query. */
export const ListQuery = Type.Object(Paging, { additionalProperties: false });
/** GET /api/v1/tenants/{id}/audit-events query. */
export const AuditQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })) },
  { additionalProperties: false },
);
