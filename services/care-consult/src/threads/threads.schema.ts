// Chat threads and their per-turn checkpoints. Tenant data: tenant_id leads every key and index; RLS comes from
// the custom migration next to the generated one.
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * One row per thread: its owner, the newest checkpoint (the parent of the next turn) and the turn lease.
 * `busy_turn` + `busy_until` are the busy flag: set atomically when a turn starts, cleared when it ends, and
 * ignored once expired (a crashed replica cannot block a thread for longer than one turn's bound).
 */
export const chatThreads = pgTable(
  'chat_threads',
  {
    tenantId: text('tenant_id').notNull(),
    threadId: text('thread_id').notNull(),
    ownerId: text('owner_id').notNull(),
    agentId: text('agent_id'),
    lastCheckpointId: uuid('last_checkpoint_id'),
    turns: integer('turns').notNull().default(0),
    busyTurn: uuid('busy_turn'),
    busyUntil: timestamp('busy_until', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.threadId] }), index('chat_threads_tenant_owner_idx').on(t.tenantId, t.ownerId, t.updatedAt.desc())],
);

/** One row per turn: what was asked, who answered, what tools ran, how it ended. */
export const chatCheckpoints = pgTable(
  'chat_checkpoints',
  {
    tenantId: text('tenant_id').notNull(),
    threadId: text('thread_id').notNull(),
    checkpointId: uuid('checkpoint_id').notNull(),
    parentId: uuid('parent_id'),
    /** Turn number within the thread, 1-based: the page cursor. */
    seq: integer('seq').notNull(),
    ownerId: text('owner_id').notNull(),
    agentId: text('agent_id'),
    /** complete | aborted | refused | error */
    status: text('status').notNull(),
    provider: text('provider'),
    model: text('model'),
    messages: jsonb('messages').$type<Array<{ role: string; content: string }>>().notNull(),
    toolCalls: jsonb('tool_calls').$type<unknown[]>().notNull(),
    suggestions: jsonb('suggestions').$type<string[]>().notNull(),
    refusal: jsonb('refusal').$type<Record<string, string> | null>(),
    error: jsonb('error').$type<{ code: string; message: string } | null>(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.threadId, t.checkpointId] }),
    index('chat_checkpoints_tenant_thread_seq_idx').on(t.tenantId, t.threadId, t.seq.desc()),
  ],
);
