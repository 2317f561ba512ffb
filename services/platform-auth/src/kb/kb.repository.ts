import { and, desc, eq, ilike, or } from 'drizzle-orm';
import type { TenantTx, Tx } from '@care/db';
import { kbDocuments } from '../db/schema';

/** Indexing state of a document in the memory service. */
type IndexStatus = 'NOT_INDEXED' | 'INDEXED' | 'FAILED';

/** A stored knowledge-base document. */
export interface KbDocumentRecord {
  tenantId: string;
  id: string;
  title: string;
  content: string;
  contentType: string;
  tags: string[];
  indexStatus: IndexStatus;
  createdAt: Date;
  updatedAt: Date;
}

const cast = (r: typeof kbDocuments.$inferSelect): KbDocumentRecord => ({
  ...r,
  indexStatus: r.indexStatus as IndexStatus,
});
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The tenant's documents, newest first, optionally filtered by a text in the title or content. */
export async function listDocuments(
  tx: TenantTx,
  opts: { q?: string; limit: number; offset: number },
): Promise<KbDocumentRecord[]> {
  const tenant = eq(kbDocuments.tenantId, tx.tenantId);
  const text = opts.q ? `%${escapeLike(opts.q)}%` : undefined;
  const where = text
    ? and(tenant, or(ilike(kbDocuments.title, text), ilike(kbDocuments.content, text)))
    : tenant;
  const rows = await tx
    .select()
    .from(kbDocuments)
    .where(where)
    .orderBy(desc(kbDocuments.createdAt), desc(kbDocuments.id))
    .limit(opts.limit)
    .offset(opts.offset);
  return rows.map(cast);
}

/** One document. */
export async function findDocument(tx: TenantTx, id: string): Promise<KbDocumentRecord | undefined> {
  const [row] = await tx
    .select()
    .from(kbDocuments)
    .where(and(eq(kbDocuments.tenantId, tx.tenantId), eq(kbDocuments.id, id)));
  return row && cast(row);
}

/** Inserts a document. */
export async function insertDocument(tx: Tx, row: KbDocumentRecord): Promise<void> {
  await tx.insert(kbDocuments).values(row);
}

/** Records the outcome of indexing. */
export async function setIndexStatus(tx: TenantTx, id: string, status: IndexStatus): Promise<void> {
  await tx
    .update(kbDocuments)
    .set({ indexStatus: status })
    .where(and(eq(kbDocuments.tenantId, tx.tenantId), eq(kbDocuments.id, id)));
}

/** Deletes a document. */
export async function deleteDocument(tx: TenantTx, id: string): Promise<boolean> {
  return (
    (
      await tx
        .delete(kbDocuments)
        .where(and(eq(kbDocuments.tenantId, tx.tenantId), eq(kbDocuments.id, id)))
        .returning({ id: kbDocuments.id })
    ).length > 0
  );
}
