import { sql } from 'drizzle-orm';
import type { TenantTx } from '@care/db';
import { sqlArray } from '../db/sql';
import { vectorType } from '../db/vector-index';
import {
  memorySummaryColumns,
  recallableCondition,
  selectSummaries,
  type MemorySummary,
} from '../memories/memory.sql';

/** Takes the partition's consolidation lock for this transaction; false if another run holds it. */
export async function tryReflectLock(tx: TenantTx): Promise<boolean> {
  const { tenantId } = tx;
  const r = await tx.execute<{ locked: boolean }>(
    sql`select pg_try_advisory_xact_lock(hashtext('care-memory-reflect'), hashtext(${tenantId})) as locked`,
  );
  return r.rows[0]?.locked === true;
}

/** Deletes scratchpad entries whose time to live has passed (with their stats and links); returns their ids. */
export async function purgeExpired(tx: TenantTx, now: Date): Promise<string[]> {
  const { tenantId } = tx;
  const r = await tx.execute<{ id: string }>(sql`
    delete from memories where tenant_id = ${tenantId} and tier = 'working' and forgotten_at is null
      and expires_at is not null and expires_at <= ${now}
    returning id`);
  const ids = r.rows.map((x) => x.id);
  if (ids.length) {
    const list = sqlArray(ids, 'text');
    await tx.execute(
      sql`delete from memory_access where tenant_id = ${tenantId} and memory_id = any(${list})`,
    );
    await tx.execute(
      sql`delete from memory_links where tenant_id = ${tenantId} and (from_id = any(${list}) or to_id = any(${list}))`,
    );
  }
  return ids;
}

/** A memory consolidation looks at. */
export type SeedRow = MemorySummary;

/** Live, non-document memories in creation order (bounded); `episodicOnly` limits to unconsolidated episodes. */
export async function listSeeds(
  tx: TenantTx,
  dim: number,
  now: Date,
  limit: number,
  episodicOnly: boolean,
): Promise<SeedRow[]> {
  const { tenantId } = tx;
  const filter = episodicOnly
    ? sql`and m.tier = 'episodic' and m.consolidated_into is null`
    : sql`and m.tier <> 'documents'`;
  return selectSummaries(
    tx,
    sql`
    select ${memorySummaryColumns()} from memories m
    where m.tenant_id = ${tenantId} and m.dim = ${sql.raw(String(dim))} and ${recallableCondition(now)} ${filter}
    order by m.created_at desc, m.id limit ${limit}`,
  );
}

/**
 * The `k` nearest live memories of the same tier and type as `id`, with their cosine similarity. The query
 * vector is an uncorrelated sub-select, which pgvector can serve from the HNSW index.
 */
export async function nearestSiblings(
  tx: TenantTx,
  id: string,
  dim: number,
  now: Date,
  k: number,
  episodicOnly: boolean,
): Promise<Array<{ id: string; similarity: number }>> {
  const { tenantId } = tx;
  const vt = sql.raw(vectorType(dim));
  const me = sql`(select embedding::${vt} from memories where tenant_id = ${tenantId} and id = ${id})`;
  const filter = episodicOnly ? sql`and m.consolidated_into is null` : sql``;
  const r = await tx.execute<{ id: string; distance: number }>(sql`
    select m.id, m.embedding::${vt} <=> ${me} as distance from memories m
    where m.tenant_id = ${tenantId} and m.dim = ${sql.raw(String(dim))} and m.id <> ${id} and ${recallableCondition(now)} ${filter}
      and m.tier = (select tier from memories where tenant_id = ${tenantId} and id = ${id})
      and m.type = (select type from memories where tenant_id = ${tenantId} and id = ${id})
    order by m.embedding::${vt} <=> ${me} limit ${k}`);
  return r.rows.map((x) => ({ id: x.id, similarity: 1 - Number(x.distance) }));
}

/** Vectors of some memories, by id. */
export async function loadEmbeddings(tx: TenantTx, ids: string[]): Promise<Map<string, number[]>> {
  const { tenantId } = tx;
  if (!ids.length) return new Map();
  const list = sqlArray(ids, 'text');
  const r = await tx.execute<{ id: string; embedding: string }>(
    sql`select id, embedding::text as embedding from memories where tenant_id = ${tenantId} and id = any(${list})`,
  );
  return new Map(r.rows.map((x) => [x.id, JSON.parse(x.embedding) as number[]]));
}

/**
 * Decays weak memories nobody recalled for `unusedDays`: strength x `factor` (not below `floor`), at most once
 * per `intervalDays`. Documents keep their strength. Returns each change.
 */
export async function decayUnused(
  tx: TenantTx,
  now: Date,
  o: { weakBelow: number; unusedDays: number; intervalDays: number; factor: number; floor: number },
): Promise<Array<{ id: string; from: number; to: number }>> {
  const { tenantId } = tx;
  const unusedSince = new Date(now.getTime() - o.unusedDays * 86_400_000);
  const decayedBefore = new Date(now.getTime() - o.intervalDays * 86_400_000);
  const r = await tx.execute<{ id: string; before: number; after: number }>(sql`
    with weak as (
      select m.id, m.strength from memories m
      left join memory_access a on a.tenant_id = m.tenant_id and a.memory_id = m.id
      where m.tenant_id = ${tenantId} and m.tier <> 'documents' and ${recallableCondition(now)}
        and m.strength <= ${o.weakBelow} and m.strength > ${o.floor}
        and coalesce(a.last_accessed_at, m.created_at) < ${unusedSince}
        and (m.decayed_at is null or m.decayed_at < ${decayedBefore})
      for update of m
    )
    update memories u set strength = greatest(${o.floor}::float8, u.strength * ${o.factor}::float8), decayed_at = ${now}
    from weak where u.tenant_id = ${tenantId} and u.id = weak.id
    returning u.id, weak.strength as before, u.strength as after`);
  return r.rows.map((x) => ({ id: x.id, from: Number(x.before), to: Number(x.after) }));
}
