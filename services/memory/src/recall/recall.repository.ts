import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { escapeLiteral } from 'pg';
import type { TenantTx } from '@care/db';
import { sqlArray } from '../db/sql';
import { vectorLiteral, vectorType } from '../db/vector-index';
import type { Tier } from '../memories/memory.model';
import {
  memorySummaryColumns,
  memorySummaryOf,
  recallableCondition,
  type MemorySummary,
  type MemorySummarySqlRow,
} from '../memories/memory.sql';
import { lexemesSql, orTsquery, usableLexemes, type WeightedTerm } from './lexical';
import type { TextCandidate } from './lexical-index';

/** A memory one of the two searches found, with both signals and its rank in each search that found it. */
export interface CandidateRow extends MemorySummary {
  vectorRank?: number;
  /** Cosine similarity to the query (computed for every candidate). */
  vectorSimilarity: number;
  textRank?: number;
  /** IDF-weighted share of the query terms the memory contains, in [0, 1] (computed for every candidate). */
  textScore: number;
}

/** Parameters of one candidate search. */
export interface CandidateQuery {
  dim: number;
  queryVector: number[];
  /** The query's terms with their IDF (see TermStats); empty: no full-text search. */
  terms: WeightedTerm[];
  tiers: Tier[];
  /** How many each search returns. */
  pool: number;
  now: Date;
  /** Bench baseline: disable the HNSW index so the vector search is an exact scan. */
  exact?: boolean;
  /** Restrict to one memory (why-not scores a memory with the same SQL). */
  onlyId?: string;
  /** Only memories carrying at least one of these tags (ADR 0310): part of both searches, not a filter after them. */
  tagsAny?: string[];
  /** `prepareSearch` already applied the settings in this transaction. */
  prepared?: boolean;
  /**
   * The full-text half already done in process (LexicalIndex, embedded mode): the statement runs only the vector
   * search and fetches these candidates beside its own; `score` gives the lexical score of any other memory.
   */
  inProcess?: {
    text: TextCandidate[];
    score: (id: string) => number;
    /**
     * The database session (the PGlite instance) the statement runs on: with it, the statement is prepared
     * once per session and vector size and executed by name, so it is parsed and planned once (ADR 0307).
     */
    session?: object;
  };
}

/** The CTE `terms (l, idf, tq)` of a query and the lexical score of the row aliased `m` against it. */
export function termsSql(terms: WeightedTerm[]): { cte: SQL; score: SQL } {
  const total = terms.reduce((s, t) => s + t.idf, 0);
  const lexemes = sqlArray(
    terms.map((t) => t.lexeme),
    'text',
  );
  const idfs = sqlArray(
    terms.map((t) => t.idf),
    'float8',
  );
  const cte = sql`terms as (select w.l, w.idf, quote_literal(w.l)::tsquery as tq from unnest(${lexemes}, ${idfs}) as w(l, idf))`;
  const score =
    total > 0
      ? sql`((select coalesce(sum(terms.idf), 0) from terms where m.tsv @@ terms.tq) / ${total}::float8)`
      : sql`0::float8`;
  return { cte, score };
}

/**
 * Settings of the candidate statement for the rest of the transaction: HNSW breadth and iterative scan, and
 * sequential scans and explicit sorts discouraged (see `findCandidates`); the exact baseline turns the index off.
 */
function searchSettings(pool: number, exact?: boolean): SQL {
  return sql`set_config('hnsw.ef_search', ${String(Math.max(40, Math.min(1000, pool)))}, true),
             set_config('hnsw.iterative_scan', 'relaxed_order', true),
             set_config('enable_indexscan', ${exact ? 'off' : 'on'}, true),
             set_config('enable_seqscan', ${exact ? 'on' : 'off'}, true),
             set_config('enable_sort', ${exact ? 'on' : 'off'}, true),
             set_config('plan_cache_mode', 'force_generic_plan', true)`;
}

/** What a recall reads before its candidate statement. */
export interface SearchPreparation {
  /** The query's lexemes (as `queryLexemes` gives them). */
  lexemes: string[];
  /** The partition's vector space; undefined when nothing was ever written to it. */
  space?: { embeddingModel: string; dimension: number };
}

/**
 * One round trip before the candidate statement: applies its settings, stems the query and reads the
 * partition's vector space.
 */
export async function prepareSearch(
  tx: TenantTx,
  query: string,
  pool: number,
  exact?: boolean,
): Promise<SearchPreparation> {
  const { tenantId } = tx;
  const r = await tx.execute<{ lexemes: string[]; model: string | null; dimension: number | null }>(sql`
    select ${searchSettings(pool, exact)}, ${lexemesSql(query)} as lexemes,
           p.embedding_model as model, p.dimension
    from (select 1) as one left join partitions p on p.tenant_id = ${tenantId}`);
  const row = r.rows[0];
  return {
    lexemes: usableLexemes(row?.lexemes ?? []),
    space:
      row && row.model !== null && row.dimension !== null
        ? { embeddingModel: row.model, dimension: Number(row.dimension) }
        : undefined,
  };
}

/** One row of the candidate statement, as the driver returns it. */
type CandidateSqlRow = MemorySummarySqlRow & {
  vector_rank: string | number | null;
  similarity: number;
  text_rank: string | number | null;
  text_score: number;
};

/** Names of the candidate statements prepared in each database session (a PGlite instance is one session). */
const preparedIn = new WeakMap<object, Set<string>>();

/** The values the candidate statement takes: bound values, or `$n` placeholders for the prepared form. */
interface CandidateValues {
  tenant: SQL;
  /** The query vector, already of the vector type. */
  vector: SQL;
  tiers: SQL;
  now: Date | SQL;
  pool: SQL;
  /** Ids of the in-process full-text candidates (`text[]`); undefined: full text in SQL. */
  textIds?: SQL;
}

/**
 * The candidate statement (see `findCandidates`). With `textIds` the full-text candidates come from the in-process
 * index and only the vector search runs here; without it, both searches run in SQL (`terms` gives the scoring CTE
 * and the GIN filter).
 */
function candidateStatement(
  dim: number,
  values: CandidateValues,
  options: { terms?: WeightedTerm[]; onlyId?: string; tagsAny?: string[] } = {},
): SQL {
  const vt = sql.raw(vectorType(dim));
  // The query vector is sent and parsed once (a one-row CTE); HNSW still serves the ORDER BY on its value.
  const qv = sql`(select v from query_vector)`;
  const only = options.onlyId === undefined ? sql`` : sql`and m.id = ${options.onlyId}`;
  const tagged = options.tagsAny?.length ? sql`and m.tags && ${sqlArray(options.tagsAny, 'text')}` : sql``;
  const scope = sql`m.tenant_id = ${values.tenant} and m.dim = ${sql.raw(String(dim))} and m.tier = any(${values.tiers}) and ${recallableCondition(values.now)} ${only} ${tagged}`;
  const inProcess = values.textIds !== undefined;
  const filterTerms = (options.terms ?? []).filter((t) => t.filter).map((t) => t.lexeme);
  const orq = filterTerms.length ? orTsquery(filterTerms) : null;
  const { cte, score } = termsSql(options.terms ?? []);
  return sql`
    with query_vector as (select ${values.vector} as v),
    ${inProcess ? sql`` : sql`${cte},`}
    v as (
      select id, distance, rank() over (order by distance) as vector_rank from (
        select m.id, (m.embedding::${vt} <=> ${qv}) as distance
        from memories m where ${scope}
        order by m.embedding::${vt} <=> ${qv}
        limit ${values.pool}
      ) nearest
    ),
    ${
      inProcess
        ? sql`t as (select null::text as id, null::bigint as text_rank where false)`
        : sql`t as (
      select id, rank() over (order by text_score desc) as text_rank from (
        select m.id, ${score} as text_score
        from memories m where m.tsv @@ ${orq}::tsquery and ${scope}
        order by text_score desc
        limit ${values.pool}
      ) matches
    )`
    }
    select ${memorySummaryColumns()},
           v.vector_rank,
           -- the vector search's own distance where it has one: each vector is read and compared once.
           1 - coalesce(v.distance, m.embedding::${vt} <=> ${qv}) as similarity, t.text_rank, ${inProcess ? sql`0::float8` : score} as text_score
    from memories m
    left join v on v.id = m.id
    left join t on t.id = m.id
    -- = any(array(...)) keeps this a primary-key lookup of the few candidates, never a scan of the partition.
    where m.tenant_id = ${values.tenant} and m.id = any(array(select id from v union select id from t)${
      inProcess ? sql` || ${values.textIds}` : sql``
    })
  `;
}

const dialect = new PgDialect();

/**
 * The text of the in-process candidate statement with parameters $1 tenant, $2 query vector, $3 tiers, $4 now,
 * $5 pool, $6 ids of the full-text candidates, for PREPARE: the very statement `findCandidates` runs with bound
 * values, rendered with placeholders.
 */
function candidateStatementSql(dim: number): string {
  const [tenant, vector, tiers, now, pool, textIds] = [1, 2, 3, 4, 5, 6].map((n) => sql.raw(`$${n}`));
  const query = dialect.sqlToQuery(candidateStatement(dim, { tenant, vector, tiers, now, pool, textIds }));
  if (query.params.length > 0) throw new Error('the prepared candidate statement must not bind values');
  return query.sql;
}

/** `ARRAY[...]::text[]` of quoted literals. */
function textArrayLiteral(values: string[]): string {
  return `ARRAY[${values.map((v) => escapeLiteral(v)).join(', ')}]::text[]`;
}

/** The tenant and the query vector as bound values of a statement. */
function boundTenantAndVector(
  tx: TenantTx,
  dim: number,
  queryVector: number[],
): { tenant: SQL; vector: SQL } {
  return {
    tenant: sql`${tx.tenantId}`,
    vector: sql`${vectorLiteral(queryVector)}::${sql.raw(vectorType(dim))}`,
  };
}

/** The tenant and the query vector as quoted literals, the first two arguments of an EXECUTE. */
function literalTenantAndVector(tx: TenantTx, queryVector: number[]): string[] {
  return [escapeLiteral(tx.tenantId), `'${vectorLiteral(queryVector)}'`];
}

/**
 * Prepares the statement `name` in this database session unless it already was (PREPARE outlives the
 * transaction, also one that rolls back).
 */
async function prepareOnce(tx: TenantTx, session: object, name: string, statement: () => SQL): Promise<void> {
  let names = preparedIn.get(session);
  if (!names) preparedIn.set(session, (names = new Set()));
  if (names.has(name)) return;
  await tx.execute(statement());
  names.add(name);
}

/**
 * Runs the candidate statement by name in this session, preparing it first if needed (PREPARE outlives the
 * transaction, also one that rolls back). Arguments are quoted literals (EXECUTE takes no bind parameters); the
 * query vector is digits only. The plan is generic (`plan_cache_mode` in the search settings): planned once, not
 * at every recall.
 */
async function executePrepared(
  tx: TenantTx,
  session: object,
  q: CandidateQuery,
): Promise<{ rows: CandidateSqlRow[] }> {
  const name = `care_memory_candidates_${q.dim}`;
  await prepareOnce(tx, session, name, () =>
    sql.raw(
      `prepare ${name} (text, ${vectorType(q.dim)}, text[], timestamptz, int, text[]) as ${candidateStatementSql(q.dim)}`,
    ),
  );
  const args = [
    ...literalTenantAndVector(tx, q.queryVector),
    textArrayLiteral(q.tiers),
    `'${q.now.toISOString()}'`,
    String(Math.trunc(q.pool)),
    textArrayLiteral(q.inProcess?.text.map((c) => c.id) ?? []),
  ];
  return tx.execute<CandidateSqlRow>(sql.raw(`execute ${name}(${args.join(', ')})`));
}

/**
 * Both searches in one statement. Sequential scans and explicit sorts are discouraged for it: otherwise the planner
 * scans and sorts by distance (exact, O(partition)) whenever it underestimates the partition, instead of walking
 * the HNSW index; such plans do not degrade gracefully as a partition grows. The searches: the `pool` nearest live memories by cosine distance (HNSW, iterative scan so
 * RLS and flag filters do not starve it) and the `pool` best full-text matches (GIN filter on the query's
 * not-too-common terms, ordered by IDF-weighted term coverage). Every candidate then gets both signals.
 * Ranks are SQL `rank()`: equal distances or scores share a rank, so identical memories score identically.
 */
export async function findCandidates(tx: TenantTx, q: CandidateQuery): Promise<CandidateRow[]> {
  if (!q.prepared) await tx.execute(sql`select ${searchSettings(q.pool, q.exact)}`);
  const session = q.inProcess?.session;
  const result =
    // A tag filter takes the bound-values statement: the prepared one is the unfiltered hot path.
    session && !q.exact && q.onlyId === undefined && !q.tagsAny?.length
      ? await executePrepared(tx, session, q)
      : await tx.execute<CandidateSqlRow>(
          candidateStatement(
            q.dim,
            {
              ...boundTenantAndVector(tx, q.dim, q.queryVector),
              tiers: sqlArray(q.tiers, 'text'),
              now: q.now,
              pool: sql`${q.pool}`,
              textIds:
                q.inProcess &&
                sqlArray(
                  q.inProcess.text.map((c) => c.id),
                  'text',
                ),
            },
            { terms: q.terms, onlyId: q.onlyId, tagsAny: q.tagsAny },
          ),
        );
  const text = new Map(q.inProcess?.text.map((c) => [c.id, c]));
  const rows = result.rows.map((r) => ({
    ...memorySummaryOf(r),
    vectorRank: r.vector_rank === null ? undefined : Number(r.vector_rank),
    vectorSimilarity: Number(r.similarity),
    textRank: r.text_rank === null ? undefined : Number(r.text_rank),
    textScore: Number(r.text_score),
  }));
  if (!q.inProcess) return rows;
  const lexicalScore = q.inProcess.score;
  return rows.map((r) => ({
    ...r,
    textRank: text.get(r.id)?.textRank,
    textScore: text.get(r.id)?.textScore ?? lexicalScore(r.id),
  }));
}

/** A neighbour of a recalled memory: the memory written just before or after it in the same tier. */
export interface NeighbourRow extends CandidateRow {
  /** The recalled memory it neighbours. */
  anchorId: string;
}

/** Parameters of the neighbour look-up (the context stage of recall, ADR 0315). */
export interface NeighbourQuery {
  dim: number;
  queryVector: number[];
  /** Query terms for the lexical score in SQL; ignored when `score` is given. */
  terms: WeightedTerm[];
  /** Lexical score of a memory from the in-process index (embedded mode). */
  score?: (id: string) => number;
  /** The recalled memories whose neighbours are wanted. */
  anchorIds: string[];
  now: Date;
  /** Largest time between two neighbours. */
  windowMs: number;
  /**
   * The database session (PGlite instance) of the in-process index: with it and `score`, the statement is
   * prepared once per session and vector size and executed by name (ADR 0321), as the candidate statement is.
   */
  session?: object;
}

/** The values the neighbour statement takes: bound values, or `$n` placeholders for the prepared form. */
interface NeighbourValues {
  tenant: SQL;
  /** The query vector, already of the vector type. */
  vector: SQL;
  /** Ids of the anchors (`text[]`). */
  anchorIds: SQL;
  now: Date | SQL;
  /** The window, an `interval`. */
  window: SQL;
}

/**
 * The neighbour statement (see `findNeighbours`). `terms` gives the lexical score in SQL; without terms the
 * score column is 0 (the in-process index scores the rows).
 */
function neighbourStatement(dim: number, values: NeighbourValues, terms: WeightedTerm[] = []): SQL {
  const vt = sql.raw(vectorType(dim));
  const size = sql.raw(String(dim));
  const { cte, score } = termsSql(terms);
  const near = (op: 'before' | 'after') => {
    const cmp =
      op === 'before'
        ? sql`p.created_at < a.at and p.created_at >= a.at - ${values.window}`
        : sql`p.created_at > a.at and p.created_at <= a.at + ${values.window}`;
    const order = op === 'before' ? sql`p.created_at desc` : sql`p.created_at asc`;
    return sql`(select p.id from memories p where p.tenant_id = ${values.tenant} and p.tier = a.tier and p.dim = ${size}
       and ${cmp} and ${recallableCondition(values.now, 'p')} order by ${order} limit 1)`;
  };
  return sql`
    with query_vector as (select ${values.vector} as v), ${cte},
    a as (select x.id, x.tier, x.created_at as at from memories x
          where x.tenant_id = ${values.tenant} and x.id = any(${values.anchorIds})),
    nb as (select a.id as anchor_id, n.id from a cross join lateral (${near('before')} union all ${near('after')}) n)
    select nb.anchor_id, ${memorySummaryColumns()}, null::bigint as vector_rank,
           1 - (m.embedding::${vt} <=> (select v from query_vector)) as similarity, null::bigint as text_rank,
           ${score} as text_score
    from nb join memories m on m.tenant_id = ${values.tenant} and m.id = nb.id`;
}

/**
 * The text of the neighbour statement with parameters $1 tenant, $2 query vector, $3 anchor ids, $4 now,
 * $5 window, for PREPARE: the statement `findNeighbours` runs with bound values (scored in process), rendered
 * with placeholders.
 */
function neighbourStatementSql(dim: number): string {
  const [tenant, vector, anchorIds, now, window] = [1, 2, 3, 4, 5].map((n) => sql.raw(`$${n}`));
  const query = dialect.sqlToQuery(neighbourStatement(dim, { tenant, vector, anchorIds, now, window }));
  if (query.params.length > 0) throw new Error('the prepared neighbour statement must not bind values');
  return query.sql;
}

/**
 * For each anchor, the live memory of the same partition, tier and vector size written last before it and the
 * one written first after it, each at most `windowMs` away, with its cosine similarity to the query and its lexical
 * score. Two index look-ups per anchor (tenant, tier, created_at), then primary-key fetches. With a session and
 * in-process scores the statement runs prepared (parsed and planned once per session, ADR 0321).
 */
export async function findNeighbours(tx: TenantTx, q: NeighbourQuery): Promise<NeighbourRow[]> {
  if (q.anchorIds.length === 0) return [];
  const windowMs = Math.max(0, Math.trunc(q.windowMs));
  type Row = CandidateSqlRow & { anchor_id: string };
  let result: { rows: Row[] };
  if (q.session && q.score) {
    const name = `care_memory_neighbours_${q.dim}`;
    await prepareOnce(tx, q.session, name, () =>
      sql.raw(
        `prepare ${name} (text, ${vectorType(q.dim)}, text[], timestamptz, interval) as ${neighbourStatementSql(q.dim)}`,
      ),
    );
    const args = [
      ...literalTenantAndVector(tx, q.queryVector),
      textArrayLiteral(q.anchorIds),
      `'${q.now.toISOString()}'`,
      `'${windowMs} milliseconds'`,
    ];
    result = await tx.execute<Row>(sql.raw(`execute ${name}(${args.join(', ')})`));
  } else {
    result = await tx.execute<Row>(
      neighbourStatement(
        q.dim,
        {
          ...boundTenantAndVector(tx, q.dim, q.queryVector),
          anchorIds: sqlArray(q.anchorIds, 'text'),
          now: q.now,
          window: sql`${`${windowMs} milliseconds`}::interval`,
        },
        q.score ? [] : q.terms,
      ),
    );
  }
  return result.rows.map((r) => ({
    anchorId: r.anchor_id,
    ...memorySummaryOf(r),
    vectorSimilarity: Number(r.similarity),
    textScore: q.score ? q.score(r.id) : Number(r.text_score),
  }));
}
