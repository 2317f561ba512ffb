// Drizzle schema of care-consult's own tables. Every table is tenant data: tenant_id leads the primary key and
// every index (the distribution column if one PostgreSQL is not enough), and RLS is added by custom migrations.
import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

/** Audit trail: who did what to which resource, when, with what outcome. Never message or file contents. */
export const auditEvents = pgTable(
  'audit_events',
  {
    tenantId: text('tenant_id').notNull(),
    id: uuid('id').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'date' }).notNull(),
    actorId: text('actor_id').notNull(),
    action: text('action').notNull(),
    resourceType: text('resource_type').notNull(),
    resourceId: text('resource_id'),
    outcome: text('outcome').notNull(),
    requestId: text('request_id'),
    meta: jsonb('meta')
      .$type<Record<string, string | number | boolean | null>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('audit_events_tenant_time_idx').on(t.tenantId, t.occurredAt.desc(), t.id.desc()),
    index('audit_events_tenant_actor_time_idx').on(t.tenantId, t.actorId, t.occurredAt.desc()),
    index('audit_events_tenant_action_time_idx').on(t.tenantId, t.action, t.occurredAt.desc()),
  ],
);

/** Attachment metadata; the bytes live under ATTACHMENTS_DIR in a per-tenant, per-user folder. */
export const attachments = pgTable(
  'attachments',
  {
    tenantId: text('tenant_id').notNull(),
    id: uuid('id').notNull(),
    ownerId: text('owner_id').notNull(),
    name: text('name').notNull(),
    storedName: text('stored_name').notNull(),
    mediaType: text('media_type').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('attachments_tenant_owner_time_idx').on(t.tenantId, t.ownerId, t.createdAt.desc()),
  ],
);

// Chat threads and their per-turn checkpoints; RLS comes from the custom migration next to the generated one.
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
  (t) => [
    primaryKey({ columns: [t.tenantId, t.threadId] }),
    index('chat_threads_tenant_owner_idx').on(t.tenantId, t.ownerId, t.updatedAt.desc()),
  ],
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
