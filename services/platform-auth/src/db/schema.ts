// Drizzle tables of platform-auth. Tenant tables lead with tenant_id (RLS column and future distribution key);
// tenants, the login directory, scope mappings and the audit trail are global.
import { sql } from 'drizzle-orm';
import {
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Tenants (global; managed by PLATFORM_ADMIN through the audited system path). */
export const tenants = pgTable('tenants', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Users of a tenant; the password is only ever stored as a bcrypt hash. */
export const users = pgTable(
  'users',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'restrict' }),
    id: uuid('id').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    roles: text('roles').array().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('users_tenant_email_idx').on(t.tenantId, t.email),
  ],
);

/**
 * Email -> tenant and user, globally unique: login receives only an email, so it must find the tenant before it
 * can open a tenant transaction. Holds no secrets; written inside the user's tenant transaction (RLS checked).
 */
export const loginDirectory = pgTable(
  'login_directory',
  {
    email: text('email').primaryKey(),
    tenantId: text('tenant_id').notNull(),
    userId: uuid('user_id').notNull(),
  },
  (t) => [index('login_directory_tenant_user_idx').on(t.tenantId, t.userId)],
);

/** Refresh tokens, stored as SHA-256 hashes; one family per login, rotated on every refresh. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    tenantId: text('tenant_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    familyId: uuid('family_id').notNull(),
    userId: uuid('user_id').notNull(),
    issuedAt: ts('issued_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.tokenHash] }),
    index('refresh_tokens_family_idx').on(t.tenantId, t.familyId),
    index('refresh_tokens_user_idx').on(t.tenantId, t.userId),
    foreignKey({ columns: [t.tenantId, t.userId], foreignColumns: [users.tenantId, users.id] }).onDelete(
      'cascade',
    ),
  ],
);

/** The path-scope map as data, seeded by drizzle/0002_scope_mappings_seed.sql (docs/platform-auth.md; ADR 0102). */
export const scopeMappings = pgTable(
  'scope_mappings',
  {
    path: text('path').notNull(),
    method: text('method').notNull(),
    requiredScope: text('required_scope').notNull(),
  },
  (t) => [primaryKey({ columns: [t.path, t.method] })],
);

/** Audit trail of authentication events and cross-tenant access; never holds passwords or tokens. */
export const authEvents = pgTable(
  'auth_events',
  {
    id: uuid('id').primaryKey(),
    occurredAt: ts('occurred_at').notNull().defaultNow(),
    type: text('type').notNull(),
    tenantId: text('tenant_id'),
    /** The actor's subject: opaque text, since an external identity provider's `sub` is no UUID (ADR 0006). */
    userId: text('user_id'),
    email: text('email'),
    ip: text('ip'),
    requestId: text('request_id'),
    detail: jsonb('detail')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
  },
  (t) => [
    index('auth_events_occurred_idx').on(t.occurredAt),
    index('auth_events_tenant_idx').on(t.tenantId, t.occurredAt),
  ],
);

/** Tenant settings and branding. */
export const tenantConfigs = pgTable('tenant_configs', {
  tenantId: text('tenant_id')
    .primaryKey()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  settings: jsonb('settings')
    .$type<Record<string, unknown>>()
    .notNull()
    .default(sql`'{}'::jsonb`),
  branding: jsonb('branding')
    .$type<Record<string, unknown>>()
    .notNull()
    .default(sql`'{}'::jsonb`),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Care-workflow definitions: named, versioned step lists that reference agents. */
export const workflows = pgTable(
  'workflows',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    version: integer('version').notNull(),
    steps: jsonb('steps').$type<unknown[]>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('workflows_tenant_name_idx').on(t.tenantId, t.name),
  ],
);

/** Knowledge-base documents of a tenant. */
export const kbDocuments = pgTable(
  'kb_documents',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    contentType: text('content_type').notNull(),
    tags: text('tags').array().notNull(),
    indexStatus: text('index_status').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('kb_documents_tenant_created_idx').on(t.tenantId, t.createdAt),
  ],
);
