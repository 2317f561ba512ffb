import { and, asc, eq } from 'drizzle-orm';
import type { TenantTx, Tx } from '@care/db';
import { workflows } from '../db/schema';
import type { WorkflowStep } from './workflow.schemas';

/** A stored workflow definition. */
export interface WorkflowRecord {
  tenantId: string;
  id: string;
  name: string;
  description: string | null;
  version: number;
  steps: WorkflowStep[];
  createdAt: Date;
  updatedAt: Date;
}

const cast = (r: typeof workflows.$inferSelect): WorkflowRecord => ({
  ...r,
  steps: r.steps as WorkflowStep[],
});

/** The tenant's workflows by name. */
export async function listWorkflows(
  tx: TenantTx,
  page: { limit: number; offset: number },
): Promise<WorkflowRecord[]> {
  const rows = await tx
    .select()
    .from(workflows)
    .where(eq(workflows.tenantId, tx.tenantId))
    .orderBy(asc(workflows.name))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map(cast);
}

/** One workflow. */
export async function findWorkflow(tx: TenantTx, id: string): Promise<WorkflowRecord | undefined> {
  const [row] = await tx
    .select()
    .from(workflows)
    .where(and(eq(workflows.tenantId, tx.tenantId), eq(workflows.id, id)));
  return row && cast(row);
}

/** Inserts a workflow. */
export async function insertWorkflow(tx: Tx, row: WorkflowRecord): Promise<void> {
  await tx.insert(workflows).values(row);
}

/** Replaces a workflow if it is still at `expectedVersion`; returns the new row or undefined. */
export async function replaceWorkflow(
  tx: TenantTx,
  id: string,
  expectedVersion: number,
  change: Pick<WorkflowRecord, 'name' | 'description' | 'steps' | 'updatedAt'>,
): Promise<WorkflowRecord | undefined> {
  const [row] = await tx
    .update(workflows)
    .set({ ...change, version: expectedVersion + 1 })
    .where(
      and(eq(workflows.tenantId, tx.tenantId), eq(workflows.id, id), eq(workflows.version, expectedVersion)),
    )
    .returning();
  return row && cast(row);
}

/** Deletes a workflow. */
export async function deleteWorkflow(tx: TenantTx, id: string): Promise<boolean> {
  return (
    (
      await tx
        .delete(workflows)
        .where(and(eq(workflows.tenantId, tx.tenantId), eq(workflows.id, id)))
        .returning({ id: workflows.id })
    ).length > 0
  );
}
