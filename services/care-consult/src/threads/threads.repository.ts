import { and, desc, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db, TenantTx } from '@care/db';
import { chatCheckpoints, chatThreads } from '../db/schema';

/** A stored checkpoint as plain data. */
export type CheckpointRow = typeof chatCheckpoints.$inferSelect;
/** A checkpoint to insert (seq is assigned by {@link completeTurn}). */
export type NewCheckpointRow = Omit<typeof chatCheckpoints.$inferInsert, 'seq'>;
/** A stored thread as plain data. */
export type ThreadRow = typeof chatThreads.$inferSelect;

/** Result of {@link acquireTurn}. */
export type AcquireResult =
  { ok: true; lastCheckpointId: string | null } | { ok: false; reason: 'busy' | 'not_owner' };

/**
 * Marks the thread busy for one turn, creating it when new, in one statement (the `chat_acquire_turn` SQL
 * function, migration 0004): the upsert only takes the lease when the caller owns the thread and no unexpired
 * turn holds it. Concurrent callers serialise on the row, so exactly one wins, on any number of replicas.
 * `db` must be the owner's handle outside any transaction: the function switches its own statement to the
 * runtime role and the tenant, so RLS applies as in a tenant transaction.
 */
export async function acquireTurn(
  db: Db,
  input: { tenantId: string; threadId: string; ownerId: string; turnId: string; now: Date; until: Date },
): Promise<AcquireResult> {
  const { rows } = await db.execute<{ outcome: string; last_checkpoint_id: string | null }>(
    sql`select outcome, last_checkpoint_id from chat_acquire_turn(${input.tenantId}, ${input.threadId}, ${input.ownerId}, ${input.turnId}::uuid, ${input.now.toISOString()}::timestamptz, ${input.until.toISOString()}::timestamptz)`,
  );
  const [row] = rows;
  if (row?.outcome === 'ok') return { ok: true, lastCheckpointId: row.last_checkpoint_id };
  return { ok: false, reason: row?.outcome === 'busy' ? 'busy' : 'not_owner' };
}

/**
 * Records the turn's checkpoint and frees the thread (only if this turn still holds it: a turn whose lease
 * expired and was taken over must not free the new holder), in one statement (the `chat_complete_turn` SQL
 * function, migration 0005; `db` as for {@link acquireTurn}). Returns the checkpoint's turn number.
 */
export async function completeTurn(
  db: Db,
  turnId: string,
  checkpoint: NewCheckpointRow,
  now: Date,
): Promise<number> {
  const json = (value: unknown) => (value == null ? null : JSON.stringify(value));
  const { rows } = await db.execute<{ seq: number }>(
    sql`select chat_complete_turn(${checkpoint.tenantId}, ${checkpoint.threadId}, ${turnId}::uuid, ${checkpoint.checkpointId}::uuid,
      ${checkpoint.parentId ?? null}::uuid, ${checkpoint.ownerId}, ${checkpoint.agentId ?? null}, ${checkpoint.status},
      ${checkpoint.provider ?? null}, ${checkpoint.model ?? null}, ${json(checkpoint.messages)}::jsonb, ${json(checkpoint.toolCalls)}::jsonb,
      ${json(checkpoint.suggestions)}::jsonb, ${json(checkpoint.refusal)}::jsonb, ${json(checkpoint.error)}::jsonb,
      ${checkpoint.startedAt.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz) as seq`,
  );
  return Number(rows[0]?.seq ?? 1);
}

/** Frees the thread without a checkpoint (the turn could not be recorded). */
export async function releaseTurn(tx: TenantTx, input: { threadId: string; turnId: string }): Promise<void> {
  await tx
    .update(chatThreads)
    .set({ busyTurn: null, busyUntil: null })
    .where(
      and(
        eq(chatThreads.tenantId, tx.tenantId),
        eq(chatThreads.threadId, input.threadId),
        eq(chatThreads.busyTurn, input.turnId),
      ),
    );
}

/** The thread row, or undefined. */
export async function findThread(tx: TenantTx, threadId: string): Promise<ThreadRow | undefined> {
  const [row] = await tx
    .select()
    .from(chatThreads)
    .where(and(eq(chatThreads.tenantId, tx.tenantId), eq(chatThreads.threadId, threadId)));
  return row;
}

/** Checkpoints of a thread, newest first, older than `beforeSeq` when given. */
export async function listCheckpoints(
  tx: TenantTx,
  input: { threadId: string; limit: number; beforeSeq?: number },
): Promise<CheckpointRow[]> {
  const where = [eq(chatCheckpoints.tenantId, tx.tenantId), eq(chatCheckpoints.threadId, input.threadId)];
  if (input.beforeSeq !== undefined) where.push(lt(chatCheckpoints.seq, input.beforeSeq));
  return tx
    .select()
    .from(chatCheckpoints)
    .where(and(...where))
    .orderBy(desc(chatCheckpoints.seq))
    .limit(input.limit);
}

/** A thread of the list with the messages of its first turn (for a title). */
export type ThreadListRow = ThreadRow & { firstMessages: Array<{ role: string; content: string }> | null };

/**
 * The owner's threads in the transaction's tenant that have at least one finished turn, most recently active first
 * (ties by id), after `after` when given. Uses the `(tenant_id, owner_id, updated_at desc)` index; the first turn's
 * messages come from checkpoint seq 1.
 */
export async function listThreads(
  tx: TenantTx,
  input: { ownerId: string; limit: number; after?: { updatedAt: Date; threadId: string } },
): Promise<ThreadListRow[]> {
  const where = [
    eq(chatThreads.tenantId, tx.tenantId),
    eq(chatThreads.ownerId, input.ownerId),
    gt(chatThreads.turns, 0),
  ];
  if (input.after) {
    const at = input.after.updatedAt.toISOString();
    where.push(
      sql`(${chatThreads.updatedAt} < ${at}::timestamptz or (${chatThreads.updatedAt} = ${at}::timestamptz and ${chatThreads.threadId} < ${input.after.threadId}))`,
    );
  }
  // Correlated by explicit table-qualified names: drizzle renders a column inside a select list unqualified,
  // which inside the subquery would bind to the checkpoint's own column.
  const firstMessages = sql<Array<{
    role: string;
    content: string;
  }> | null>`(select c.messages from chat_checkpoints c
    where c.tenant_id = "chat_threads"."tenant_id" and c.thread_id = "chat_threads"."thread_id" and c.seq = 1 limit 1)`;
  const rows = await tx
    .select({ thread: chatThreads, firstMessages })
    .from(chatThreads)
    .where(and(...where))
    .orderBy(desc(chatThreads.updatedAt), desc(chatThreads.threadId))
    .limit(input.limit);
  return rows.map((r) => ({ ...r.thread, firstMessages: r.firstMessages }));
}
