import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Tx } from '@care/db';
import { chatCheckpoints, chatThreads } from './threads.schema';

/** A stored checkpoint as plain data. */
export type CheckpointRow = typeof chatCheckpoints.$inferSelect;
/** A checkpoint to insert (seq is assigned by {@link completeTurn}). */
export type NewCheckpointRow = Omit<typeof chatCheckpoints.$inferInsert, 'seq'>;
/** A stored thread as plain data. */
export type ThreadRow = typeof chatThreads.$inferSelect;

/** Result of {@link acquireTurn}. */
export type AcquireResult =
  | { ok: true; lastCheckpointId: string | null }
  | { ok: false; reason: 'busy' | 'not_owner' };

/**
 * Marks the thread busy for one turn, creating it when new, in one statement: the upsert only takes the lease
 * when the caller owns the thread and no unexpired turn holds it. Concurrent callers serialise on the row, so
 * exactly one wins, on any number of replicas.
 */
export async function acquireTurn(
  tx: Tx,
  input: { tenantId: string; threadId: string; ownerId: string; turnId: string; now: Date; until: Date },
): Promise<AcquireResult> {
  const rows = await tx
    .insert(chatThreads)
    .values({
      tenantId: input.tenantId,
      threadId: input.threadId,
      ownerId: input.ownerId,
      busyTurn: input.turnId,
      busyUntil: input.until,
      createdAt: input.now,
      updatedAt: input.now,
    })
    .onConflictDoUpdate({
      target: [chatThreads.tenantId, chatThreads.threadId],
      set: { busyTurn: input.turnId, busyUntil: input.until },
      setWhere: sql`${chatThreads.ownerId} = ${input.ownerId} and (${chatThreads.busyTurn} is null or ${chatThreads.busyUntil} < ${input.now})`,
    })
    .returning({ lastCheckpointId: chatThreads.lastCheckpointId });
  if (rows.length) return { ok: true, lastCheckpointId: rows[0].lastCheckpointId };
  const [existing] = await tx
    .select({ ownerId: chatThreads.ownerId })
    .from(chatThreads)
    .where(and(eq(chatThreads.tenantId, input.tenantId), eq(chatThreads.threadId, input.threadId)));
  return { ok: false, reason: existing && existing.ownerId === input.ownerId ? 'busy' : 'not_owner' };
}

/**
 * Records the turn's checkpoint and frees the thread (only if this turn still holds it: a turn whose lease
 * expired and was taken over must not free the new holder). Returns the checkpoint's turn number.
 */
export async function completeTurn(tx: Tx, turnId: string, checkpoint: NewCheckpointRow, now: Date): Promise<number> {
  const mine = sql`${chatThreads.busyTurn} = ${turnId}`;
  const [thread] = await tx
    .update(chatThreads)
    .set({
      turns: sql`${chatThreads.turns} + 1`,
      lastCheckpointId: checkpoint.checkpointId,
      agentId: checkpoint.agentId ?? sql`${chatThreads.agentId}`,
      updatedAt: now,
      busyTurn: sql`case when ${mine} then null else ${chatThreads.busyTurn} end`,
      busyUntil: sql`case when ${mine} then null else ${chatThreads.busyUntil} end`,
    })
    .where(and(eq(chatThreads.tenantId, checkpoint.tenantId), eq(chatThreads.threadId, checkpoint.threadId)))
    .returning({ turns: chatThreads.turns });
  const seq = thread?.turns ?? 1;
  await tx.insert(chatCheckpoints).values({ ...checkpoint, seq });
  return seq;
}

/** Frees the thread without a checkpoint (the turn could not be recorded). */
export async function releaseTurn(tx: Tx, input: { tenantId: string; threadId: string; turnId: string }): Promise<void> {
  await tx
    .update(chatThreads)
    .set({ busyTurn: null, busyUntil: null })
    .where(and(eq(chatThreads.tenantId, input.tenantId), eq(chatThreads.threadId, input.threadId), eq(chatThreads.busyTurn, input.turnId)));
}

/** The thread row, or undefined. */
export async function findThread(tx: Tx, tenantId: string, threadId: string): Promise<ThreadRow | undefined> {
  const [row] = await tx.select().from(chatThreads).where(and(eq(chatThreads.tenantId, tenantId), eq(chatThreads.threadId, threadId)));
  return row;
}

/** Checkpoints of a thread, newest first, older than `beforeSeq` when given. */
export async function listCheckpoints(
  tx: Tx,
  input: { tenantId: string; threadId: string; limit: number; beforeSeq?: number },
): Promise<CheckpointRow[]> {
  const where = [eq(chatCheckpoints.tenantId, input.tenantId), eq(chatCheckpoints.threadId, input.threadId)];
  if (input.beforeSeq !== undefined) where.push(lt(chatCheckpoints.seq, input.beforeSeq));
  return tx
    .select()
    .from(chatCheckpoints)
    .where(and(...where))
    .orderBy(desc(chatCheckpoints.seq))
    .limit(input.limit);
}
