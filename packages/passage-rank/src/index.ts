// Re-ranking of knowledge-base passages recalled from the memory service (ADR 0422). A passage is remembered as
// `<document title>\n\n<passage>` (platform-auth ADR 0107); the title says what the whole document answers, so a
// question worded like a title ("What are the symptoms of X?") should find that document's passages first, not a
// passage of "What is X?" that merely shares the words. Recall already weighs meaning and words over the passage;
// this adds the title's match to the question and nothing else, so it is cheap and the same in every service.

const STOPWORDS = new Set(
  (
    'a an and are as at be been but by can could do does did for from had has have how i if in into is it its me my ' +
    'of on or our she he so that the their them then there these they this to was we were what when where which who ' +
    'why will with would you your about should shall just also am any some than too very not no more most'
  ).split(' '),
);

function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us'))
    return word.slice(0, -1);
  return word;
}

/** Lower-cases, splits on non-letters/digits, drops stopwords and folds simple plurals ("risks" -> "risk"). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (raw.length < 2 || STOPWORDS.has(raw)) continue;
    out.push(stem(raw));
  }
  return out;
}

/** Dice overlap of the distinct content words of the question and of a title, in [0, 1]. */
export function titleMatch(question: string, title: string): number {
  const q = new Set(tokenize(question));
  const t = new Set(tokenize(title));
  if (!q.size || !t.size) return 0;
  let shared = 0;
  for (const w of t) if (q.has(w)) shared++;
  return (2 * shared) / (q.size + t.size);
}

/** The title of a remembered passage (`<title>\n\n<passage>`), or '' when it has none. */
export function passageTitle(text: string): string {
  const cut = text.indexOf('\n\n');
  return cut > 0 ? text.slice(0, cut).trim() : '';
}

/** Weight of the title match added to recall's fused score (tuned on MedQuAD and consumer-dev, ADR 0422). */
const TITLE_WEIGHT = 0.3;

/** Recall asks for this many candidates per passage wanted (the re-ranking needs some to choose from). */
const CANDIDATES_PER_RESULT = 3;
/** ... and at least this many. */
const MIN_CANDIDATES = 20;

/** Candidates to recall for `wanted` results. */
export function candidatesFor(wanted: number): number {
  return Math.min(100, Math.max(MIN_CANDIDATES, wanted * CANDIDATES_PER_RESULT));
}

/** A ranked passage: the input with its re-ranked score and title match. */
export type Ranked<T> = T & { rank: number; titleMatch: number };

/**
 * Orders recalled passages by recall's fused score plus `titleWeight` x the title's match to the question, best
 * first (ties keep recall's order). `score` is recall's fused score, `text` the remembered `<title>\n\n<passage>`.
 */
export function rankPassages<T extends { text: string; score?: number }>(
  question: string,
  passages: readonly T[],
  titleWeight = TITLE_WEIGHT,
): Array<Ranked<T>> {
  return passages
    .map((p, i) => {
      const match = titleMatch(question, passageTitle(p.text));
      return { p: { ...p, rank: (p.score ?? 0) + titleWeight * match, titleMatch: match }, i };
    })
    .sort((a, b) => b.p.rank - a.p.rank || a.i - b.i)
    .map((x) => x.p);
}
