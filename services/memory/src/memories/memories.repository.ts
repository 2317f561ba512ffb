import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { TenantTx, Tx } from '@care/db';
import { memories, memoryAccess, memoryLinks } from '../db/schema';
import type { LinkView, MemoryRow, Tier } from './memory.model';
import { keptCondition, unexpiredCondition } from './memory.sql';

/** The columns of {@link MemoryRow}: everything but the vector and the tsvector, plus access statistics. */
const memoryColumns = {
  tenantId: memories.tenantId,
  id: memories.id,
  tier: sql<Tier>`${memories.tier}`,
  type: memories.type,
  source: memories.source,
  text: memories.text,
  tags: memories.tags,
  dim: memories.dim,
  strength: memories.strength,
  positiveCount: memories.positiveCount,
  negativeCount: memories.negativeCount,
  createdAt: memories.createdAt,
  updatedAt: memories.updatedAt,
  suppressedAt: memories.suppressedAt,
  resolvedAt: memories.resolvedAt,
  forgottenAt: memories.forgottenAt,
  expiresAt: memories.expiresAt,
  mergedInto: memories.mergedInto,
  mergedAt: memories.mergedAt,
  consolidatedInto: memories.consolidatedInto,
  decayedAt: memories.decayedAt,
  accessCount: sql<number>`coalesce(${memoryAccess.accessCount}, 0)::int`,
  lastAccessedAt: memoryAccess.lastAccessedAt,
};

/** What a new memory is made of: its content, its vector, and optionally a strength and an expiry. */
export type NewMemory = Pick<
  MemoryRow,
  'tenantId' | 'id' | 'tier' | 'type' | 'source' | 'text' | 'tags' | 'createdAt'
> & {
  embedding: number[];
  strength?: number;
  expiresAt?: Date | null;
};

function selectMemories(tx: Tx, where: SQL | undefined) {
  return tx
    .select(memoryColumns)
    .from(memories)
    .leftJoin(
      memoryAccess,
      and(eq(memoryAccess.tenantId, memories.tenantId), eq(memoryAccess.memoryId, memories.id)),
    )
    .where(where);
}

/** One memory of the tenant, whatever its state. */
export async function findMemory(tx: TenantTx, id: string): Promise<MemoryRow | undefined> {
  const rows = await selectMemories(tx, and(eq(memories.tenantId, tx.tenantId), eq(memories.id, id)));
  return rows[0];
}

/** Several memories by id (any state). */
export async function findMemories(tx: TenantTx, ids: string[]): Promise<MemoryRow[]> {
  if (ids.length === 0) return [];
  return selectMemories(tx, and(eq(memories.tenantId, tx.tenantId), inArray(memories.id, ids)));
}

// A new memory has no access row: its statistics are known without the join.
const { accessCount: _count, lastAccessedAt: _last, ...ownColumns } = memoryColumns;
const insertedColumns = {
  ...ownColumns,
  accessCount: sql<number>`0`.mapWith(Number),
  lastAccessedAt: sql<Date | null>`null`,
};

/** Inserts a memory and answers it as stored; undefined when the id is taken (nothing written). */
export async function insertMemory(tx: Tx, m: NewMemory): Promise<MemoryRow | undefined> {
  return (await insertMemories(tx, [m]))[0];
}

/** Inserts memories in one statement and answers those stored; a memory whose id is taken is left out. */
export async function insertMemories(tx: Tx, list: readonly NewMemory[]): Promise<MemoryRow[]> {
  if (list.length === 0) return [];
  return tx
    .insert(memories)
    .values(
      list.map((m) => ({
        ...m,
        dim: m.embedding.length,
        strength: m.strength ?? 0.5,
        updatedAt: m.createdAt,
        expiresAt: m.expiresAt ?? null,
      })),
    )
    .onConflictDoNothing()
    .returning(insertedColumns);
}

/** Column changes a maintenance operation may make. */
export type MemoryPatch = Partial<{
  strength: number;
  positiveCount: number;
  negativeCount: number;
  suppressedAt: Date | null;
  resolvedAt: Date | null;
  forgottenAt: Date | null;
  mergedInto: string | null;
  mergedAt: Date | null;
  consolidatedInto: string | null;
  decayedAt: Date | null;
  tags: string[];
  updatedAt: Date;
}>;

/** Applies a patch to one memory. */
export async function updateMemory(tx: TenantTx, id: string, patch: MemoryPatch): Promise<void> {
  await tx
    .update(memories)
    .set(patch)
    .where(and(eq(memories.tenantId, tx.tenantId), eq(memories.id, id)));
}

/** Live working-tier memories (the scratchpad), newest first. */
export async function listScratchpad(tx: TenantTx, now: Date): Promise<MemoryRow[]> {
  const { tenantId } = tx;
  return selectMemories(
    tx,
    and(
      eq(memories.tenantId, tenantId),
      eq(memories.tier, 'working'),
      // Suppressed entries stay listed: the scratchpad shows what is kept and not expired.
      sql`${keptCondition('memories')} and ${unexpiredCondition(now, 'memories')}`,
    ),
  ).orderBy(sql`${memories.createdAt} desc`);
}

/** A provenance link to record. */
export interface NewLink {
  fromId: string;
  relation: string;
  toId: string;
}

/** Records provenance links (duplicates are ignored); also on the system path (fired reminders), hence the tenant. */
export async function insertLinks(tx: Tx, tenantId: string, links: NewLink[], now: Date): Promise<void> {
  if (links.length === 0) return;
  await tx
    .insert(memoryLinks)
    .values(links.map((l) => ({ tenantId, ...l, createdAt: now })))
    .onConflictDoNothing();
}

/** Links from and to a memory. */
export async function listLinks(tx: TenantTx, id: string): Promise<LinkView[]> {
  const { tenantId } = tx;
  const rows = await tx
    .select()
    .from(memoryLinks)
    .where(and(eq(memoryLinks.tenantId, tenantId), or(eq(memoryLinks.fromId, id), eq(memoryLinks.toId, id))))
    .orderBy(memoryLinks.createdAt, memoryLinks.relation, memoryLinks.toId);
  return rows.map((r) =>
    r.fromId === id
      ? { relation: r.relation, direction: 'outgoing' as const, id: r.toId }
      : { relation: r.relation, direction: 'incoming' as const, id: r.fromId },
  );
}

/** Adds one access to each memory (recall hits). */
export async function recordAccess(tx: TenantTx, ids: string[], now: Date): Promise<void> {
  const { tenantId } = tx;
  if (ids.length === 0) return;
  await tx
    .insert(memoryAccess)
    .values(ids.map((memoryId) => ({ tenantId, memoryId, accessCount: 1, lastAccessedAt: now })))
    .onConflictDoUpdate({
      target: [memoryAccess.tenantId, memoryAccess.memoryId],
      set: { accessCount: sql`${memoryAccess.accessCount} + 1`, lastAccessedAt: now },
    });
}
