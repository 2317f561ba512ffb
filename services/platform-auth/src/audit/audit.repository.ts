import { randomUUID } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import type { Tx } from '@care/db';
import { authEvents } from '../db/schema';

/** Kinds of audited events. */
type AuthEventType =
  | 'LOGIN_SUCCEEDED'
  | 'LOGIN_FAILED'
  | 'LOGIN_THROTTLED'
  | 'REFRESH_REUSED'
  | 'LOGOUT'
  | 'CROSS_TENANT_ACCESS'
  | 'SYSTEM_ACCESS'
  | 'BOOTSTRAP_ADMIN_CREATED';

/** One audit record; holds identifiers only, never passwords, hashes or tokens. */
export interface AuthEvent {
  type: AuthEventType;
  tenantId?: string | null;
  userId?: string | null;
  email?: string | null;
  ip?: string | null;
  requestId?: string | null;
  detail?: Record<string, unknown>;
}

/** A stored audit record. */
type StoredAuthEvent = typeof authEvents.$inferSelect;

/** Appends one event (the runtime role may insert, never read or change, the trail). */
export async function insertAuthEvent(tx: Tx, event: AuthEvent, occurredAt: Date): Promise<void> {
  await tx.insert(authEvents).values({
    id: randomUUID(),
    occurredAt,
    type: event.type,
    tenantId: event.tenantId ?? null,
    userId: event.userId ?? null,
    email: event.email ?? null,
    ip: event.ip ?? null,
    requestId: event.requestId ?? null,
    detail: event.detail ?? {},
  });
}

/** Latest events, newest first, optionally of one tenant (system path only). */
export async function listAuthEvents(
  tx: Tx,
  opts: { tenantId?: string; limit: number },
): Promise<StoredAuthEvent[]> {
  const q = tx.select().from(authEvents);
  return (opts.tenantId ? q.where(eq(authEvents.tenantId, opts.tenantId)) : q)
    .orderBy(desc(authEvents.occurredAt))
    .limit(opts.limit);
}
