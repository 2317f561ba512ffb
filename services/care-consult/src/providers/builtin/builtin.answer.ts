import { Bm25Index, splitPassages, type Passage } from './retrieval';

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
        passages.push({ source: n, text: p.text, heading: p.heading, position, section: `${n}:${p.heading}` }),
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
export function selectPassages(question: string, sources: AnswerSource[], maxPassages = 4): Array<Passage<AnswerSource>> {
  if (!sources.length) return [];
  const { passages, index } = indexSources(sources);
  const withSource = (p: SourcePassage): Passage<AnswerSource> => ({ source: sources[p.source], text: p.text, heading: p.heading, position: p.position });
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
      parts.push('I could not open the reference document for this question just now, so here is general guidance.');
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
