import { eq } from 'drizzle-orm';
import type { TenantTx, Tx } from '@care/db';
import { partitions } from '../db/schema';

/** A partition's vector space and consolidation bookkeeping. */
export interface PartitionRow {
  tenantId: string;
  embeddingModel: string;
  dimension: number;
  createdAt: Date;
  lastReflectAt: Date | null;
  lastReflectReport: unknown;
}

/** The partition row of the current tenant, if any. */
export async function findPartition(tx: TenantTx): Promise<PartitionRow | undefined> {
  const { tenantId } = tx;
  const rows = await tx.select().from(partitions).where(eq(partitions.tenantId, tenantId));
  return rows[0];
}

/** Records the partition's space unless it already exists; returns the row that holds. */
export async function createPartitionIfMissing(
  tx: TenantTx,
  model: string,
  dimension: number,
  now: Date,
): Promise<PartitionRow> {
  const { tenantId } = tx;
  await tx
    .insert(partitions)
    .values({ tenantId, embeddingModel: model, dimension, createdAt: now })
    .onConflictDoNothing();
  return (await findPartition(tx))!;
}

/** Stores the last consolidation report. */
export async function saveReflectReport(tx: TenantTx, at: Date, report: unknown): Promise<void> {
  const { tenantId } = tx;
  await tx
    .update(partitions)
    .set({ lastReflectAt: at, lastReflectReport: report })
    .where(eq(partitions.tenantId, tenantId));
}

/** Every partition id (system path: the periodic consolidation walks them all). */
export async function listPartitionIds(tx: Tx): Promise<string[]> {
  const rows = await tx.select({ tenantId: partitions.tenantId }).from(partitions);
  return rows.map((r) => r.tenantId);
}
