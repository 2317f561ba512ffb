// Drizzle schema of the memory service. Every table is tenant-scoped (RLS in drizzle/0002_rls.sql) with
// tenant_id leading its primary key. Vector (HNSW) indexes are created per dimension at runtime, see
// src/db/vector-index.ts; the full-text GIN index is here.
import { sql } from 'drizzle-orm';
import {
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { vectorLiteral } from './vector-index';

/** pgvector `vector` without a fixed size: one column serves any provider; `dim` says which space a row is in. */
export const vector = customType<{ data: number[]; driverData: string }>({
  dataType: () => 'vector',
  // 9 significant digits: the same float32 values as the full double text, from half the characters to parse.
  toDriver: (value) => vectorLiteral(value),
  fromDriver: (value) =>
    typeof value === 'string' ? (JSON.parse(value) as number[]) : (value as unknown as number[]),
});

/** PostgreSQL full-text vector, generated from the text. */
export const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** One row per partition (tenant): the vector space its memories live in, and its last consolidation. */
export const partitions = pgTable('partitions', {
  tenantId: text('tenant_id').primaryKey(),
  embeddingModel: text('embedding_model').notNull(),
  dimension: integer('dimension').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  lastReflectAt: ts('last_reflect_at'),
  lastReflectReport: jsonb('last_reflect_report'),
});

/** Memories of every tier (working, episodic, semantic, documents), their signals, flags and times. */
export const memories = pgTable(
  'memories',
  {
    tenantId: text('tenant_id').notNull(),
    id: text('id').notNull(),
    tier: text('tier').notNull(),
    type: text('type').notNull(),
    source: text('source').notNull(),
    text: text('text').notNull(),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    dim: integer('dim').notNull(),
    embedding: vector('embedding').notNull(),
    tsv: tsvector('tsv').generatedAlwaysAs(sql`to_tsvector('english', "text")`),
    strength: doublePrecision('strength').notNull().default(0.5),
    positiveCount: integer('positive_count').notNull().default(0),
    negativeCount: integer('negative_count').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    suppressedAt: ts('suppressed_at'),
    resolvedAt: ts('resolved_at'),
    forgottenAt: ts('forgotten_at'),
    expiresAt: ts('expires_at'),
    mergedInto: text('merged_into'),
    mergedAt: ts('merged_at'),
    consolidatedInto: text('consolidated_into'),
    decayedAt: ts('decayed_at'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('memories_tenant_tier_created_idx').on(t.tenantId, t.tier, t.createdAt),
    index('memories_tsv_idx').using('gin', t.tsv),
  ],
);

/**
 * Access statistics, apart from `memories` on purpose: recall bumps them on every hit, and an update of the
 * wide row would re-insert it into the HNSW and GIN indexes.
 */
export const memoryAccess = pgTable(
  'memory_access',
  {
    tenantId: text('tenant_id').notNull(),
    memoryId: text('memory_id').notNull(),
    accessCount: integer('access_count').notNull().default(0),
    lastAccessedAt: ts('last_accessed_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.memoryId] })],
);

/** Provenance: `from` was derived from, merged from, or fired by `to` (`relation` says which). */
export const memoryLinks = pgTable(
  'memory_links',
  {
    tenantId: text('tenant_id').notNull(),
    fromId: text('from_id').notNull(),
    relation: text('relation').notNull(),
    toId: text('to_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.fromId, t.relation, t.toId] }),
    index('memory_links_to_idx').on(t.tenantId, t.toId),
  ],
);

/** Time-triggered reminders; the vector is computed when scheduled so firing needs no provider. */
export const reminders = pgTable(
  'reminders',
  {
    tenantId: text('tenant_id').notNull(),
    id: text('id').notNull(),
    text: text('text').notNull(),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    dim: integer('dim').notNull(),
    embedding: vector('embedding').notNull(),
    state: text('state').notNull().default('PENDING'),
    dueAt: ts('due_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    firedAt: ts('fired_at'),
    memoryId: text('memory_id'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('reminders_tenant_state_due_idx').on(t.tenantId, t.state, t.dueAt),
    // The firing loop looks across tenants for the next due rows: this one cannot lead with tenant_id.
    index('reminders_pending_due_idx')
      .on(t.dueAt)
      .where(sql`state = 'PENDING'`),
  ],
);
