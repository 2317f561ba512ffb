import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '@care/db';
import { vectorType } from '../db/vector-index';
import type { Tier } from './fusion';

/** A memory one of the two searches found, with its rank and score in that search. */
export interface CandidateRow {
  id: string;
  tier: Tier;
  type: string;
  source: string;
  text: string;
  tags: string[];
  strength: number;
  createdAt: Date;
  resolved: boolean;
  vectorRank?: number;
  vectorSimilarity?: number;
  textRank?: number;
  textScore?: number;
}

/** Parameters of one candidate search. */
export interface CandidateQuery {
  tenantId: string;
  dim: number;
  queryVector: number[];
  /** The query already turned into an OR of its words (see {@link orQuery}); empty: no full-text search. */
  textQuery: string;
  tiers: Tier[];
  /** How many each search returns. */
  pool: number;
  now: Date;
  /** Bench baseline: disable the HNSW index so the vector search is an exact scan. */
  exact?: boolean;
}

/** Words of a query joined by `or` for `websearch_to_tsquery`, which never fails on user input. */
export function orQuery(text: string): string {
  const words = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w !== 'or');
  return [...new Set(words)].slice(0, 64).join(' or ');
}

/** SQL condition: the memory can be recalled now (not forgotten, merged, expired or suppressed). */
export function liveCondition(now: Date, alias = 'm'): SQL {
  const a = sql.raw(alias);
  return sql`${a}.forgotten_at is null and ${a}.merged_into is null and ${a}.suppressed_at is null and (${a}.expires_at is null or ${a}.expires_at > ${now})`;
}

function tierList(tiers: Tier[]): SQL {
  return sql`array[${sql.join(
    tiers.map((t) => sql`${t}`),
    sql`, `,
  )}]::text[]`;
}

/**
 * Both searches in one statement: the `pool` nearest live memories by cosine distance (HNSW, iterative scan so
 * RLS and flag filters do not starve it) and the `pool` best full-text matches (GIN), with their ranks.
 * Ranks are SQL `rank()`: equal distances or scores share a rank, so identical memories score identically.
 */
export async function findCandidates(tx: Tx, q: CandidateQuery): Promise<CandidateRow[]> {
  const vt = sql.raw(vectorType(q.dim));
  const dim = sql.raw(String(q.dim));
  const qv = sql`${JSON.stringify(q.queryVector)}::${vt}`;
  const live = liveCondition(q.now);
  await tx.execute(
    sql`select set_config('hnsw.ef_search', ${String(Math.max(40, Math.min(1000, q.pool)))}, true),
               set_config('hnsw.iterative_scan', 'relaxed_order', true),
               set_config('enable_indexscan', ${q.exact ? 'off' : 'on'}, true)`,
  );
  const result = await tx.execute<{
    id: string;
    tier: Tier;
    type: string;
    source: string;
    text: string;
    tags: string[];
    strength: number;
    created_at: string | Date;
    resolved: boolean;
    vector_rank: string | number | null;
    distance: number | null;
    text_rank: string | number | null;
    text_score: number | null;
  }>(sql`
    with v as (
      select id, distance, rank() over (order by distance) as vector_rank from (
        select m.id, (m.embedding::${vt} <=> ${qv}) as distance
        from memories m
        where m.tenant_id = ${q.tenantId} and m.dim = ${dim} and m.tier = any(${tierList(q.tiers)}) and ${live}
        order by m.embedding::${vt} <=> ${qv}
        limit ${q.pool}
      ) nearest
    ),
    t as (
      select id, text_score, rank() over (order by text_score desc) as text_rank from (
        select m.id, ts_rank(m.tsv, query) as text_score
        from memories m, websearch_to_tsquery('english', ${q.textQuery}) query
        where ${q.textQuery} <> '' and m.tsv @@ query and m.tenant_id = ${q.tenantId} and m.dim = ${dim}
          and m.tier = any(${tierList(q.tiers)}) and ${live}
        order by text_score desc
        limit ${q.pool}
      ) matches
    )
    select m.id, m.tier, m.type, m.source, m.text, m.tags, m.strength, m.created_at, (m.resolved_at is not null) as resolved,
           v.vector_rank, v.distance, t.text_rank, t.text_score
    from (select id from v union select id from t) found
    join memories m on m.tenant_id = ${q.tenantId} and m.id = found.id
    left join v on v.id = found.id
    left join t on t.id = found.id
  `);
  return result.rows.map((r) => ({
    id: r.id,
    tier: r.tier,
    type: r.type,
    source: r.source,
    text: r.text,
    tags: r.tags,
    strength: Number(r.strength),
    createdAt: new Date(r.created_at),
    resolved: r.resolved,
    vectorRank: r.vector_rank === null ? undefined : Number(r.vector_rank),
    vectorSimilarity: r.distance === null ? undefined : 1 - Number(r.distance),
    textRank: r.text_rank === null ? undefined : Number(r.text_rank),
    textScore: r.text_score === null ? undefined : Number(r.text_score),
  }));
}
