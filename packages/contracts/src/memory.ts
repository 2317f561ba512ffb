import { Type, type Static } from '@sinclair/typebox';

/** Memory types (ADR 0301). */
export const MEMORY_TYPES = ['EPISODIC', 'SEMANTIC', 'PROCEDURAL', 'WORKING'] as const;
/** Memory sources (ADR 0301). */
export const MEMORY_SOURCES = ['USER_STATED', 'AGENT_INFERRED', 'DOCUMENT', 'TOOL_OUTPUT', 'SYSTEM'] as const;

const Id = Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_.:-]+$' });
const Tags = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 });

/** POST /api/v1/memory (document ingestion). */
export const DocumentIngest = Type.Object(
  {
    id: Id,
    text: Type.String({ minLength: 1, maxLength: 100000 }),
    vector: Type.Array(Type.Number(), { minItems: 1, maxItems: 8192 }),
    tags: Type.Optional(Tags),
  },
  { additionalProperties: false },
);
/** Document ingestion body. */
export type DocumentIngest = Static<typeof DocumentIngest>;

/** POST /api/v1/memory/remember. */
export const RememberRequest = Type.Object(
  {
    id: Type.Optional(Id),
    text: Type.String({ minLength: 1, maxLength: 20000 }),
    type: Type.Union(MEMORY_TYPES.map((t) => Type.Literal(t))),
    source: Type.Union(MEMORY_SOURCES.map((s) => Type.Literal(s))),
    tags: Type.Optional(Tags),
    /** Extension (memory ADR 0301): when the remembered episode happened, e.g. importing a past conversation; default now. */
    occurredAt: Type.Optional(Type.String({ format: 'date-time', maxLength: 40 })),
  },
  { additionalProperties: false },
);
/** Remember body. */
export type RememberRequest = Static<typeof RememberRequest>;

/** Most memories one batch remember stores (ADR 0109). */
export const REMEMBER_BATCH_MAX = 64;

/**
 * POST /api/v1/memory/remember/batch (extension, ADR 0109): several memories embedded in one model call and
 * stored in one transaction, all or none. Each item is a remember body with its id.
 */
export const RememberBatchRequest = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        {
          id: Id,
          text: Type.String({ minLength: 1, maxLength: 20000 }),
          type: Type.Union(MEMORY_TYPES.map((t) => Type.Literal(t))),
          source: Type.Union(MEMORY_SOURCES.map((s) => Type.Literal(s))),
          tags: Type.Optional(Tags),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: REMEMBER_BATCH_MAX },
    ),
  },
  { additionalProperties: false },
);
/** Batch remember body. */
export type RememberBatchRequest = Static<typeof RememberBatchRequest>;

/** POST /api/v1/memory/recall. */
export const RecallRequest = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: 4000 }),
    topK: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
    /**
     * Extension (memory ADR 0310): applied by the server inside both searches, before the top K is cut. Only
     * memories carrying at least one of `tagsAny` (e.g. `user:<id>` for one person's memories, `kb` for
     * knowledge-base passages) are candidates.
     */
    filter: Type.Optional(
      Type.Object(
        { tagsAny: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 20 }) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
/** Recall body. */
export type RecallRequest = Static<typeof RecallRequest>;

/** POST /api/v1/memory/{id}/reinforce. */
export const ReinforceRequest = Type.Object(
  {
    outcome: Type.Union([Type.Literal('POSITIVE'), Type.Literal('NEGATIVE')]),
    weight: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 10 })),
  },
  { additionalProperties: false },
);
/** Reinforce body. */
export type ReinforceRequest = Static<typeof ReinforceRequest>;

/** POST /api/v1/memory/{id}/suppress. */
export const SuppressRequest = Type.Object({ suppressed: Type.Boolean() }, { additionalProperties: false });
/** Suppress body. */
export type SuppressRequest = Static<typeof SuppressRequest>;

/** POST /api/v1/memory/introspect. */
export const IntrospectRequest = Type.Object(
  { topic: Type.String({ minLength: 1, maxLength: 1000 }) },
  { additionalProperties: false },
);

/** POST /api/v1/memory/reminder. */
export const ReminderRequest = Type.Object(
  {
    text: Type.String({ minLength: 1, maxLength: 4000 }),
    delaySeconds: Type.Integer({ minimum: 0, maximum: 31536000 }),
    tags: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  { additionalProperties: false },
);
/** Reminder body. */
export type ReminderRequest = Static<typeof ReminderRequest>;

/** POST /api/v1/memory/scratchpad. */
export const ScratchpadRequest = Type.Object(
  {
    text: Type.String({ minLength: 1, maxLength: 8000 }),
    ttlSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 604800 })),
  },
  { additionalProperties: false },
);
/** Scratchpad body. */
export type ScratchpadRequest = Static<typeof ScratchpadRequest>;

/** POST /api/v1/memory/why-not. */
export const WhyNotRequest = Type.Object(
  {
    memoryId: Id,
    query: Type.String({ minLength: 1, maxLength: 4000 }),
    topK: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
  },
  { additionalProperties: false },
);
/** Why-not body. */
export type WhyNotRequest = Static<typeof WhyNotRequest>;
