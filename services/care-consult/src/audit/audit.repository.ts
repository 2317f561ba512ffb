import { and, desc, eq, gte, like, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db, TenantTx } from '@care/db';
import { auditEvents } from '../db/schema';

/** One stored audit event as the API shows it. */
export interface AuditEventRow {
  id: string;
  occurredAt: Date;
  actorId: string;
  action: string;
  resourceType: string;
  resourceId: string | null;
  outcome: string;
  requestId: string | null;
  meta: Record<string, string | number | boolean | null>;
}

/** A row to insert (tenant comes from the transaction's tenant and is written explicitly for the policy check). */
export interface NewAuditEventRow extends AuditEventRow {
  tenantId: string;
}

/** Filters of a page of events; all optional, combined with AND. */
export interface AuditFilter {
  actorId?: string;
  /** Exact action, or a prefix when it ends with `*` (`attachment.*`). */
  action?: string;
  resourceType?: string;
  resourceId?: string;
  outcome?: string;
  from?: Date;
  to?: Date;
  /** Keyset position: events strictly older than this (time, id) pair. */
  before?: { occurredAt: Date; id: string };
  limit: number;
}

/**
 * Inserts one tenant's batch of events in one statement (the `audit_record` SQL function, migration 0006, which
 * runs it as the runtime role of `tenantId` under RLS). `db` is the owner's handle outside any transaction.
 */
export async function insertAuditEvents(db: Db, tenantId: string, rows: NewAuditEventRow[]): Promise<void> {
  if (!rows.length) return;
  const events = rows.map((r) => ({
    id: r.id,
    occurred_at: r.occurredAt.toISOString(),
    actor_id: r.actorId,
    action: r.action,
    resource_type: r.resourceType,
    resource_id: r.resourceId,
    outcome: r.outcome,
    request_id: r.requestId,
    meta: r.meta,
  }));
  await db.execute(sql`select audit_record(${tenantId}, ${JSON.stringify(events)}::jsonb)`);
}

/** A page of the tenant's events (RLS scopes the transaction), newest first. */
export async function listAuditEvents(tx: TenantTx, f: AuditFilter): Promise<AuditEventRow[]> {
  const t = auditEvents;
  const where: SQL[] = [];
  if (f.actorId !== undefined) where.push(eq(t.actorId, f.actorId));
  if (f.action !== undefined) {
    where.push(
      f.action.endsWith('*')
        ? like(t.action, `${escapeLike(f.action.slice(0, -1))}%`)
        : eq(t.action, f.action),
    );
  }
  if (f.resourceType !== undefined) where.push(eq(t.resourceType, f.resourceType));
  if (f.resourceId !== undefined) where.push(eq(t.resourceId, f.resourceId));
  if (f.outcome !== undefined) where.push(eq(t.outcome, f.outcome));
  if (f.from) where.push(gte(t.occurredAt, f.from));
  if (f.to) where.push(lte(t.occurredAt, f.to));
  if (f.before) {
    const { occurredAt, id } = f.before;
    where.push(or(lt(t.occurredAt, occurredAt), and(eq(t.occurredAt, occurredAt), lt(t.id, id)))!);
  }
  return tx
    .select({
      id: t.id,
      occurredAt: t.occurredAt,
      actorId: t.actorId,
      action: t.action,
      resourceType: t.resourceType,
      resourceId: t.resourceId,
      outcome: t.outcome,
      requestId: t.requestId,
      meta: t.meta,
    })
    .from(t)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(t.occurredAt), desc(t.id))
    .limit(f.limit);
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}
