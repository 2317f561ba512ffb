import { eq } from 'drizzle-orm';
import type { TenantTx, Tx } from '@care/db';
import { tenantConfigs } from '../db/schema';

/** Stored settings and branding of a tenant. */
export interface TenantConfigRecord {
  tenantId: string;
  settings: Record<string, unknown>;
  branding: Record<string, unknown>;
  updatedAt: Date;
}

/** The tenant's row, locked for update when `forUpdate` (read-modify-write of a merge patch). */
export async function findTenantConfig(
  tx: TenantTx,
  forUpdate = false,
): Promise<TenantConfigRecord | undefined> {
  const q = tx.select().from(tenantConfigs).where(eq(tenantConfigs.tenantId, tx.tenantId));
  const [row] = await (forUpdate ? q.for('update') : q);
  return row;
}

/** Inserts or replaces the tenant's row. */
export async function upsertTenantConfig(tx: Tx, row: TenantConfigRecord): Promise<void> {
  await tx
    .insert(tenantConfigs)
    .values(row)
    .onConflictDoUpdate({
      target: tenantConfigs.tenantId,
      set: { settings: row.settings, branding: row.branding, updatedAt: row.updatedAt },
    });
}
