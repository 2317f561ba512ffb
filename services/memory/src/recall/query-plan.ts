// Query decomposition for recall (ADR 0316): a question that asks two things ("Who X, and what Y?") is also
// searched as its parts, so the memory answering each part can reach the top K even when the whole question is
// closer to neither of them.

/** Words that open a new question inside a compound one. */
const OPENERS =
  'what|who|whom|whose|where|when|which|how|why|did|does|do|is|was|were|has|had|have|can|could|will|would|are';

/** `, and what ...`, `; who ...`, `, what ...` (the joint is dropped; the opener stays). */
const JOINT = new RegExp(`\\s*(?:,\\s*(?:and|but|or)\\s+|;\\s*(?:and\\s+)?|,\\s+|\\s+and\\s+)(?=(?:${OPENERS})\\b)`, 'i');

/** Proper nouns: capitalised words (with possessive or hyphenated parts) that do not open the clause. */
const NAME = /(?<!^)(?<![.?!]\s)\b[A-Z][\p{L}&'’-]*(?:\s+[A-Z][\p{L}&'’-]*)*/gu;

/** At most this many parts: a longer list is rare in one question and each part costs a search. */
export const MAX_PARTS = 3;

/** Words a part needs (after its opener) to be searched on its own. */
const MIN_WORDS = 3;

/**
 * The parts of a compound question, each carrying the names of the whole question it lacks ("what had it replaced"
 * of "Which painkiller did Jonah stop, and what had it replaced?" becomes "what had it replaced Jonah"); empty
 * when the question is not compound. Never more than {@link MAX_PARTS}; each part has at least three words.
 */
export function subQueries(query: string): string[] {
  const text = query.trim();
  if (text.length === 0 || text.length > 1000) return [];
  const parts = text
    .split(JOINT)
    .map((p) => p.trim().replace(/[?.!]+$/, ''))
    .filter((p) => p.split(/\s+/).length >= MIN_WORDS);
  if (parts.length < 2) return [];
  const names = [...new Set(text.match(NAME)?.map((n) => n.replace(/['’]s$/, '')) ?? [])];
  return parts.slice(0, MAX_PARTS).map((p) => {
    const missing = names.filter((n) => !p.toLowerCase().includes(n.toLowerCase()));
    return missing.length ? `${p} ${missing.join(' ')}` : p;
  });
}
