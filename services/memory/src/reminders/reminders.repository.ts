import { and, asc, desc, eq, lte } from 'drizzle-orm';
import type { TenantTx, Tx } from '@care/db';
import { reminders } from '../db/schema';

/** A reminder as stored, without its vector. */
export interface ReminderRow {
  tenantId: string;
  id: string;
  text: string;
  tags: string[];
  state: string;
  dueAt: Date;
  createdAt: Date;
  firedAt: Date | null;
  memoryId: string | null;
}

const columns = {
  tenantId: reminders.tenantId,
  id: reminders.id,
  text: reminders.text,
  tags: reminders.tags,
  state: reminders.state,
  dueAt: reminders.dueAt,
  createdAt: reminders.createdAt,
  firedAt: reminders.firedAt,
  memoryId: reminders.memoryId,
};

/** Stores a pending reminder with its precomputed vector. */
export async function insertReminder(
  tx: TenantTx,
  r: {
    id: string;
    text: string;
    tags: string[];
    embedding: number[];
    dueAt: Date;
    createdAt: Date;
  },
): Promise<ReminderRow> {
  const rows = await tx
    .insert(reminders)
    .values({ ...r, tenantId: tx.tenantId, dim: r.embedding.length, state: 'PENDING' })
    .returning(columns);
  return rows[0];
}

/** The tenant's reminders, soonest due first (bounded). */
export async function listReminders(tx: TenantTx, limit = 500): Promise<ReminderRow[]> {
  const { tenantId } = tx;
  return tx
    .select(columns)
    .from(reminders)
    .where(eq(reminders.tenantId, tenantId))
    .orderBy(asc(reminders.dueAt), desc(reminders.createdAt))
    .limit(limit);
}

/** A due reminder locked by this transaction, with what its memory needs. */
export interface ClaimedReminder extends ReminderRow {
  embedding: number[];
}

/**
 * Locks up to `limit` due pending reminders of any tenant (system path). `SKIP LOCKED` lets a second replica
 * take other rows instead of waiting, and a row stays locked until this transaction marks it fired, so two
 * replicas never fire the same reminder.
 */
export async function claimDueReminders(tx: Tx, now: Date, limit: number): Promise<ClaimedReminder[]> {
  return tx
    .select({ ...columns, embedding: reminders.embedding })
    .from(reminders)
    .where(and(eq(reminders.state, 'PENDING'), lte(reminders.dueAt, now)))
    .orderBy(asc(reminders.dueAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/** Marks a claimed reminder fired, pointing at the memory it became. */
export async function markFired(
  tx: Tx,
  tenantId: string,
  id: string,
  memoryId: string,
  now: Date,
): Promise<void> {
  await tx
    .update(reminders)
    .set({ state: 'FIRED', firedAt: now, memoryId })
    .where(and(eq(reminders.tenantId, tenantId), eq(reminders.id, id), eq(reminders.state, 'PENDING')));
}
