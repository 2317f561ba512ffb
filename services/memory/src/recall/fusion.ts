// Fused scoring, as pure functions: the recall service, why-not and the benches all score with these.
import type { Tier } from '../memories/memory.model';

/** Knobs of the fusion; {@link DEFAULT_FUSION} documents the defaults (docs/memory.md explains each). */
export interface FusionSettings {
  /** Weight of the cosine similarity in the relevance (a weighted sum with the lexical score). */
  vectorWeight: number;
  /** Weight of the lexical score (IDF-weighted query-term coverage). */
  textWeight: number;
  /** Largest share of the score recency can take away (0.1: a years-old memory keeps at least 90 %). */
  recencyWeight: number;
  recencyHalfLifeDays: number;
  /** Strength moves the score by at most this share up (strength 1) or down (strength 0). */
  strengthWeight: number;
  tierWeights: Record<Tier, number>;
  /**
   * Conversation context (ADR 0315): weight of the best relevance among a memory's neighbours (the memories of
   * the same tier written just before and after it) in its own relevance; 0 (the default) turns the stage off,
   * 0.5 is the tuned value.
   */
  contextWeight: number;
  /** How many of the best-ranked memories have their neighbours fetched. */
  contextAnchors: number;
  /** Two memories are neighbours when at most this many minutes apart (one conversation session). */
  contextWindowMinutes: number;
  /**
   * What is embedded for the vector search: the query as asked (`asked`), the query without its question frame
   * (`statement`, see {@link questionStatement}), or the mean of both vectors (`both`).
   */
  queryVector: 'asked' | 'statement' | 'both';
}

/**
 * Defaults: relevance = 0.65 x cosine similarity + 0.35 x lexical coverage (dense-heavy, the usual hybrid
 * search default), then small bounded boosts so relevance stays first. ADR 0302 records why not RRF.
 */
export const DEFAULT_FUSION: FusionSettings = {
  vectorWeight: 0.65,
  textWeight: 0.35,
  recencyWeight: 0.1,
  recencyHalfLifeDays: 30,
  strengthWeight: 0.1,
  tierWeights: { working: 1.05, episodic: 1, semantic: 1.05, documents: 1 },
  // Off by default: +0.005 evidence recall@10 on the dev sets for ~6 ms more CPU per recall at 100k (ADR 0315).
  contextWeight: 0,
  contextAnchors: 20,
  contextWindowMinutes: 30,
  // The mean of the query as asked and as a statement (ADR 0320): +0.019 evidence recall@10 on the four tuning sets.
  queryVector: 'both',
};

/**
 * The vector-only ablation the benches compare with: cosine similarity alone, no boost, no extra recall stage.
 */
export const VECTOR_ONLY: Partial<FusionSettings> = {
  textWeight: 0,
  recencyWeight: 0,
  strengthWeight: 0,
  tierWeights: { working: 1, episodic: 1, semantic: 1, documents: 1 },
  contextWeight: 0,
  queryVector: 'asked',
};

/** What the two searches found about one memory. Ranks are 1-based; absent when that search did not return it. */
export interface CandidateEvidence {
  id: string;
  tier: Tier;
  createdAt: Date;
  strength: number;
  vectorRank?: number;
  /** Cosine similarity to the query, in [-1, 1]. */
  vectorSimilarity?: number;
  textRank?: number;
  /** Lexical score: IDF-weighted share of the query terms the memory contains, in [0, 1]. */
  textScore?: number;
  /** Best base relevance among the memory's neighbours, in [0, 1]; absent when none was looked at. */
  context?: number;
}

/** Every signal behind a fused score, as recall returns it. */
export interface Signals {
  vectorRank: number | null;
  vectorSimilarity: number | null;
  textRank: number | null;
  textScore: number | null;
  /** Best base relevance among the memory's conversation neighbours (ADR 0315), null when none was looked at. */
  context: number | null;
  /**
   * Weighted sum of max(0, similarity) and the lexical score, in [0, 1]; with a context, the larger of that
   * and its weighted mean with the context (weight `contextWeight`).
   */
  relevance: number;
  ageDays: number;
  /** 0.5 ^ (age / half-life), in (0, 1]. */
  recency: number;
  strength: number;
  tierWeight: number;
  /** relevance x recency factor x strength factor x tier weight. */
  score: number;
}

const DAY_MS = 86_400_000;

/** Scores one candidate. */
export function scoreCandidate(c: CandidateEvidence, now: Date, s: FusionSettings = DEFAULT_FUSION): Signals {
  const total = s.vectorWeight + s.textWeight;
  const similarity = Math.max(0, Math.min(1, c.vectorSimilarity ?? 0));
  const lexical = Math.max(0, Math.min(1, c.textScore ?? 0));
  const base = total > 0 ? (s.vectorWeight * similarity + s.textWeight * lexical) / total : 0;
  const context = c.context === undefined ? null : Math.max(0, Math.min(1, c.context));
  const cw = context === null ? 0 : Math.max(0, s.contextWeight);
  // Context only lifts: a memory is as relevant as the better of itself alone and itself in its context.
  const relevance = Math.max(base, (base + cw * (context ?? 0)) / (1 + cw));
  const ageDays = Math.max(0, (now.getTime() - c.createdAt.getTime()) / DAY_MS);
  const recency = Math.pow(0.5, ageDays / s.recencyHalfLifeDays);
  const strength = Math.min(1, Math.max(0, c.strength));
  const recencyFactor = 1 - s.recencyWeight * (1 - recency);
  const strengthFactor = 1 + s.strengthWeight * (2 * strength - 1);
  const tierWeight = s.tierWeights[c.tier] ?? 1;
  return {
    vectorRank: c.vectorRank ?? null,
    vectorSimilarity: c.vectorSimilarity ?? null,
    textRank: c.textRank ?? null,
    textScore: c.textScore ?? null,
    context,
    relevance,
    ageDays,
    recency,
    strength,
    tierWeight,
    score: relevance * recencyFactor * strengthFactor * tierWeight,
  };
}

/** A candidate with its signals. */
export type Scored<T extends CandidateEvidence> = T & { signals: Signals };

/**
 * Scores every candidate and returns the best `topK`, highest score first. Ties go to the newer memory, then
 * to the smaller id, so the order is total and stable across runs.
 */
export function fuse<T extends CandidateEvidence>(
  candidates: T[],
  now: Date,
  topK: number,
  s: FusionSettings = DEFAULT_FUSION,
): Scored<T>[] {
  return rankAll(candidates, now, s).slice(0, Math.max(0, topK));
}

/** The fused order: score, then the newer memory, then the smaller id. */
function byScore<T extends CandidateEvidence>(a: Scored<T>, b: Scored<T>): number {
  return (
    b.signals.score - a.signals.score ||
    b.createdAt.getTime() - a.createdAt.getTime() ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/** Like {@link fuse} without the cut: every candidate in fused order. */
export function rankAll<T extends CandidateEvidence>(
  candidates: T[],
  now: Date,
  s: FusionSettings = DEFAULT_FUSION,
): Scored<T>[] {
  return candidates
    .filter((c) => c.vectorRank !== undefined || c.textRank !== undefined || c.context !== undefined)
    .map((c) => ({ ...c, signals: scoreCandidate(c, now, s) }))
    .sort(byScore);
}

/** Relevance of a memory without its context: the weighted sum of similarity and lexical score, in [0, 1]. */
function baseRelevance(c: CandidateEvidence, s: FusionSettings = DEFAULT_FUSION): number {
  return scoreCandidate({ ...c, context: undefined }, new Date(0), s).relevance;
}

/**
 * The context of each memory (ADR 0315): the best base relevance among its neighbours. `pairs` are neighbour
 * links (either direction counts); `relevance` gives the base relevance of each memory of the pairs. Memories in no
 * pair are absent from the result.
 */
export function contextOf(
  pairs: Array<[string, string]>,
  relevance: (id: string) => number,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const [a, b] of pairs) {
    if (a === b) continue;
    out.set(a, Math.max(out.get(a) ?? 0, relevance(b)));
    out.set(b, Math.max(out.get(b) ?? 0, relevance(a)));
  }
  return out;
}

/**
 * The candidates with their conversation context (ADR 0315): `neighbours` (each linked to the candidate it
 * neighbours) join the candidates if new, and every memory of a link gets as `context` the best base relevance among
 * its neighbours.
 */
export function withContext<T extends CandidateEvidence>(
  candidates: T[],
  neighbours: Array<T & { anchorId: string }>,
  s: FusionSettings = DEFAULT_FUSION,
): T[] {
  const byId = new Map<string, T>(candidates.map((c) => [c.id, c]));
  for (const { anchorId: _anchor, ...n } of neighbours)
    if (!byId.has(n.id)) byId.set(n.id, n as unknown as T);
  const base = new Map<string, number>();
  const relevance = (id: string): number => {
    let r = base.get(id);
    if (r === undefined) {
      const c = byId.get(id);
      r = c ? baseRelevance(c, s) : 0;
      base.set(id, r);
    }
    return r;
  };
  const context = contextOf(
    neighbours.map((n) => [n.anchorId, n.id]),
    relevance,
  );
  return [...byId.values()].map((c) => (context.has(c.id) ? { ...c, context: context.get(c.id) } : c));
}

const FRAME =
  /^\s*(?:(?:what|which|who|whom|whose|when|where|why|how)(?:\s+(?:much|many|long|often|old|kind\s+of|sort\s+of|type\s+of))?\s+(?:[a-z]+\s+)?(?:is|are|was|were|do|does|did|has|have|had|can|could|will|would|should)\b|(?:what|which|who|when|where|why|how)\b)\s*/i;

/**
 * The query as a statement: a leading question frame ("What did", "How many ... were", "Who is") and the
 * question mark dropped, so the words left are the ones a remembered sentence would hold. A query without a frame
 * comes back as it was (trimmed); one that would be left empty, too.
 */
export function questionStatement(query: string): string {
  const out = query
    .replace(FRAME, '')
    .replace(/\?+\s*$/, '')
    .trim();
  return out.length > 0 ? out : query.trim();
}
