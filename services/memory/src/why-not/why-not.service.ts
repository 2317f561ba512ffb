import type { WhyNotRequest, WhyNotResponse } from '@care/contracts';
import type { Database } from '@care/db';
import type { EmbeddingProvider } from '../embeddings/embedding-provider';
import { findMemory } from '../memories/memories.repository';
import { memoryState } from '../memories/memory.model';
import { scoreCandidate, type FusionSettings, type Signals } from '../recall/fusion';
import type { LexicalIndex } from '../recall/lexical-index';
import { DEFAULT_TOP_K, embedQuery, type RecallService } from '../recall/recall.service';
import { compareSignals, explain, type WhyNotReason } from './why-not.explain';
import { findStanding } from './why-not.repository';

/** Why-not: re-runs the query and explains, for one memory, its state and each signal against the last result. */
export class WhyNotService {
  constructor(
    private readonly deps: {
      database: Database;
      embeddings: EmbeddingProvider;
      clock: () => Date;
      fusion: FusionSettings;
      lexicalIndex?: LexicalIndex;
      /** The fused search recall runs (re-run here without its side effects). */
      recall: Pick<RecallService, 'search'>;
    },
  ) {}

  /** The explanation; never records accesses (it is a diagnosis, not a recall). */
  async whyNot(tenantId: string, body: WhyNotRequest): Promise<WhyNotResponse> {
    const topK = body.topK ?? DEFAULT_TOP_K;
    const dimension = await this.deps.embeddings.dimension();
    const queryVector = await embedQuery(this.deps.embeddings, body.query, this.deps.fusion);
    const now = this.deps.clock();
    await this.deps.lexicalIndex?.ready();
    return this.deps.database.withTenant(tenantId, async (tx) => {
      const run = await this.deps.recall.search(tx, body.query, queryVector, dimension, topK, now);
      const last = run.hits.at(-1);
      const lastReturned = last
        ? { id: last.id, rank: run.hits.length, score: last.signals.score, signals: last.signals }
        : null;
      const base = {
        memoryId: body.memoryId,
        query: body.query,
        topK,
        partition: tenantId,
        returned: run.hits.length,
        lastReturned,
      };
      const memory = await findMemory(tx, body.memoryId);
      if (!memory) {
        const reason: WhyNotReason = 'NOT_IN_PARTITION';
        return {
          ...base,
          recalled: false,
          reason,
          state: null,
          signals: null,
          comparison: [],
          explanation: explain({ ...base, reason, pool: run.pool }),
        };
      }
      const state = memoryState(memory, now);
      const rankIndex = run.hits.findIndex((h) => h.id === memory.id);
      const standing =
        run.dim === null
          ? undefined
          : await findStanding(tx, {
              id: memory.id,
              dim: run.dim,
              queryVector,
              terms: run.terms,
              tiers: run.tiers,
              now,
            });
      const hit = run.hits[rankIndex];
      const signals: Signals | null = hit
        ? hit.signals
        : standing
          ? scoreCandidate({ ...memory, ...standing }, now, this.deps.fusion)
          : null;
      const reason = decide(state, run.tiers.includes(memory.tier), rankIndex, standing, run.pool);
      const comparison = signals && last ? compareSignals(signals, last.signals) : [];
      const rank = rankIndex >= 0 ? rankIndex + 1 : undefined;
      return {
        ...base,
        recalled: rankIndex >= 0,
        rank: rank ?? null,
        reason,
        state: {
          state,
          tier: memory.tier,
          suppressed: memory.suppressedAt !== null,
          forgotten: memory.forgottenAt !== null,
          resolved: memory.resolvedAt !== null,
          mergedInto: memory.mergedInto,
          expiresAt: memory.expiresAt?.toISOString() ?? null,
        },
        signals,
        comparison,
        explanation: explain({
          ...base,
          reason,
          rank,
          pool: run.pool,
          mergedInto: memory.mergedInto,
          tier: memory.tier,
          comparisons: comparison,
          lastReturnedId: last?.id,
        }),
      };
    });
  }
}

function decide(
  state: ReturnType<typeof memoryState>,
  tierSearched: boolean,
  rankIndex: number,
  standing: { vectorRank: number; textRank?: number } | undefined,
  pool: number,
): WhyNotReason {
  if (state !== 'ACTIVE') return state;
  if (!tierSearched) return 'TIER_EXCLUDED';
  if (rankIndex >= 0) return 'RECALLED';
  const candidate = standing && (standing.vectorRank <= pool || (standing.textRank ?? Infinity) <= pool);
  return candidate ? 'OUTRANKED' : 'NOT_A_CANDIDATE';
}
