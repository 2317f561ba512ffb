import { sql } from 'drizzle-orm';
import type { Tx } from '@care/db';
import { vectorType } from '../db/vector-index';
import type { Tier } from './fusion';
import { liveCondition } from './recall.repository';

/** Where one memory stands in each search for a query, counted exactly among the recallable memories. */
export interface StandingRow {
  vectorRank: number;
  vectorSimilarity: number;
  /** Absent when the memory matches none of the query's words. */
  textRank?: number;
  textScore?: number;
}

/**
 * The memory's cosine similarity and full-text score for the query, and its exact rank in each search
 * (1 + how many recallable memories of the searched tiers do better). Used by why-not; it scans, so it is
 * not on the recall path.
 */
export async function findStanding(
  tx: Tx,
  q: { tenantId: string; id: string; dim: number; queryVector: number[]; textQuery: string; tiers: Tier[]; now: Date },
): Promise<StandingRow | undefined> {
  const vt = sql.raw(vectorType(q.dim));
  const qv = sql`${JSON.stringify(q.queryVector)}::${vt}`;
  const tiers = sql`array[${sql.join(
    q.tiers.map((t) => sql`${t}`),
    sql`, `,
  )}]::text[]`;
  const others = sql`m.tenant_id = ${q.tenantId} and m.dim = ${sql.raw(String(q.dim))} and m.tier = any(${tiers}) and ${liveCondition(q.now)} and m.id <> me.id`;
  const result = await tx.execute<{ distance: number; vector_rank: string | number; text_score: number | null; text_rank: string | number | null }>(sql`
    with me as (
      select id, embedding::${vt} <=> ${qv} as distance, tsv from memories
      where tenant_id = ${q.tenantId} and id = ${q.id} and dim = ${sql.raw(String(q.dim))}
    ), query as (select websearch_to_tsquery('english', ${q.textQuery}) as tq)
    select me.distance,
      1 + (select count(*) from memories m where ${others} and (m.embedding::${vt} <=> ${qv}) < me.distance) as vector_rank,
      case when ${q.textQuery} <> '' and me.tsv @@ query.tq then ts_rank(me.tsv, query.tq) end as text_score,
      case when ${q.textQuery} <> '' and me.tsv @@ query.tq then
        1 + (select count(*) from memories m where ${others} and m.tsv @@ query.tq and ts_rank(m.tsv, query.tq) > ts_rank(me.tsv, query.tq))
      end as text_rank
    from me, query
  `);
  const r = result.rows[0];
  if (!r) return undefined;
  return {
    vectorRank: Number(r.vector_rank),
    vectorSimilarity: 1 - Number(r.distance),
    textRank: r.text_rank === null ? undefined : Number(r.text_rank),
    textScore: r.text_score === null ? undefined : Number(r.text_score),
  };
}
