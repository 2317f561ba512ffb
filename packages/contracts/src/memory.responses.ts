import { Type, type Static, type TSchema } from '@sinclair/typebox';

// Response bodies of the memory service (ADR 0301): what the routes send, so the served OpenAPI document can be
// checked against real responses (ADR 0014) and the services are typed by the same schemas (`Static<>`). Objects stay open to added fields (recall
// and why-not gain signals over time); the fields listed are required and typed.

const DateTime = Type.String({ format: 'date-time' });
const Nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
const NullableDate = Nullable(DateTime);
/** Lifecycle states of a memory. */
export const MemoryState = Type.Union(
  ['ACTIVE', 'SUPPRESSED', 'EXPIRED', 'MERGED', 'FORGOTTEN'].map((t) => Type.Literal(t)),
);

/** A memory or document (GET /api/v1/memory/{id} and the answers of the write operations). */
export const MemoryView = Type.Object({
  id: Type.String(),
  text: Type.String(),
  type: Type.String(),
  source: Type.String(),
  tier: Type.String(),
  tags: Type.Array(Type.String()),
  state: MemoryState,
  suppressed: Type.Boolean(),
  resolved: Type.Boolean(),
  forgotten: Type.Boolean(),
  strength: Type.Number(),
  reinforcement: Type.Object({
    positive: Type.Integer({ minimum: 0 }),
    negative: Type.Integer({ minimum: 0 }),
  }),
  access: Type.Object({ count: Type.Integer({ minimum: 0 }), lastAccessedAt: NullableDate }),
  createdAt: DateTime,
  updatedAt: DateTime,
  suppressedAt: NullableDate,
  resolvedAt: NullableDate,
  forgottenAt: NullableDate,
  expiresAt: NullableDate,
  mergedInto: Nullable(Type.String()),
  consolidatedInto: Nullable(Type.String()),
  links: Type.Optional(
    Type.Array(
      Type.Object({
        relation: Type.String(),
        direction: Type.Union([Type.Literal('outgoing'), Type.Literal('incoming')]),
        id: Type.String(),
      }),
    ),
  ),
});
/** A memory or document as answered. */
export type MemoryView = Static<typeof MemoryView>;

/** POST /api/v1/memory: the stored document and whether it was new. */
export const DocumentIngestResult = Type.Intersect([MemoryView, Type.Object({ created: Type.Boolean() })]);
/** Document ingestion answer. */
export type DocumentIngestResult = Static<typeof DocumentIngestResult>;

/** Fused-scoring signals of one recall result. */
export const RecallSignals = Type.Object({
  vectorRank: Nullable(Type.Integer()),
  vectorSimilarity: Nullable(Type.Number()),
  textRank: Nullable(Type.Integer()),
  textScore: Nullable(Type.Number()),
  relevance: Type.Number(),
  ageDays: Type.Number({ minimum: 0 }),
  recency: Type.Number(),
  strength: Type.Number(),
  tierWeight: Type.Number(),
  score: Type.Number(),
});
/** Signals of one recall result. */
export type RecallSignals = Static<typeof RecallSignals>;

/** POST /api/v1/memory/recall. */
export const RecallResponse = Type.Object({
  query: Type.String(),
  topK: Type.Integer({ minimum: 1 }),
  partition: Type.String(),
  filter: Type.Optional(Type.Object({ tagsAny: Type.Array(Type.String()) })),
  results: Type.Array(
    Type.Object({
      id: Type.String(),
      text: Type.String(),
      type: Type.String(),
      source: Type.String(),
      tier: Type.String(),
      tags: Type.Array(Type.String()),
      score: Type.Number(),
      resolved: Type.Boolean(),
      createdAt: DateTime,
      signals: RecallSignals,
    }),
  ),
});
/** Recall answer. */
export type RecallResponse = Static<typeof RecallResponse>;

/** POST /api/v1/memory/why-not. */
export const WhyNotResponse = Type.Object({
  memoryId: Type.String(),
  query: Type.String(),
  topK: Type.Integer({ minimum: 1 }),
  partition: Type.String(),
  returned: Type.Integer({ minimum: 0 }),
  lastReturned: Type.Unknown({ description: 'the last result returned, or null' }),
  recalled: Type.Boolean(),
  rank: Type.Optional(Nullable(Type.Integer({ minimum: 1 }))),
  reason: Type.String({
    description:
      'NOT_IN_PARTITION, FORGOTTEN, MERGED, EXPIRED, SUPPRESSED, TIER_EXCLUDED, NOT_A_CANDIDATE, OUTRANKED or RECALLED',
  }),
  state: Nullable(
    Type.Object({
      state: MemoryState,
      tier: Type.String(),
      suppressed: Type.Boolean(),
      forgotten: Type.Boolean(),
      resolved: Type.Boolean(),
      mergedInto: Nullable(Type.String()),
      expiresAt: NullableDate,
    }),
  ),
  signals: Nullable(RecallSignals),
  comparison: Type.Array(
    Type.Object({
      signal: Type.String(),
      memory: Nullable(Type.Number()),
      lastReturned: Nullable(Type.Number()),
      verdict: Type.Union([Type.Literal('better'), Type.Literal('worse'), Type.Literal('equal')]),
    }),
  ),
  explanation: Type.String(),
});
/** Why-not answer. */
export type WhyNotResponse = Static<typeof WhyNotResponse>;

/** POST /api/v1/memory/introspect. */
export const IntrospectResponse = Type.Object({
  topic: Type.String(),
  partition: Type.String(),
  related: Type.Integer({ minimum: 0 }),
  memories: Type.Integer({ minimum: 0 }),
  documents: Type.Integer({ minimum: 0 }),
  byTier: Type.Record(Type.String(), Type.Integer({ minimum: 0 })),
  byType: Type.Record(Type.String(), Type.Integer({ minimum: 0 })),
  freshness: Type.Object({
    newest: NullableDate,
    oldest: NullableDate,
    medianAgeDays: Nullable(Type.Number()),
  }),
  strength: Type.Object({
    average: Nullable(Type.Number()),
    min: Nullable(Type.Number()),
    max: Nullable(Type.Number()),
  }),
  unresolved: Type.Object({
    count: Type.Integer({ minimum: 0 }),
    items: Type.Array(
      Type.Object({
        id: Type.String(),
        text: Type.String(),
        tier: Type.String(),
        type: Type.String(),
        createdAt: DateTime,
      }),
    ),
  }),
  confidence: Type.String(),
  confidenceReason: Type.String(),
  searched: Type.Object({
    tiers: Type.Array(Type.String()),
    poolPerSearch: Type.Integer(),
    relatedSimilarity: Type.Number(),
  }),
});
/** Introspect answer. */
export type IntrospectResponse = Static<typeof IntrospectResponse>;

/** A scheduled reminder. */
export const ReminderView = Type.Object({
  id: Type.String(),
  text: Type.String(),
  tags: Type.Array(Type.String()),
  state: Type.String({ description: 'PENDING or FIRED' }),
  dueAt: DateTime,
  createdAt: DateTime,
  firedAt: NullableDate,
  memoryId: Nullable(Type.String()),
});
/** A reminder as answered. */
export type ReminderView = Static<typeof ReminderView>;

/** GET /api/v1/memory/reminders. */
export const ReminderList = Type.Object({ partition: Type.String(), reminders: Type.Array(ReminderView) });
/** Reminder list answer. */
export type ReminderList = Static<typeof ReminderList>;

/** GET /api/v1/memory/scratchpad. */
export const ScratchpadList = Type.Object({ partition: Type.String(), entries: Type.Array(MemoryView) });
/** Scratchpad answer. */
export type ScratchpadList = Static<typeof ScratchpadList>;

/** POST /api/v1/memory/reflect: the consolidation report. */
export const ReflectReport = Type.Object({
  partition: Type.String(),
  trigger: Type.Union([Type.Literal('manual'), Type.Literal('periodic')]),
  skipped: Type.Boolean(),
  reason: Type.Optional(Type.String()),
  startedAt: DateTime,
  finishedAt: DateTime,
  scanned: Type.Integer({ minimum: 0 }),
  merged: Type.Array(Type.Object({ survivorId: Type.String(), mergedIds: Type.Array(Type.String()) })),
  promoted: Type.Array(
    Type.Object({ semanticId: Type.String(), sourceIds: Type.Array(Type.String()), text: Type.String() }),
  ),
  decayed: Type.Array(Type.Object({ id: Type.String(), from: Type.Number(), to: Type.Number() })),
  expired: Type.Array(Type.String()),
});
/** Consolidation report. */
export type ReflectReport = Static<typeof ReflectReport>;

const TierCounts = Type.Object({
  total: Type.Integer({ minimum: 0 }),
  active: Type.Integer({ minimum: 0 }),
  suppressed: Type.Integer({ minimum: 0 }),
  forgotten: Type.Integer({ minimum: 0 }),
  merged: Type.Integer({ minimum: 0 }),
  expired: Type.Integer({ minimum: 0 }),
  resolved: Type.Integer({ minimum: 0 }),
});

/** GET /api/v1/memory/status: tier counts, partition information, persistence status. */
export const PartitionStatus = Type.Object({
  partition: Type.Object({
    id: Type.String(),
    exists: Type.Boolean(),
    embeddingModel: Nullable(Type.String()),
    dimension: Nullable(Type.Integer()),
    createdAt: NullableDate,
    lastReflectAt: NullableDate,
  }),
  tiers: Type.Record(Type.String(), TierCounts),
  totals: Type.Object({ memories: Type.Integer({ minimum: 0 }), active: Type.Integer({ minimum: 0 }) }),
  reminders: Type.Object({ pending: Type.Integer({ minimum: 0 }), fired: Type.Integer({ minimum: 0 }) }),
  embedding: Type.Object({ provider: Type.String(), model: Type.String() }),
  operatingMode: Type.String(),
  persistence: Type.Object({ engine: Type.String(), durable: Type.Boolean(), location: Type.String() }),
});

/** Partition status answer. */
export type PartitionStatus = Static<typeof PartitionStatus>;

/** Batch remember answer: per item, `created` or `unchanged` (the id already holds the same text: a retried batch). */
export const RememberBatchResult = Type.Object({
  items: Type.Array(
    Type.Object({
      id: Type.String(),
      outcome: Type.Union([Type.Literal('created'), Type.Literal('unchanged')]),
    }),
  ),
});
/** Batch remember answer. */
export type RememberBatchResult = Static<typeof RememberBatchResult>;

/** GET /api/v1/system/status response. */
export const SystemStatus = Type.Object({
  status: Type.String(),
  version: Type.String(),
  uptime: Type.String(),
  uptimeSeconds: Type.Integer({ minimum: 0 }),
  port: Type.Integer(),
  localLlmUrl: Type.String(),
  localLlmModel: Type.String(),
});
/** Status answer of the system endpoints. */
export type SystemStatus = Static<typeof SystemStatus>;

/** GET /api/v1/system/health response. */
export const SystemHealth = Type.Object({
  status: Type.String(),
  uptime: Type.String(),
  timestamp: Type.String({ format: 'date-time' }),
  components: Type.Object({
    memory: Type.Object({ status: Type.String(), engine: Type.String() }),
    llm: Type.Object({ status: Type.String(), model: Type.String(), baseUrl: Type.String() }),
    tools: Type.Object({ status: Type.String(), count: Type.Integer() }),
  }),
});
/** Health answer of the system endpoints. */
export type SystemHealth = Static<typeof SystemHealth>;

/** GET /api/v1/system/metrics response. */
export const SystemMetrics = Type.Object({
  jvm: Type.Object({
    version: Type.String(),
    vendor: Type.String(),
    uptime: Type.String(),
    heap: Type.Object({ used: Type.String(), max: Type.String(), total: Type.String() }),
    processors: Type.Integer(),
  }),
  core: Type.Object({ tools: Type.Integer(), memoryEngine: Type.String(), llmModel: Type.String() }),
});
/** Metrics answer of the system endpoints. */
export type SystemMetrics = Static<typeof SystemMetrics>;
