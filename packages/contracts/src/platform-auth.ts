import { Type, type Static } from '@sinclair/typebox';

/** Roles of the platform (docs/platform-auth.md, Request pipeline). */
export const ROLES = ['PLATFORM_ADMIN', 'TENANT_ADMIN', 'USER', 'VIEWER'] as const;
/** One role name. */
export type Role = (typeof ROLES)[number];
/** Schema of a role name. */
export const RoleSchema = Type.Union(ROLES.map((r) => Type.Literal(r)));

/** POST /api/v1/auth/login request body. */
export const LoginRequest = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 320 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: false },
);
/** Login request. */
export type LoginRequest = Static<typeof LoginRequest>;

/** POST /api/v1/auth/login success body. */
export const LoginResponse = Type.Object(
  { idToken: Type.String(), refreshToken: Type.String(), tenantId: Type.String() },
  { additionalProperties: false },
);
/** Login response. */
export type LoginResponse = Static<typeof LoginResponse>;

/** POST /api/v1/auth/refresh and /logout request body. */
export const RefreshRequest = Type.Object(
  { refreshToken: Type.String({ minLength: 1, maxLength: 512 }) },
  { additionalProperties: false },
);
/** Refresh request. */
export type RefreshRequest = Static<typeof RefreshRequest>;

/** A user as the API shows it: never a password or hash. */
export const User = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    roles: Type.Array(RoleSchema),
    tenantId: Type.String(),
    createdAt: Type.Optional(Type.String({ format: 'date-time' })),
    updatedAt: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);
/** User view. */
export type User = Static<typeof User>;

/** Scope mapping row (the path-scope map, ADR 0102). */
export const ScopeMapping = Type.Object(
  {
    path: Type.String({ description: 'path pattern; `**` matches any sub-path' }),
    method: Type.String({ description: 'HTTP method or ALL' }),
    requiredScope: Type.String(),
  },
  { additionalProperties: false },
);
/** Scope mapping. */
export type ScopeMapping = Static<typeof ScopeMapping>;

/** Claims of a built-in idToken, iss, aud and jti included (docs/platform-auth.md, Tokens). */
export const JwtClaims = Type.Object({
  sub: Type.String(),
  email: Type.String(),
  tenantId: Type.String(),
  roles: Type.Array(Type.String()),
  iat: Type.Integer(),
  exp: Type.Integer(),
  iss: Type.Optional(Type.String()),
  aud: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
  jti: Type.Optional(Type.String()),
});
/** JWT claims. */
export type JwtClaims = Static<typeof JwtClaims>;

/** Spring-style health: `{status, components}`. */
export const ActuatorHealth = Type.Object({
  status: Type.String({ description: 'UP, DOWN or OUT_OF_SERVICE' }),
  components: Type.Optional(Type.Record(Type.String(), Type.Object({ status: Type.String() }))),
});
/** Actuator health body. */
export type ActuatorHealth = Static<typeof ActuatorHealth>;

/** Schema of a tenant id: a lower-case slug, also the first segment of refresh tokens. */
export const TenantId = Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,62}$' });
/** Path parameters of a resource addressed by UUID (`/{id}`). */
export const UuidParam = Type.Object({ id: Type.String({ format: 'uuid' }) });
/** `limit` / `offset` paging fields of platform-auth's list queries. */
export const Paging = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
};

/** Reads paging from validated query values (the defaults of {@link Paging}). */
export function pageOf(q: { limit?: number; offset?: number } | undefined): {
  limit: number;
  offset: number;
} {
  return { limit: q?.limit ?? 50, offset: q?.offset ?? 0 };
}
