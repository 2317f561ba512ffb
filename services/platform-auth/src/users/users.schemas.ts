import { Paging, RoleSchema, TenantId, Type, type Static } from '@care/contracts';

const Roles = Type.Array(RoleSchema, { minItems: 1, maxItems: 4, uniqueItems: true });

/** POST /api/v1/users. `tenantId` only for PLATFORM_ADMIN (others: their own tenant). */
export const CreateUserRequest = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 320 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
    roles: Roles,
    tenantId: Type.Optional(TenantId),
  },
  { additionalProperties: false },
);
/** Create-user body. */
export type CreateUserRequest = Static<typeof CreateUserRequest>;

/** PATCH /api/v1/users/{id}. */
export const UpdateUserRequest = Type.Object(
  { password: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })), roles: Type.Optional(Roles) },
  { additionalProperties: false, minProperties: 1 },
);
/** Update-user body. */
export type UpdateUserRequest = Static<typeof UpdateUserRequest>;

/** Query of the users endpoints: a PLATFORM_ADMIN may name another tenant. */
export const UsersQuery = Type.Object(
  { tenantId: Type.Optional(TenantId), ...Paging },
  { additionalProperties: false },
);
/** Query of one user. */
export const UserQuery = Type.Object({ tenantId: Type.Optional(TenantId) }, { additionalProperties: false });
