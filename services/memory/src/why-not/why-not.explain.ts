// Why-not in words and numbers: pure functions over the signals of the memory and of the last result.
import type { Signals } from '../recall/fusion';

/** Why a memory was (not) recalled, most decisive first. */
export type WhyNotReason =
  | 'NOT_IN_PARTITION'
  | 'FORGOTTEN'
  | 'MERGED'
  | 'EXPIRED'
  | 'SUPPRESSED'
  | 'TIER_EXCLUDED'
  | 'NOT_A_CANDIDATE'
  | 'OUTRANKED'
  | 'RECALLED';

/** One signal of the memory set against the same signal of the last returned result. */
export interface SignalComparison {
  signal: keyof Signals;
  memory: number | null;
  lastReturned: number | null;
  /** `worse` when this signal pulls the memory below the last result. */
  verdict: 'better' | 'worse' | 'equal';
}

const COMPARED: Array<{ signal: keyof Signals; lowerIsBetter?: boolean; label: string }> = [
  { signal: 'score', label: 'fused score' },
  { signal: 'relevance', label: 'relevance (weighted similarity + lexical)' },
  { signal: 'vectorSimilarity', label: 'vector similarity' },
  { signal: 'vectorRank', lowerIsBetter: true, label: 'vector rank' },
  { signal: 'textScore', label: 'lexical score (query-term coverage)' },
  { signal: 'textRank', lowerIsBetter: true, label: 'full-text rank' },
  { signal: 'recency', label: 'recency' },
  { signal: 'strength', label: 'strength' },
  { signal: 'tierWeight', label: 'tier weight' },
];

const EPSILON = 1e-9;

/** Compares each signal; a missing rank or score (the search did not find the memory) counts as worst. */
export function compareSignals(memory: Signals, last: Signals): SignalComparison[] {
  return COMPARED.map(({ signal, lowerIsBetter }) => {
    const a = memory[signal];
    const b = last[signal];
    const worst = lowerIsBetter ? Infinity : -Infinity;
    const x = a ?? worst;
    const y = b ?? worst;
    const diff = lowerIsBetter ? y - x : x - y;
    const verdict = x === y || Math.abs(diff) < EPSILON ? 'equal' : diff > 0 ? 'better' : 'worse';
    return { signal, memory: a, lastReturned: b, verdict };
  });
}

const fmt = (v: number | null, signal: keyof Signals) =>
  v === null ? 'none' : signal.endsWith('Rank') ? `#${v}` : Number.isInteger(v) ? String(v) : v.toFixed(3);

/** Everything the sentence needs. */
export interface ExplainInput {
  memoryId: string;
  reason: WhyNotReason;
  rank?: number;
  pool: number;
  topK: number;
  partition: string;
  mergedInto?: string | null;
  tier?: string;
  comparisons?: SignalComparison[];
  lastReturnedId?: string;
}

/** A plain-language explanation naming the real reason and the signals that decided it, with their numbers. */
export function explain(i: ExplainInput): string {
  const head = {
    NOT_IN_PARTITION: `No memory "${i.memoryId}" exists in partition "${i.partition}", so it cannot be recalled here.`,
    FORGOTTEN: `Memory "${i.memoryId}" was forgotten (tombstoned): forgotten memories never appear in recall.`,
    MERGED: `Memory "${i.memoryId}" was merged into "${i.mergedInto}" during consolidation; that memory is recalled instead.`,
    EXPIRED: `Memory "${i.memoryId}" is a scratchpad entry whose time to live has passed.`,
    SUPPRESSED: `Memory "${i.memoryId}" is suppressed: suppressed memories are left out of recall until unsuppressed.`,
    TIER_EXCLUDED: `Memory "${i.memoryId}" is in the ${i.tier} tier, which the current operating mode does not search.`,
    NOT_A_CANDIDATE: `Memory "${i.memoryId}" was not among the ${i.pool} best of either search (vector or full text), so it was never scored.`,
    OUTRANKED: `Memory "${i.memoryId}" was a candidate but its fused score is below the last of the top ${i.topK} results.`,
    RECALLED: `Memory "${i.memoryId}" was recalled, at rank ${i.rank}.`,
  }[i.reason];
  const worse = (i.comparisons ?? []).filter((c) => c.verdict === 'worse' && c.signal !== 'score');
  if (!worse.length || i.reason === 'RECALLED' || !i.lastReturnedId) return head;
  const label = (s: keyof Signals) => COMPARED.find((c) => c.signal === s)!.label;
  const parts = worse.map((c) =>
    c.memory === null
      ? `${label(c.signal)}: none (it does not match) vs ${fmt(c.lastReturned, c.signal)}`
      : `${label(c.signal)} ${fmt(c.memory, c.signal)} vs ${fmt(c.lastReturned, c.signal)}`,
  );
  const score = (i.comparisons ?? []).find((c) => c.signal === 'score');
  const scoreText = score
    ? ` Fused score ${fmt(score.memory, 'score')} vs ${fmt(score.lastReturned, 'score')}.`
    : '';
  return `${head} Against the last returned result "${i.lastReturnedId}" it is behind on ${parts.join('; ')}.${scoreText}`;
}
