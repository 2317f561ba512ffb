// Drizzle schema of care-consult's own tables. Every table is tenant data: tenant_id leads the primary key and
// every index (the distribution column if one PostgreSQL is not enough), and RLS is added by custom migrations.
import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
    meta: jsonb('meta').$type<Record<string, string | number | boolean | null>>().notNull().default(sql`'{}'::jsonb`),
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
