import { Type } from '@sinclair/typebox';
import { DOMAINS } from './care-consult';

// Response bodies of care-consult: what the routes send today, so the served
// OpenAPI document can be checked against real responses (ADR 0014).

const DateTime = Type.String({ format: 'date-time' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(s: T) => Type.Union([s, Type.Null()]);

/** One stored turn of a thread. */
export const ThreadCheckpoint = Type.Object(
  {
    checkpoint_id: Type.String(),
    parent_id: Nullable(Type.String()),
    seq: Type.Integer({ minimum: 0 }),
    agent_id: Nullable(Type.String()),
    status: Type.String({ description: 'complete, aborted, refused or error' }),
    provider: Nullable(Type.String()),
    model: Nullable(Type.String()),
    messages: Type.Array(Type.Object({ role: Type.String(), content: Type.String() })),
    tool_calls: Type.Array(Type.Unknown()),
    suggestions: Type.Array(Type.String()),
    refusal: Nullable(Type.Record(Type.String(), Type.String())),
    error: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
    started_at: DateTime,
    completed_at: DateTime,
  },
  { description: 'open to added fields' },
);

/** GET /api/chat/threads/{thread_id}: one page of the thread's checkpoint history, newest first. */
export const ThreadHistory = Type.Object(
  {
    thread_id: Type.String(),
    agent_id: Nullable(Type.String()),
    turns: Type.Integer({ minimum: 0 }),
    busy: Type.Boolean(),
    created_at: DateTime,
    updated_at: DateTime,
    checkpoints: Type.Array(ThreadCheckpoint),
    next_cursor: Nullable(Type.String()),
  },
  { description: 'open to added fields' },
);

/** GET /api/chat/threads: one page of the caller's threads, most recently active first. */
export const ThreadList = Type.Object(
  {
    threads: Type.Array(
      Type.Object(
        {
          thread_id: Type.String(),
          title: Nullable(
            Type.String({ description: 'the first question, shortened; null when there is none' }),
          ),
          agent_id: Nullable(Type.String()),
          turns: Type.Integer({ minimum: 0 }),
          busy: Type.Boolean(),
          created_at: DateTime,
          updated_at: DateTime,
        },
        { description: 'open to added fields' },
      ),
    ),
    next_cursor: Nullable(Type.String()),
  },
  { description: 'open to added fields' },
);

/** Body of an SSE response: `event:`/`data:` frames (ADR 0400). */
export const SseStream = Type.String({
  description:
    'text/event-stream frames: message, token, tool_start, tool_end, suggestions, refusal, error, done',
});

const Domain = Type.Union(DOMAINS.map((d) => Type.Literal(d)));
const closed = { additionalProperties: false } as const;

/** An agent in a list; `score` only when the list answers a full-text query. */
export const AgentSummary = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    domain: Domain,
    category: Type.String(),
    tags: Type.Array(Type.String()),
    skills: Type.Array(Type.String()),
    clinical: Type.Boolean(),
    version: Type.String(),
    score: Type.Optional(Type.Number()),
  },
  closed,
);

/** GET /api/agents: matches before the limit (`total`) and the returned page. */
export const AgentList = Type.Object(
  {
    total: Type.Integer({ minimum: 0 }),
    limit: Type.Integer({ minimum: 1 }),
    agents: Type.Array(AgentSummary),
  },
  closed,
);

/** A skill reference document as listed (its text is not part of the listing). */
export const ReferenceListing = Type.Object(
  { name: Type.String(), path: Type.String(), title: Type.String(), bytes: Type.Integer({ minimum: 0 }) },
  closed,
);

/** GET /api/agents/{agent_id}: manifest, declared skills with their references, persona. */
export const AgentDetail = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    domain: Domain,
    category: Type.String(),
    status: Type.String({ description: 'active, system or template' }),
    tags: Type.Array(Type.String()),
    tools: Type.Array(Type.String()),
    clinical: Type.Boolean(),
    version: Type.String(),
    skills: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          name: Type.String(),
          description: Type.String(),
          references: Type.Array(ReferenceListing),
        },
        closed,
      ),
    ),
    persona: Type.String(),
  },
  closed,
);

/** GET /api/skills: skill packages (templates excluded). */
export const SkillList = Type.Object(
  {
    total: Type.Integer({ minimum: 0 }),
    skills: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          name: Type.String(),
          description: Type.String(),
          domain: Nullable(Domain),
          tags: Type.Array(Type.String()),
          version: Nullable(Type.String()),
          clinical: Type.Boolean(),
          references: Type.Integer({ minimum: 0, description: 'number of reference documents' }),
        },
        closed,
      ),
    ),
  },
  closed,
);

/** GET /api/skills/{skill_id}: manifest, instructions, reference listing, agents declaring it. */
export const SkillDetail = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    metadata: Type.Object(
      {
        domain: Type.Optional(Domain),
        tags: Type.Array(Type.String()),
        version: Type.Optional(Type.String()),
        clinical: Type.Boolean(),
        status: Type.Union([Type.Literal('active'), Type.Literal('template')]),
      },
      closed,
    ),
    instructions: Type.String(),
    references: Type.Array(ReferenceListing),
    agents: Type.Array(Type.String()),
  },
  closed,
);

const ProviderName = Type.String({ description: 'offline, openai, anthropic or ollama' });
/** GET /api/models: the active model and every provider's status. */
export const ModelsResponse = Type.Object(
  {
    active: Type.Object({ provider: ProviderName, model: Type.String() }, closed),
    providers: Type.Array(
      Type.Object(
        {
          id: ProviderName,
          name: Type.String(),
          configured: Type.Boolean(),
          active: Type.Boolean(),
          offline: Type.Boolean(),
          endpoint: Nullable(Type.String()),
          reachable: Nullable(Type.Boolean()),
          defaultModel: Type.String(),
          models: Type.Array(Type.String()),
          error: Nullable(Type.String()),
        },
        closed,
      ),
    ),
  },
  closed,
);

/** GET /api/audit: a page of the caller's tenant events, newest first, without bodies. */
export const AuditPage = Type.Object(
  {
    items: Type.Array(
      Type.Object(
        {
          id: Type.String({ format: 'uuid' }),
          occurredAt: DateTime,
          actorId: Type.String(),
          action: Type.String(),
          resourceType: Type.String(),
          resourceId: Nullable(Type.String()),
          outcome: Type.String({ description: 'success, failure or denied' }),
          requestId: Nullable(Type.String()),
          meta: Type.Record(
            Type.String(),
            Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
          ),
        },
        closed,
      ),
    ),
    nextCursor: Nullable(Type.String()),
  },
  closed,
);

/** An attachment's metadata. */
export const AttachmentView = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    mediaType: Type.String(),
    size: Type.Integer({ minimum: 0 }),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
    createdAt: DateTime,
  },
  closed,
);

/** GET /api/attachments: the caller's sandbox. */
export const AttachmentList = Type.Object(
  { total: Type.Integer({ minimum: 0 }), items: Type.Array(AttachmentView) },
  closed,
);

/** POST /api/attachments body (multipart/form-data): one file in the field `file`. */
export const AttachmentUpload = Type.Object(
  { file: Type.String({ contentMediaType: 'application/octet-stream', description: 'the document' }) },
  { required: ['file'] },
);

/** POST /api/relay/tickets: the signed ticket and its expiry. */
export const RelayTicketIssued = Type.Object({ ticket: Type.String(), expires_at: DateTime }, closed);

/** GET /console/config.json: what the console needs to sign in and call the API. */
export const ConsoleConfig = Type.Object(
  { authUrl: Nullable(Type.String()), apiBase: Type.String() },
  closed,
);
