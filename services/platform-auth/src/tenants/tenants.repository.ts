import { asc, eq } from 'drizzle-orm';
import type { Tx } from '@care/db';
import { tenants } from '../db/schema';

/** A tenant row. */
export interface TenantRecord {
  id: string;
  name: string;
  createdAt: Date;
  updatedAt: Date;
}

/** All tenants, by id. */
export async function listTenants(tx: Tx, page: { limit: number; offset: number }): Promise<TenantRecord[]> {
  return tx.select().from(tenants).orderBy(asc(tenants.id)).limit(page.limit).offset(page.offset);
}

/** One tenant. */
export async function findTenant(tx: Tx, id: string): Promise<TenantRecord | undefined> {
  const [row] = await tx.select().from(tenants).where(eq(tenants.id, id));
  return row;
}

/** Inserts a tenant; a taken id is a unique violation. */
export async function insertTenant(tx: Tx, row: TenantRecord): Promise<void> {
  await tx.insert(tenants).values(row);
}

/** Creates the tenant unless it exists. */
export async function ensureTenant(tx: Tx, id: string, name: string, now: Date): Promise<void> {
  await tx.insert(tenants).values({ id, name, createdAt: now, updatedAt: now }).onConflictDoNothing();
}

/** Renames a tenant. */
export async function updateTenant(
  tx: Tx,
  id: string,
  name: string,
  now: Date,
): Promise<TenantRecord | undefined> {
  const [row] = await tx.update(tenants).set({ name, updatedAt: now }).where(eq(tenants.id, id)).returning();
  return row;
}

/** Deletes a tenant; refused by the database (foreign key) while it has users. */
export async function deleteTenant(tx: Tx, id: string): Promise<boolean> {
  return (await tx.delete(tenants).where(eq(tenants.id, id)).returning({ id: tenants.id })).length > 0;
}
