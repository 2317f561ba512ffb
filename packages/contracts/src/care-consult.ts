import { Type, type Static } from '@sinclair/typebox';

/** Domains of the agent taxonomy (care-consult spec, GET /api/agents). */
export const DOMAINS = ['clinical', 'navigation', 'wellness', 'therapy', 'education'] as const;
/** One domain. */
export type Domain = (typeof DOMAINS)[number];

/** WorkspaceInfo of the health response. */
export const WorkspaceInfo = Type.Object({
  root: Type.String(),
  agentsCount: Type.Integer({ minimum: 0 }),
  skillsCount: Type.Integer({ minimum: 0 }),
});

/** Local inference server status of the health response. */
export const LocalLlmStatus = Type.Object({
  status: Type.String(),
  endpoint: Type.String(),
  reachable: Type.Boolean(),
  activeModel: Type.String(),
  availableModels: Type.Array(Type.String()),
  error: Type.Union([Type.String(), Type.Null()]),
});

/** GET /api/health response (HealthResponse). */
export const HealthResponse = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('error')]),
  version: Type.String(),
  uptime: Type.Number({ minimum: 0 }),
  timestamp: Type.String({ format: 'date-time' }),
  modelReachable: Type.Boolean(),
  workspace: WorkspaceInfo,
  localLlm: LocalLlmStatus,
  memoryBackend: Type.Optional(
    Type.Object({ kind: Type.String(), url: Type.Optional(Type.String()), reachable: Type.Boolean() }),
  ),
});
/** Health response. */
export type HealthResponse = Static<typeof HealthResponse>;

/** One chat message. */
export const ChatMessage = Type.Object(
  {
    role: Type.Union([Type.Literal('user'), Type.Literal('assistant'), Type.Literal('system')]),
    content: Type.String({ maxLength: 32000 }),
  },
  { additionalProperties: false },
);

/** POST /api/chat request (Chat request). */
export const ChatRequest = Type.Object(
  {
    messages: Type.Array(ChatMessage, { minItems: 1, maxItems: 200 }),
    agent_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    thread_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$' })),
    allow_clinical: Type.Optional(Type.Boolean()),
    attachments: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 20 })),
  },
  { additionalProperties: false },
);
/** Chat request. */
export type ChatRequest = Static<typeof ChatRequest>;

/** GET /api/agents query. */
export const AgentsQuery = Type.Object(
  {
    domain: Type.Optional(Type.Union(DOMAINS.map((d) => Type.Literal(d)))),
    category: Type.Optional(Type.String({ pattern: '^[a-z0-9-]+(\\.[a-z0-9-]+)*$', maxLength: 200 })),
    query: Type.Optional(Type.String({ maxLength: 500 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  },
  { additionalProperties: false },
);
/** Agents query. */
export type AgentsQuery = Static<typeof AgentsQuery>;

/** A category node of the taxonomy tree; subcategories share the shape. */
export const CategoryNode = Type.Recursive(
  (Self) =>
    Type.Object({ count: Type.Integer({ minimum: 0 }), subcategories: Type.Record(Type.String(), Self) }),
  { $id: 'CategoryNode' },
);

/** GET /api/agents/categories response. */
export const TaxonomyTree = Type.Object({
  total: Type.Integer({ minimum: 0 }),
  domains: Type.Record(
    Type.String(),
    Type.Object({
      count: Type.Integer({ minimum: 0 }),
      categories: Type.Record(Type.String(), CategoryNode),
    }),
  ),
});
/** Taxonomy tree. */
export type TaxonomyTree = Static<typeof TaxonomyTree>;

/** Payload of a relay ticket. */
export const RelayTicketPayload = Type.Object(
  {
    v: Type.Literal(1),
    uid: Type.String(),
    pid: Type.String(),
    cid: Type.String(),
    cb: Type.String(),
    nonce: Type.String({ pattern: '^[0-9a-f]{32}$' }),
    iat: Type.Integer(),
    exp: Type.Integer(),
  },
  { additionalProperties: false },
);
/** Relay ticket payload. */
export type RelayTicketPayload = Static<typeof RelayTicketPayload>;

/** Result of a relay resolution. */
export const RelayResolution = Type.Object({
  redirect_target: Type.String(),
  connection_id: Type.String(),
  profile_id: Type.String(),
  user_id: Type.String(),
  nonce: Type.String(),
  stateless: Type.Literal(true),
  tokens_stored: Type.Literal(false),
});
/** Relay resolution. */
export type RelayResolution = Static<typeof RelayResolution>;

/** POST /api/relay/tickets request (ADR 0500). */
export const RelayTicketRequest = Type.Object(
  {
    profile_id: Type.String({ minLength: 1, maxLength: 200 }),
    connection_id: Type.String({ minLength: 1, maxLength: 200 }),
    callback_url: Type.String({ minLength: 1, maxLength: 2048 }),
    ttl_seconds: Type.Integer({ minimum: 1, maximum: 120 }),
  },
  { additionalProperties: false },
);
/** Relay ticket request. */
export type RelayTicketRequest = Static<typeof RelayTicketRequest>;
