// Fused scoring, as pure functions: the recall service, why-not and the benches all score with these.

/** The four memory tiers. */
export const TIERS = ['working', 'episodic', 'semantic', 'documents'] as const;
/** A memory tier. */
export type Tier = (typeof TIERS)[number];

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
}

/**
 * Defaults: relevance = 0.75 x cosine similarity + 0.25 x lexical coverage (dense-heavy, the usual hybrid
 * search default), then small bounded boosts so relevance stays first. ADR 0302 records why not RRF.
 */
export const DEFAULT_FUSION: FusionSettings = {
  vectorWeight: 0.75,
  textWeight: 0.25,
  recencyWeight: 0.1,
  recencyHalfLifeDays: 30,
  strengthWeight: 0.1,
  tierWeights: { working: 1.05, episodic: 1, semantic: 1.05, documents: 1 },
};

/**
 * The vector-only ablation the benches compare with: cosine similarity alone, no boost, no extra recall stage.
 */
export const VECTOR_ONLY: Partial<FusionSettings> = {
  textWeight: 0,
  recencyWeight: 0,
  strengthWeight: 0,
  tierWeights: { working: 1, episodic: 1, semantic: 1, documents: 1 },
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
}

/** Every signal behind a fused score, as recall returns it. */
export interface Signals {
  vectorRank: number | null;
  vectorSimilarity: number | null;
  textRank: number | null;
  textScore: number | null;
  /** Weighted sum of max(0, similarity) and the lexical score, in [0, 1]. */
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
  const relevance = total > 0 ? (s.vectorWeight * similarity + s.textWeight * lexical) / total : 0;
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

/** Like {@link fuse} without the cut: every candidate in fused order. */
export function rankAll<T extends CandidateEvidence>(
  candidates: T[],
  now: Date,
  s: FusionSettings = DEFAULT_FUSION,
): Scored<T>[] {
  return candidates
    .filter((c) => c.vectorRank !== undefined || c.textRank !== undefined)
    .map((c) => ({ ...c, signals: scoreCandidate(c, now, s) }))
    .sort(
      (a, b) =>
        b.signals.score - a.signals.score ||
        b.createdAt.getTime() - a.createdAt.getTime() ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
}

/** Strength after a reinforcement: approaches 1 (positive) or 0 (negative) geometrically, never leaves [0, 1]. */
export function reinforcedStrength(strength: number, outcome: 'POSITIVE' | 'NEGATIVE', weight = 1): number {
  const step = 1 - Math.exp(-0.25 * weight);
  const s = Math.min(1, Math.max(0, strength));
  return outcome === 'POSITIVE' ? s + (1 - s) * step : s * (1 - step);
}
