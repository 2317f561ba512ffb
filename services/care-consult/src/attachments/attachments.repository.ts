import { and, count, desc, eq } from 'drizzle-orm';
import type { TenantTx } from '@care/db';
import { attachments } from '../db/schema';

/** One attachment's metadata row. */
export type AttachmentRow = typeof attachments.$inferSelect;

/** Inserts one row (tenant must be the transaction's tenant: the RLS policy checks it). */
export async function insertAttachment(tx: TenantTx, row: AttachmentRow): Promise<void> {
  await tx.insert(attachments).values(row);
}

/** How many attachments a user keeps. */
export async function countOwned(tx: TenantTx, ownerId: string): Promise<number> {
  const [r] = await tx.select({ n: count() }).from(attachments).where(eq(attachments.ownerId, ownerId));
  return Number(r?.n ?? 0);
}

/** A user's attachments, newest first. */
export function listOwned(tx: TenantTx, ownerId: string, limit: number): Promise<AttachmentRow[]> {
  return tx
    .select()
    .from(attachments)
    .where(eq(attachments.ownerId, ownerId))
    .orderBy(desc(attachments.createdAt), desc(attachments.id))
    .limit(limit);
}

/** One attachment of the owner, or undefined (another user's id looks exactly like a missing one). */
export async function findOwned(
  tx: TenantTx,
  ownerId: string,
  id: string,
): Promise<AttachmentRow | undefined> {
  const [row] = await tx
    .select()
    .from(attachments)
    .where(and(eq(attachments.id, id), eq(attachments.ownerId, ownerId)))
    .limit(1);
  return row;
}

/** Deletes one attachment row of the owner; true when a row went away. */
export async function deleteOwned(tx: TenantTx, ownerId: string, id: string): Promise<boolean> {
  const gone = await tx
    .delete(attachments)
    .where(and(eq(attachments.id, id), eq(attachments.ownerId, ownerId)))
    .returning({ id: attachments.id });
  return gone.length > 0;
}
