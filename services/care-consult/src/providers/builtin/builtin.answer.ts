import { Bm25Index, splitPassages, tokenize, type Passage } from './retrieval';

/** A document the answer may quote, with a human title. */
export interface AnswerSource {
  title: string;
  text: string;
}

/** A passage of the n-th source, under its section (source number and heading). */
interface SourcePassage extends Passage<number> {
  section: string;
}

/** Split passages and their index for one list of source texts: many turns quote the same reference documents. */
interface SourceIndex {
  passages: SourcePassage[];
  index: Bm25Index<number>;
}

const INDEX_CACHE_SIZE = 64;
const indexCache = new Map<string, SourceIndex>();

function indexSources(sources: AnswerSource[]): SourceIndex {
  const key = sources.map((s) => s.text).join('\u0000');
  let entry = indexCache.get(key);
  if (!entry) {
    const passages: SourcePassage[] = [];
    sources.forEach((source, n) =>
      splitPassages(source.text).forEach((p, position) =>
        passages.push({
          source: n,
          text: p.text,
          heading: p.heading,
          position,
          section: `${n}:${p.heading}`,
        }),
      ),
    );
    entry = { passages, index: new Bm25Index(passages) };
    // Bounded: the oldest entry leaves first.
    if (indexCache.size >= INDEX_CACHE_SIZE) indexCache.delete(indexCache.keys().next().value as string);
    indexCache.set(key, entry);
  }
  return entry;
}

/**
 * Picks what to quote: the document section (passages under one heading) holding the best-matching passage,
 * in reading order, so the answer reads as a whole (a list stays with the sentence introducing it). A short
 * section is followed by the next best one. Nothing matching: the opening passages of the first source.
 */
export function selectPassages(
  question: string,
  sources: AnswerSource[],
  maxPassages = 4,
): Array<Passage<AnswerSource>> {
  if (!sources.length) return [];
  const { passages, index } = indexSources(sources);
  const withSource = (p: SourcePassage): Passage<AnswerSource> => ({
    source: sources[p.source],
    text: p.text,
    heading: p.heading,
    position: p.position,
  });
  if (!passages.length) return [];
  const hits = index.search(question, passages.length);
  if (!hits.length) return passages.slice(0, Math.min(2, passages.length)).map(withSource);
  const sections: string[] = [];
  for (const hit of hits) {
    const section = `${hit.source}:${hit.heading}`;
    if (!sections.includes(section)) sections.push(section);
  }
  const chosen: SourcePassage[] = [];
  for (const section of sections) {
    chosen.push(...passages.filter((p) => p.section === section).slice(0, maxPassages - chosen.length));
    const words = chosen.reduce((n, p) => n + p.text.split(/\s+/).length, 0);
    if (chosen.length >= maxPassages || words >= 80) break;
  }
  return chosen.sort((a, b) => a.source - b.source || a.position - b.position).map(withSource);
}

/** Why an answer has no document behind it. */
export type MissingReason = 'denied' | 'failed' | 'none';

/** Composes the offline answer text: the matching passages, where they come from, and the standing advice. */
export function composeAnswer(input: {
  agentName: string;
  question: string;
  sources: AnswerSource[];
  missing?: MissingReason;
  fallback?: string;
}): string {
  const passages = selectPassages(input.question, input.sources);
  const parts: string[] = [];
  if (passages.length) {
    const titles = [...new Set(passages.map((p) => p.source.title))];
    parts.push(`From the ${input.agentName} reference library (${titles.join('; ')}):`);
    for (const p of passages) parts.push(p.text);
  } else {
    if (input.missing === 'denied') {
      parts.push(
        'The detailed clinical reference for this question is only shared when clinical information is switched on ' +
          'for this conversation, so here is general guidance instead.',
      );
    } else if (input.missing === 'failed') {
      parts.push(
        'I could not open the reference document for this question just now, so here is general guidance.',
      );
    }
    if (input.fallback) parts.push(input.fallback);
  }
  parts.push(
    'This is general information from the offline built-in engine, not a diagnosis or a treatment plan. Please talk ' +
      'with your own care team about your situation, and call your local emergency number if you feel very unwell.',
  );
  return parts.join('\n\n');
}

/** Splits text into stream tokens: each word with the whitespace after it, so joining them gives the text back. */
export function toTokens(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? [];
}

/** Splits a passage into sentences (a line break ends one too). */
export function splitSentences(text: string): string[] {
  return (text.match(/[^.!?\n]+(?:[.!?]+["')\]]*|$)/g) ?? [])
    .map((s) => s.trim())
    .filter((s) => /\p{L}/u.test(s));
}

/**
 * The sentences of one source that best answer the question, in reading order: the best-scoring sentence and,
 * when it also matches, the next best (at most `max`). No sentence matching: the first one (the source already
 * cleared the relevance floor as a whole).
 */
function bestSentences(question: string, text: string, max = 2): string[] {
  const sentences = splitSentences(text);
  if (sentences.length <= 1) return sentences;
  const index = new Bm25Index(sentences.map((s, position) => ({ source: position, text: s, position })));
  const hits = index.search(question, max);
  if (!hits.length) return sentences.slice(0, 1);
  return hits
    .map((h) => h.position)
    .sort((a, b) => a - b)
    .map((i) => sentences[i]);
}

/** A numbered source the offline engine may quote (the chat's grounding sources, and a skill reference it read). */
export interface NumberedSource {
  n: number;
  kind: 'kb' | 'memory' | 'skill';
  title: string;
  text: string;
}

const DISCLAIMER =
  'This is general information from the offline built-in engine, not a diagnosis or a treatment plan. Please talk ' +
  'with your own care team about your situation, and call your local emergency number if you feel very unwell.';

/**
 * The grounded offline answer (ADR 0421): the best sentences of each retrieved source, each followed by its
 * citation `[n]`, then the list of sources by name. A skill reference counts only when some passage of it matches
 * the question. Nothing relevant: it says so, names a better-placed specialist when one is known and suggests a
 * question for a clinician, instead of quoting unrelated text.
 */
export function composeGroundedAnswer(input: {
  agentName: string;
  question: string;
  sources: NumberedSource[];
  /** Skill reference documents read this turn, cited with the next numbers. */
  references: AnswerSource[];
  missing?: MissingReason;
  fallback?: string;
  specialist?: string;
}): string {
  const quoted: Array<{ source: NumberedSource; lines: string[] }> = [];
  for (const source of input.sources.slice(0, 3)) {
    const lines = bestSentences(input.question, source.text);
    if (lines.length) quoted.push({ source, lines });
  }
  let next = input.sources.length + 1;
  const asked = [...new Set(tokenize(input.question))];
  for (const ref of input.references) {
    const { passages, index } = indexSources([ref]);
    const [best] = passages.length ? index.search(input.question, 1) : [];
    if (!best || !asked.length) continue;
    // The reference counts only when its best passage holds most of the question's words (all of them when
    // retrieved sources already answer): a shared "morning" is not an answer.
    const held = new Set(tokenize(`${best.heading ?? ''} ${best.text}`));
    const coverage = asked.filter((t) => held.has(t)).length / asked.length;
    if (coverage < (quoted.length ? 0.99 : 0.5)) continue;
    const chosen = selectPassages(input.question, [ref], quoted.length ? 2 : 4);
    quoted.push({
      source: { n: next++, kind: 'skill', title: ref.title, text: ref.text },
      lines: chosen.map((p) => p.text),
    });
  }
  const parts: string[] = [];
  if (input.missing === 'denied') {
    parts.push(
      'Clinical detail was withheld: the clinical reference document for this question is only shared when clinical ' +
        'information is switched on for this conversation. To turn it on, send "allow_clinical": true with the request, ' +
        'or ask your administrator to set the tenant setting chat.allowClinical to true. Here is the general part.',
    );
  } else if (input.missing === 'failed') {
    parts.push('I could not open the reference document for this question just now.');
  }
  if (quoted.length) {
    parts.push(`Here is what I found for you (${input.agentName}):`);
    for (const { source, lines } of quoted) {
      const body = source.kind === 'memory' ? `You told me before: "${lines.join(' ')}"` : lines.join(' ');
      parts.push(`${body} [${source.n}]`);
    }
    const names = quoted.map(({ source }) =>
      source.kind === 'memory'
        ? `[${source.n}] your earlier message (memory)`
        : source.kind === 'kb'
          ? `[${source.n}] ${source.title} (knowledge base)`
          : `[${source.n}] ${source.title} (${input.agentName} reference library)`,
    );
    parts.push(`Sources:\n${names.join('\n')}`);
  } else if (input.missing === 'denied') {
    if (input.fallback) parts.push(input.fallback);
  } else {
    parts.push(
      "I could not find anything in your organisation's knowledge base, in what you told me before or in my reference " +
        'documents that answers this question, so I will not guess.' +
        (input.specialist ? ` ${input.specialist} may be better placed to help with it.` : ''),
    );
    parts.push(
      'A question you could bring to a clinician: "Given my situation, what should I know or do about this, and when should I seek care?"',
    );
    if (input.fallback) parts.push(input.fallback);
  }
  parts.push(DISCLAIMER);
  return parts.join('\n\n');
}
