// How well the partition knows a topic, as a label with its reason. Pure.

/** Confidence label of an introspection. */
export type Confidence = 'NONE' | 'LOW' | 'MEDIUM' | 'HIGH';

/** The facts the label is decided from. */
export interface KnowledgeFacts {
  related: number;
  /** Consolidated (semantic) memories plus documents among the related. */
  established: number;
  averageStrength: number;
  /** Age of the newest related memory, in days. */
  newestAgeDays: number;
  /** Best cosine similarity of a related memory to the topic. */
  bestSimilarity: number;
}

/**
 * NONE: nothing related. HIGH: at least 5 related, of which one is established knowledge (semantic or a
 * document), average strength at least 0.5, best similarity at least 0.6, something from the last 90 days.
 * MEDIUM: at least 2 related with average strength at least 0.3. LOW: anything else.
 */
export function confidenceOf(f: KnowledgeFacts): { label: Confidence; reason: string } {
  if (f.related === 0) return { label: 'NONE', reason: 'no memory or document relates to the topic' };
  const facts = `${f.related} related (${f.established} established), average strength ${f.averageStrength.toFixed(2)}, best similarity ${f.bestSimilarity.toFixed(2)}, newest ${Math.round(f.newestAgeDays)} days old`;
  if (
    f.related >= 5 &&
    f.established >= 1 &&
    f.averageStrength >= 0.5 &&
    f.bestSimilarity >= 0.6 &&
    f.newestAgeDays <= 90
  ) {
    return { label: 'HIGH', reason: facts };
  }
  if (f.related >= 2 && f.averageStrength >= 0.3) return { label: 'MEDIUM', reason: facts };
  return { label: 'LOW', reason: facts };
}
