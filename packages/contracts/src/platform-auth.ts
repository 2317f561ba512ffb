import { Type, type Static } from '@sinclair/typebox';

/** Roles of the platform (platform-auth spec, Roles). */
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

/** Scope mapping row (platform-auth spec, Scope mapping). */
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

/** Claims of a built-in idToken (spec, JWT claims, plus DESIGN's iss/aud/jti). */
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
