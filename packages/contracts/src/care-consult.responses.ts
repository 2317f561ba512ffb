import { Type } from '@sinclair/typebox';

// Response bodies of care-consult the spec leaves "not shown": what the routes send today, so the served
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
  { additionalProperties: false },
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
  { additionalProperties: false },
);

/** Body of an SSE response: `event:`/`data:` frames (care-consult spec section 6). */
export const SseStream = Type.String({ description: 'text/event-stream frames: message, token, tool_start, tool_end, suggestions, refusal, error, done' });
