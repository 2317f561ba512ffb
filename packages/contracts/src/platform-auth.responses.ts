import { Type, type TSchema } from '@sinclair/typebox';
import { User } from './platform-auth';

// Response bodies of platform-auth beyond LoginResponse and ActuatorHealth (./platform-auth.ts): what the routes
// send today, so the served OpenAPI document can be checked against real responses (ADR 0014).

const DateTime = Type.String({ format: 'date-time' });
/** `{items: [...]}`: the list envelope of platform-auth. */
export const ItemList = <T extends TSchema>(item: T) =>
  Type.Object({ items: Type.Array(item) }, { additionalProperties: false });

/** GET /api/v1/auth/me: the verified caller. */
export const CallerView = Type.Object(
  {
    userId: Type.String(),
    email: Type.Union([Type.String(), Type.Null()]),
    tenantId: Type.String(),
    roles: Type.Array(Type.String()),
    scopes: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);

/** A user as the users endpoints return it (the contract's User, timestamps always present). */
export const UserView = Type.Object(
  { ...User.properties, createdAt: DateTime, updatedAt: DateTime },
  { additionalProperties: false },
);

/** A tenant. */
export const TenantView = Type.Object(
  { id: Type.String(), name: Type.String(), createdAt: DateTime, updatedAt: DateTime },
  { additionalProperties: false },
);

/** One stored authentication audit event (identifiers only). */
export const AuthEventView = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    occurredAt: DateTime,
    type: Type.String({
      description:
        'LOGIN_SUCCEEDED, LOGIN_FAILED, LOGIN_THROTTLED, REFRESH_REUSED, LOGOUT, CROSS_TENANT_ACCESS, SYSTEM_ACCESS, BOOTSTRAP_ADMIN_CREATED',
    }),
    tenantId: Type.Union([Type.String(), Type.Null()]),
    userId: Type.Union([Type.String(), Type.Null()]),
    email: Type.Union([Type.String(), Type.Null()]),
    ip: Type.Union([Type.String(), Type.Null()]),
    requestId: Type.Union([Type.String(), Type.Null()]),
    detail: Type.Record(Type.String(), Type.Unknown()),
  },
  { additionalProperties: false },
);

/** A tenant's settings and branding. */
export const TenantConfigView = Type.Object(
  {
    tenantId: Type.String(),
    settings: Type.Record(Type.String(), Type.Unknown()),
    branding: Type.Record(Type.String(), Type.String()),
    updatedAt: Type.Union([DateTime, Type.Null()], { description: 'null until the first PATCH' }),
  },
  { additionalProperties: false },
);

const Slug = Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,63}$' });
/** A care workflow definition. */
export const WorkflowView = Type.Object(
  {
    tenantId: Type.String(),
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    description: Type.Optional(Type.String()),
    version: Type.Integer({ minimum: 1 }),
    steps: Type.Array(
      Type.Object(
        {
          id: Slug,
          agentId: Slug,
          title: Type.Optional(Type.String()),
          instructions: Type.Optional(Type.String()),
          next: Type.Optional(Type.Array(Slug)),
        },
        { additionalProperties: false },
      ),
    ),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { additionalProperties: false },
);

/** A knowledge-base document; the list leaves `content` out. */
export const KbDocumentView = Type.Object(
  {
    tenantId: Type.String(),
    id: Type.String({ format: 'uuid' }),
    title: Type.String(),
    content: Type.Optional(Type.String()),
    contentType: Type.String(),
    tags: Type.Array(Type.String()),
    indexStatus: Type.Union([Type.Literal('NOT_INDEXED'), Type.Literal('INDEXED'), Type.Literal('FAILED')]),
    createdAt: DateTime,
    updatedAt: DateTime,
  },
  { additionalProperties: false },
);

/** GET /api/v1/kb/search: the tenant's best passages (platform-auth ADR 0107). */
export const KbSearchResult = Type.Object(
  {
    query: Type.String(),
    items: Type.Array(
      Type.Object(
        {
          documentId: Type.String({ format: 'uuid' }),
          passage: Type.Integer({ minimum: 0 }),
          title: Type.String(),
          text: Type.String(),
          score: Type.Number(),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** GET /actuator: links to the actuator endpoints (Spring HAL shape). */
export const ActuatorLinks = Type.Object(
  {
    _links: Type.Record(
      Type.String(),
      Type.Object({ href: Type.String(), templated: Type.Boolean() }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);

/** `{status}` of liveness, readiness and one health component. */
export const ActuatorStatus = Type.Object({
  status: Type.String({ description: 'UP, DOWN or OUT_OF_SERVICE' }),
});

/** GET /actuator/info. */
export const ActuatorInfo = Type.Object({
  app: Type.Object({ name: Type.String(), version: Type.String() }),
  build: Type.Object({
    artifact: Type.String(),
    name: Type.String(),
    version: Type.String(),
    time: Type.Union([Type.String(), Type.Null()]),
  }),
  git: Type.Object({
    branch: Type.Union([Type.String(), Type.Null()]),
    commit: Type.Object({
      id: Type.String(),
      full: Type.String(),
      time: Type.Union([Type.String(), Type.Null()]),
    }),
  }),
});

/** GET /actuator/metrics. */
export const ActuatorMetricNames = Type.Object(
  { names: Type.Array(Type.String()) },
  { additionalProperties: false },
);

/** GET /actuator/metrics/{name}. */
export const ActuatorMetric = Type.Object(
  {
    name: Type.String(),
    description: Type.String(),
    baseUnit: Type.Union([Type.String(), Type.Null()]),
    measurements: Type.Array(
      Type.Object({ statistic: Type.String(), value: Type.Number() }, { additionalProperties: false }),
    ),
    availableTags: Type.Array(
      Type.Object({ tag: Type.String(), values: Type.Array(Type.String()) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);

const Masked = Type.Object({ value: Type.Literal('******') }, { additionalProperties: false });
/** GET /actuator/env: names only, every value masked. */
export const ActuatorEnv = Type.Object(
  {
    activeProfiles: Type.Array(Type.String()),
    propertySources: Type.Array(
      Type.Object(
        { name: Type.String(), properties: Type.Record(Type.String(), Masked) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** GET /actuator/env/{name}. */
export const ActuatorEnvProperty = Type.Object(
  {
    property: Type.Object(
      { source: Type.String(), value: Type.Literal('******') },
      { additionalProperties: false },
    ),
    activeProfiles: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);
