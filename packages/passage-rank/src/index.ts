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
  const ranked = passages
    .map((p, i) => {
      const match = titleMatch(question, passageTitle(p.text));
      return { p: { ...p, rank: (p.score ?? 0) + titleWeight * match, titleMatch: match }, i };
    })
    .sort((a, b) => b.p.rank - a.p.rank || a.i - b.i)
    .map((x) => x.p);
  return promoteAsked(question, ranked);
}

/**
 * What people ask about a condition (ADR 0424), each with lay and formal phrasings written from general usage, not
 * from any benchmark's questions. A question and a document title are matched on these, e.g. "can tablets sort it
 * out" and "Treatment options for ..." both ask about treatment.
 */
const ASPECTS: Record<string, readonly string[]> = {
  treatment: [
    'treat',
    'treated',
    'treating',
    'treatment',
    'therapy',
    'therapies',
    'cure',
    'cured',
    'curable',
    'medicine',
    'medication',
    'tablet',
    'pill',
    'drug',
    'surgery',
    'operation',
    'operate',
    'remedy',
    'remedies',
    'manage',
    'management',
    'relieve',
    'relief',
    'get rid of',
    'take out',
    'taken out',
    'have it out',
    'have them out',
    'removed',
    'remove',
    'options',
    'what else is there',
    'what can be done',
    'anything i can do',
    'what can i do',
    'what can we do',
    'help',
    'fix',
    'what to do',
  ],
  symptoms: [
    'symptom',
    'sign',
    'feel like',
    'look like',
    'how do i know if',
    'how can i tell',
    'how can we tell',
    'notice',
    'normal',
  ],
  causes: [
    'cause',
    'caused',
    'why do',
    'why does',
    'why did',
    'why would',
    'why am i',
    'reason',
    'what makes',
    'trigger',
    'from the',
    'how did i get',
    'come from',
  ],
  diagnosis: [
    'diagnose',
    'diagnosis',
    'test',
    'tests',
    'testing',
    'tested',
    'screening',
    'screen',
    'scan',
    'exam',
    'examination',
    'check for',
    'checked',
    'find out if',
    'detect',
  ],
  prevention: [
    'prevent',
    'prevention',
    'avoid',
    'stop it',
    'stop them',
    'stop getting',
    'stop her getting',
    'stop him getting',
    "so i don't get",
    'so i dont get',
    'protect',
    'vaccine',
    'vaccination',
    'jab',
    'shot',
    'reduce the risk',
    'lower the risk',
    'keep from getting',
  ],
  outlook: [
    'outlook',
    'prognosis',
    'go away',
    'how long',
    'recover',
    'recovery',
    'life expectancy',
    'survive',
    'survival',
    'fatal',
    'die',
    'get better',
    'get worse',
    'permanent',
    'for life',
    'for good',
    'ever stop',
    'back to normal',
    'outcome',
    'damage',
  ],
  risk: ['risk', 'at risk', 'who gets', 'more likely', 'chance', 'susceptible'],
  diet: [
    'eat',
    'eating',
    'food',
    'foods',
    'diet',
    'nutrition',
    'drink',
    'drinking',
    'meal',
    'meals',
    'cut out',
    'cutting out',
    'give up',
  ],
  contagion: [
    'contagious',
    'catch',
    'catching',
    'spread',
    'spreading',
    'infectious',
    'transmit',
    'transmitted',
    'pass it on',
    'pass it to',
    'give it to',
  ],
  inheritance: [
    'inherit',
    'inherited',
    'hereditary',
    'genetic',
    'gene',
    'genes',
    'run in the family',
    'runs in the family',
    'runs in families',
    'family history',
  ],
  frequency: ['how common', 'how many people', 'prevalence', 'how often'],
  complications: ['complication', 'lead to', 'turn into', 'damage'],
};

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const ASPECT_RE: ReadonlyArray<[string, RegExp]> = Object.entries(ASPECTS).map(([aspect, phrases]) => [
  aspect,
  new RegExp(`\\b(?:${phrases.map(escapeRe).join('|')})s?\\b`, 'i'),
]);
/** The single words of the aspect phrasings, left out of a title's subject. */
const ASPECT_WORDS = new Set(
  Object.values(ASPECTS).flatMap((phrases) => phrases.flatMap((p) => tokenize(p))),
);

/** The aspects (treatment, symptoms, outlook, ...) a text asks about or a title answers. */
export function aspectsOf(text: string): Set<string> {
  const plain = text.replace(/[\u2018\u2019]/g, "'");
  return new Set(ASPECT_RE.filter(([, re]) => re.test(plain)).map(([aspect]) => aspect));
}

/** A title's subject: its content words without the aspect words ("What are the treatments for Gout ?" -> "gout"). */
export function titleSubject(title: string): string {
  return [...new Set(tokenize(title).filter((w) => !ASPECT_WORDS.has(w)))].sort().join(' ');
}

/** How far below the top a passage of the same subject may score and still be promoted for its aspect. */
const ASPECT_MARGIN = 0.1;

/**
 * When the top passage's title answers none of the aspects the question asks about, the best passage within
 * {@link ASPECT_MARGIN} of it whose title has the same subject and answers one of them takes the top place and the
 * top's score (ADR 0424): the ranking found the right subject, the title says which of its passages answers.
 */
function promoteAsked<T extends { text: string; rank: number }>(question: string, ranked: T[]): T[] {
  const top = ranked[0];
  const asked = aspectsOf(question);
  if (!top || !asked.size) return ranked;
  const answers = (m: T): boolean => [...aspectsOf(passageTitle(m.text))].some((a) => asked.has(a));
  if (answers(top)) return ranked;
  const subject = titleSubject(passageTitle(top.text));
  if (!subject) return ranked;
  const at = ranked.findIndex(
    (m, i) =>
      i > 0 &&
      m.rank >= top.rank - ASPECT_MARGIN &&
      titleSubject(passageTitle(m.text)) === subject &&
      answers(m),
  );
  if (at < 0) return ranked;
  const promoted = { ...ranked[at], rank: top.rank };
  return [promoted, ...ranked.slice(0, at), ...ranked.slice(at + 1)];
}

/**
 * Weight of a subject's support in {@link rankDocuments}: the mean of the two best re-ranked scores among the
 * recalled passages whose titles share the subject (ADR 0435; a subject with one passage counts half of it).
 */
const SUBJECT_WEIGHT = 0.25;

/** A ranked document: its best passage, with the document's score as `rank`. */
export type RankedDocument<T> = Ranked<T> & { support: number };

/**
 * Knowledge-base search results by document (ADR 0435): the passages re-ranked as {@link rankPassages} does, each
 * lifted by the support of its title's subject among the recalled passages (several passages about the same
 * condition make it likelier the question is about it), then one passage per document, the best. `documentOf`
 * names a passage's document; a passage without one stands alone. Best first.
 */
export function rankDocuments<T extends { text: string; score?: number }>(
  question: string,
  passages: readonly T[],
  documentOf: (passage: T) => string | undefined,
  subjectWeight = SUBJECT_WEIGHT,
): Array<RankedDocument<T>> {
  const ranked = rankPassages(question, passages);
  // Each passage's document (a passage without one stands alone) and subject (a passage whose title has none is
  // its document's own subject); NUL never occurs in a subject, which is made of words.
  const docs = ranked.map((m, i) => documentOf(m) ?? `\u0000${i}`);
  const subjects = ranked.map((m, i) => titleSubject(passageTitle(m.text)) || `\u0000${docs[i]}`);
  const best = new Map<string, number[]>();
  ranked.forEach((m, i) => {
    const top = best.get(subjects[i]!) ?? [];
    if (top.length < 2) top.push(m.rank);
    best.set(subjects[i]!, top);
  });
  const scored = ranked
    .map((m, i) => {
      const [a = 0, b = 0] = best.get(subjects[i]!)!;
      const support = (a + b) / 2;
      return { m: { ...m, rank: m.rank + subjectWeight * support, support }, i };
    })
    .sort((x, y) => y.m.rank - x.m.rank || x.i - y.i);
  const seen = new Set<string>();
  const out: Array<RankedDocument<T>> = [];
  for (const { m, i } of scored) {
    if (seen.has(docs[i]!)) continue;
    seen.add(docs[i]!);
    out.push(m);
  }
  return out;
}
