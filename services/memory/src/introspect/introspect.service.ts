import type { IntrospectResponse } from '@care/contracts';
import type { Database } from '@care/db';
import type { Config } from '../config';
import type { EmbeddingProvider } from '../embeddings/embedding-provider';
import { TIERS } from '../memories/memory.model';
import { readableSpace } from '../partitions/partition-space';
import { queryLexemes, type TermStats } from '../recall/lexical';
import { findCandidates } from '../recall/recall.repository';
import { tiersFor } from '../recall/recall.service';
import { confidenceOf } from './confidence';

/** How many memories each search may contribute to an introspection (bounds its cost). */
const INTROSPECT_POOL = 200;
/** Cosine similarity from which a memory counts as related to the topic (full-text matches always count). */
const RELATED_SIMILARITY = 0.5;

const DAY_MS = 86_400_000;

/** Introspect: how well the partition knows a topic. */
export class IntrospectService {
  constructor(
    private readonly deps: {
      database: Database;
      embeddings: EmbeddingProvider;
      clock: () => Date;
      config: Pick<Config, 'OPERATING_MODE'>;
      termStats: TermStats;
    },
  ) {}

  /** Counts by tier and type, freshness, strength, unresolved items and a confidence label for the topic. */
  async introspect(tenantId: string, topic: string): Promise<IntrospectResponse> {
    const dimension = await this.deps.embeddings.dimension();
    const [queryVector] = await this.deps.embeddings.embed([topic]);
    const now = this.deps.clock();
    const tiers = tiersFor(this.deps.config.OPERATING_MODE);
    const candidates = await this.deps.database.withTenant(tenantId, async (tx) => {
      const partition = await readableSpace(tx, this.deps.embeddings, dimension);
      if (!partition) return [];
      const terms = await this.deps.termStats.weigh(tx, await queryLexemes(tx, topic));
      return findCandidates(tx, {
        dim: partition.dimension,
        queryVector,
        terms,
        tiers,
        pool: INTROSPECT_POOL,
        now,
      });
    });
    const related = candidates
      .filter((c) => c.textRank !== undefined || (c.vectorSimilarity ?? -1) >= RELATED_SIMILARITY)
      .sort((a, b) => (b.vectorSimilarity ?? 0) - (a.vectorSimilarity ?? 0));
    const byTier = Object.fromEntries(TIERS.map((t) => [t, related.filter((c) => c.tier === t).length]));
    const byType: Record<string, number> = {};
    for (const c of related) byType[c.type] = (byType[c.type] ?? 0) + 1;
    const ages = related.map((c) => (now.getTime() - c.createdAt.getTime()) / DAY_MS).sort((a, b) => a - b);
    const strengths = related.map((c) => c.strength);
    const averageStrength = strengths.length ? strengths.reduce((a, b) => a + b, 0) / strengths.length : 0;
    const unresolved = related.filter((c) => !c.resolved && c.tier !== 'documents');
    const confidence = confidenceOf({
      related: related.length,
      established: byTier.semantic + byTier.documents,
      averageStrength,
      newestAgeDays: ages[0] ?? Infinity,
      bestSimilarity: related[0]?.vectorSimilarity ?? 0,
    });
    return {
      topic,
      partition: tenantId,
      related: related.length,
      memories: related.length - byTier.documents,
      documents: byTier.documents,
      byTier,
      byType,
      freshness: {
        newest: related.length ? new Date(now.getTime() - ages[0] * DAY_MS).toISOString() : null,
        oldest: related.length
          ? new Date(now.getTime() - ages[ages.length - 1] * DAY_MS).toISOString()
          : null,
        medianAgeDays: ages.length ? ages[Math.floor(ages.length / 2)] : null,
      },
      strength: {
        average: averageStrength,
        min: strengths.length ? Math.min(...strengths) : null,
        max: strengths.length ? Math.max(...strengths) : null,
      },
      unresolved: {
        count: unresolved.length,
        items: unresolved.slice(0, 5).map((c) => ({
          id: c.id,
          text: c.text,
          tier: c.tier,
          type: c.type,
          createdAt: c.createdAt.toISOString(),
        })),
      },
      confidence: confidence.label,
      confidenceReason: confidence.reason,
      searched: { tiers, poolPerSearch: INTROSPECT_POOL, relatedSimilarity: RELATED_SIMILARITY },
    };
  }
}
