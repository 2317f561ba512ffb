import { sql } from 'drizzle-orm';
import type { TenantTx } from '@care/db';
import { sqlArray } from '../db/sql';
import { vectorLiteral, vectorType } from '../db/vector-index';
import type { Tier } from '../memories/memory.model';
import { recallableCondition } from '../memories/memory.sql';
import { orTsquery, type WeightedTerm } from '../recall/lexical';
import { termsSql } from '../recall/recall.repository';

/** Where one memory stands in each search for a query, counted exactly among the recallable memories. */
export interface StandingRow {
  vectorRank: number;
  vectorSimilarity: number;
  /** Absent when the full-text search cannot find the memory (it has none of the searched terms). */
  textRank?: number;
  textScore: number;
}

/**
 * The memory's cosine similarity and lexical score for the query, and its exact rank in each search
 * (1 + how many recallable memories of the searched tiers do better). Works for memories in any state, so
 * why-not can show what a suppressed memory would have scored. It scans; it is not on the recall path.
 */
export async function findStanding(
  tx: TenantTx,
  q: {
    id: string;
    dim: number;
    queryVector: number[];
    terms: WeightedTerm[];
    tiers: Tier[];
    now: Date;
  },
): Promise<StandingRow | undefined> {
  const vt = sql.raw(vectorType(q.dim));
  const dim = sql.raw(String(q.dim));
  const qv = sql`${vectorLiteral(q.queryVector)}::${vt}`;
  const filterTerms = q.terms.filter((t) => t.filter).map((t) => t.lexeme);
  const orq = filterTerms.length ? orTsquery(filterTerms) : null;
  const { cte, score } = termsSql(q.terms);
  const others = sql`m.tenant_id = ${tx.tenantId} and m.dim = ${dim} and m.tier = any(${sqlArray(q.tiers, 'text')}) and ${recallableCondition(q.now)} and m.id <> ${q.id}`;
  const result = await tx.execute<{
    distance: number;
    vector_rank: string | number;
    text_score: number;
    text_rank: string | number | null;
  }>(sql`
    with ${cte},
    me as (
      select m.id, m.embedding::${vt} <=> ${qv} as distance, ${score} as text_score, coalesce(m.tsv @@ ${orq}::tsquery, false) as searchable
      from memories m where m.tenant_id = ${tx.tenantId} and m.id = ${q.id} and m.dim = ${dim}
    )
    select me.distance, me.text_score,
      1 + (select count(*) from memories m where ${others} and (m.embedding::${vt} <=> ${qv}) < me.distance) as vector_rank,
      case when me.searchable then
        1 + (select count(*) from memories m where ${others} and m.tsv @@ ${orq}::tsquery and ${score} > me.text_score)
      end as text_rank
    from me
  `);
  const r = result.rows[0];
  if (!r) return undefined;
  return {
    vectorRank: Number(r.vector_rank),
    vectorSimilarity: 1 - Number(r.distance),
    textRank: r.text_rank === null ? undefined : Number(r.text_rank),
    textScore: Number(r.text_score),
  };
}
