import type { Database, TenantTx } from '@care/db';
import type { RecallRequest, RecallResponse } from '@care/contracts';
import type { Config } from '../config';
import { recordAccess } from '../memories/memories.repository';
import { TIERS, type Tier } from '../memories/memory.model';
import { checkedSpace } from '../partitions/partition-space';
import { normalize, type EmbeddingProvider } from '../embeddings/embedding-provider';
import { fuse, questionStatement, rankAll, withContext, type FusionSettings, type Scored } from './fusion';
import type { TermStats, WeightedTerm } from './lexical';
import type { LexicalIndex } from './lexical-index';
import { findCandidates, findNeighbours, prepareSearch, type CandidateRow } from './recall.repository';

/** One recalled memory with the signals behind its score. */
export type RecallHit = Scored<CandidateRow>;

/** The outcome of one fused search, before it is shaped for the wire. */
export interface RecallRun {
  hits: RecallHit[];
  /** How many memories each search could contribute. */
  pool: number;
  tiers: Tier[];
  dim: number | null;
  terms: WeightedTerm[];
}

/** Default number of results. */
export const DEFAULT_TOP_K = 10;

/** Tiers recall searches in each operating mode: MEMORY leaves the documents out. */
export function tiersFor(mode: string): Tier[] {
  if (mode === 'RAG') return ['documents'];
  if (mode === 'MEMORY') return TIERS.filter((t) => t !== 'documents');
  return [...TIERS];
}

/** Candidate pool of each search for a requested topK. */
export function poolSize(topK: number): number {
  return Math.min(400, Math.max(50, topK * 4));
}

/** The vector a query searches with (`fusion.queryVector`): the query as asked, as a statement, or their mean. */
export async function embedQuery(
  embeddings: EmbeddingProvider,
  query: string,
  fusion: Pick<FusionSettings, 'queryVector'>,
): Promise<number[]> {
  if (fusion.queryVector === 'asked') return (await embeddings.embed([query]))[0];
  const statement = questionStatement(query);
  if (fusion.queryVector === 'statement') return (await embeddings.embed([statement]))[0];
  // One call for both texts (a batch of two), then the normalised mean.
  const [a, b] = await embeddings.embed([query, statement]);
  return normalize(a.map((x, i) => x + b[i]));
}

/** What recall reads: storage, the embedding space, the clock, the fusion knobs and the full-text statistics. */
export interface RecallDeps {
  database: Database;
  embeddings: EmbeddingProvider;
  clock: () => Date;
  config: Pick<Config, 'OPERATING_MODE'>;
  fusion: FusionSettings;
  /** Cached document frequencies for the lexical score, shared by the services of one process. */
  termStats: TermStats;
  /** The in-process full-text index (embedded database only; absent: recall searches full text in SQL). */
  lexicalIndex?: LexicalIndex;
}

/** Recall with fused scoring across tiers; records an access on every returned memory. */
export class RecallService {
  constructor(private readonly deps: RecallDeps) {}

  /** Embeds the query (503 when the provider is down) and returns the fused top K with their signals. */
  async recall(
    tenantId: string,
    body: RecallRequest,
    options: { exact?: boolean } = {},
  ): Promise<RecallResponse> {
    const topK = body.topK ?? DEFAULT_TOP_K;
    const dimension = await this.deps.embeddings.dimension();
    const queryVector = await embedQuery(this.deps.embeddings, body.query, this.deps.fusion);
    const now = this.deps.clock();
    await this.deps.lexicalIndex?.ready();
    const run = await this.deps.database.withTenant(tenantId, async (tx) => {
      const result = await this.search(
        tx,
        body.query,
        queryVector,
        dimension,
        topK,
        now,
        options.exact,
        body.filter?.tagsAny,
      );
      await recordAccess(
        tx,
        result.hits.map((h) => h.id),
        now,
      );
      return result;
    });
    return {
      query: body.query,
      topK,
      partition: tenantId,
      ...(body.filter ? { filter: body.filter } : {}),
      results: run.hits.map(toResult),
    };
  }

  /** The fused search inside a tenant transaction, without side effects (why-not re-runs it). */
  async search(
    tx: TenantTx,
    query: string,
    queryVector: number[],
    dimension: number,
    topK: number,
    now: Date,
    exact?: boolean,
    tagsAny?: string[],
  ): Promise<RecallRun> {
    const tiers = tiersFor(this.deps.config.OPERATING_MODE);
    const pool = poolSize(topK);
    const prepared = await prepareSearch(tx, query, pool, exact);
    const partition = checkedSpace(prepared.space, this.deps.embeddings, dimension);
    if (!partition) return { hits: [], pool, tiers, dim: null, terms: [] };
    const { lexemes } = prepared;
    // The in-process index once it listens to changes (recall and why-not wait for that before their
    // transaction); the SQL search otherwise. Both score and rank alike.
    const index = this.deps.lexicalIndex?.listening ? this.deps.lexicalIndex : undefined;
    const terms = index ? await index.weigh(tx, lexemes) : await this.deps.termStats.weigh(tx, lexemes);
    const { tenantId } = tx;
    const candidates = await findCandidates(tx, {
      dim: partition.dimension,
      queryVector,
      terms,
      tiers,
      pool,
      now,
      exact,
      prepared: true,
      tagsAny,
      inProcess: index && {
        text: index.search(tenantId, terms, { dim: partition.dimension, tiers, now, pool, tagsAny }),
        score: (id) => index.score(tenantId, id, terms),
        session: index.session,
      },
    });
    const fusion = this.deps.fusion;
    let scored = candidates;
    if (fusion.contextWeight > 0 && fusion.contextAnchors > 0 && candidates.length > 0) {
      // Context stage (ADR 0315): the best-ranked memories bring their conversation neighbours.
      const anchors = rankAll(candidates, now, fusion).slice(0, fusion.contextAnchors);
      const neighbours = await findNeighbours(tx, {
        dim: partition.dimension,
        queryVector,
        terms,
        score: index && ((id) => index.score(tenantId, id, terms)),
        session: index?.session,
        anchorIds: anchors.map((a) => a.id),
        now,
        windowMs: fusion.contextWindowMinutes * 60_000,
      });
      scored = withContext(candidates, neighbours, fusion);
    }
    return {
      hits: fuse(scored, now, topK, fusion),
      pool,
      tiers,
      dim: partition.dimension,
      terms,
    };
  }
}

/** The wire shape of a hit (ADR 0301): the memory, its score and every signal. */
function toResult(h: RecallHit): RecallResponse['results'][number] {
  return {
    id: h.id,
    text: h.text,
    type: h.type,
    source: h.source,
    tier: h.tier,
    tags: h.tags,
    score: h.signals.score,
    resolved: h.resolved,
    createdAt: h.createdAt.toISOString(),
    signals: h.signals,
  };
}
