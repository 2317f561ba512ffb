// Grounding of a consultation turn (ADR 0421): what the tenant's knowledge base and the person's own memories say
// about the question, as numbered sources an answer cites. The memory service does the retrieval (both searches,
// filtered on the server); this module applies the relevance floor and numbers what is left.
import { performance } from 'node:perf_hooks';
import { candidatesFor, passageTitle, rankPassages } from '@care/passage-rank';
import { tokenize } from '../providers/builtin/retrieval';
import type { GroundingSource } from '../providers/provider.types';
import type { MemoryClient, RecalledMemory } from '@care/clients';
import type { ToolContext } from '../tools/tool.types';
import type { EmitFn } from './chat-events';

/** Name of the engine step in `tool_start`/`tool_end` (the event types of ADR 0400; no new event type). */
const KB_SEARCH_STEP = 'search_knowledge_base';

/**
 * The floor for knowledge-base passages (ADRs 0422, 0423). A passage is used when its re-ranked score (recall's
 * fused score plus the title's match to the question, @care/passage-rank) reaches `rank`; when it reaches the lower
 * `titled` and its document title names something the question names (a content word, or one of five letters or
 * more sharing its first five: "dyslexic" names "Dyslexia", "diarrhoea" "Diarrhea"); or when it holds `coverage`
 * of the question's distinct content words (short, precise questions, whatever the embedding provider). Below it
 * nothing is quoted and the answer says nothing was found. Calibrated on the builtin sentence encoder: `rank` above
 * the best unrelated passage of off-topic questions (~0.56, ADR 0422); `titled` just above the best passage of 30
 * off-topic questions whose title shares a word with the question (0.45; bench/grounding/off-topic.jsonl).
 */
const KB_FLOOR = { rank: 0.58, titled: 0.46, coverage: 0.6 } as const;

/** Letters two words must share at the start to count as naming the same thing in {@link titleNamesQuestion}. */
const SAME_WORD_PREFIX = 5;

/**
 * True when the document title of a remembered passage (`<title>\n\n<passage>`) shares a content word with the
 * question, words of five letters or more compared on their first five (spellings and derived forms).
 */
export function titleNamesQuestion(question: string, text: string): boolean {
  const key = (w: string) => (w.length >= SAME_WORD_PREFIX ? w.slice(0, SAME_WORD_PREFIX) : w);
  const asked = new Set(tokenize(question).map(key));
  return tokenize(passageTitle(text)).some((w) => asked.has(key(w)));
}

/** True when a re-ranked knowledge-base passage clears {@link KB_FLOOR}. */
export function relevantPassage(question: string, m: { text: string; rank: number }): boolean {
  if (m.rank >= KB_FLOOR.rank || coverage(question, m.text) >= KB_FLOOR.coverage) return true;
  return m.rank >= KB_FLOOR.titled && titleNamesQuestion(question, m.text);
}

/**
 * The floor for the person's own memories: lower, since they are few and already narrowed to the person (a
 * question names "medicine" where the memory names the medicine itself).
 */
const MEMORY_FLOOR = {
  coverage: 0.3,
  textScore: 0.25,
  vectorSimilarity: 0.5,
  vectorTextScore: 0.1,
} as const;

/** Share of the question's distinct content words found in the text (the offline engine's tokenizer). */
export function coverage(question: string, text: string): number {
  const asked = [...new Set(tokenize(question))];
  if (!asked.length) return 0;
  const held = new Set(tokenize(text));
  return asked.filter((t) => held.has(t)).length / asked.length;
}

/** At most this many knowledge-base passages become sources. */
const KB_MAX_SOURCES = 3;
/** Knowledge-base passages recalled per turn, for the re-ranking to choose from. */
const KB_TOP_K = candidatesFor(KB_MAX_SOURCES);

/** True when a recalled memory of the person clears the memory floor. */
export function relevant(
  question: string,
  m: RecalledMemory,
  floor: typeof MEMORY_FLOOR = MEMORY_FLOOR,
): boolean {
  // The service's lexical score weighs terms by their rarity in the partition, which says little in a small one;
  // the plain share of the question's words found is checked beside it.
  if (coverage(question, m.text) >= floor.coverage) return true;
  const s = m.signals ?? {};
  const text = typeof s.textScore === 'number' ? s.textScore : 0;
  const vector = typeof s.vectorSimilarity === 'number' ? s.vectorSimilarity : 0;
  return text >= floor.textScore || (vector >= floor.vectorSimilarity && text >= floor.vectorTextScore);
}

/** A knowledge-base passage as a source: `<title>\n\n<passage>` (platform-auth ADR 0107) split back apart. */
function kbSource(m: RecalledMemory): Omit<GroundingSource, 'n'> {
  const [title, ...rest] = m.text.split('\n\n');
  const doc = /^kb:([^:]+):(\d+)$/.exec(m.id);
  return {
    kind: 'kb',
    id: m.id,
    title: rest.length ? title.trim() : 'Knowledge base',
    text: (rest.length ? rest.join('\n\n') : m.text).trim(),
    score: m.score ?? 0,
    ...(doc ? { documentId: doc[1] } : {}),
  };
}

/** A memory of the person as a source. */
function memorySource(m: RecalledMemory): Omit<GroundingSource, 'n'> {
  return { kind: 'memory', id: m.id, title: 'What you told me before', text: m.text, score: m.score ?? 0 };
}

/**
 * Searches the tenant's knowledge base for the question (the memory service's recall filtered to `kb`, ADR 0310),
 * framed as a `search_knowledge_base` tool pair; failures are reported in `tool_end` and leave the turn without
 * knowledge-base sources. Returns the best passages down to the first that misses the floor, best first.
 */
export async function searchKnowledgeBase(
  client: MemoryClient,
  ctx: ToolContext,
  question: string,
  emit: EmitFn,
): Promise<RecalledMemory[]> {
  const started = performance.now();
  const query = question.slice(0, 2000);
  emit({ event: 'tool_start', data: { type: 'tool_start', tool: KB_SEARCH_STEP, params: { query } } });
  let status = 'success';
  let hits: RecalledMemory[] = [];
  let error: string | undefined;
  try {
    const recalled = (
      await client.recall(
        ctx.tenantId,
        { query, topK: KB_TOP_K, filter: { tagsAny: ['kb'] } },
        { signal: ctx.signal },
      )
    ).filter((m) => m.tags?.includes('kb'));
    // Best first by the re-ranked score, which also becomes the source's score (the order of the numbering). The
    // passages quoted are the top of that ranking, down to the first that misses the floor (ADR 0423): when the best
    // passage is not relevant, one further down sharing a word of its title with the question is not either.
    const ranked = rankPassages(query, recalled);
    const misses = ranked.findIndex((m) => !relevantPassage(query, m));
    hits = ranked
      .slice(0, Math.min(KB_MAX_SOURCES, misses < 0 ? ranked.length : misses))
      .map(({ rank, titleMatch: _t, ...m }) => ({ ...m, score: rank }));
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    status = 'unavailable';
    error = 'unavailable';
  }
  const summary = hits.map((h) => kbSource(h)).map((s) => ({ id: s.id, title: s.title }));
  emit({
    event: 'tool_end',
    data: {
      type: 'tool_end',
      tool: KB_SEARCH_STEP,
      duration_ms: Math.round((performance.now() - started) * 100) / 100,
      status,
      allowed: true,
      result: {
        bytes: Buffer.byteLength(JSON.stringify(summary), 'utf8'),
        count: hits.length,
        passages: summary,
        ...(error ? { error } : {}),
      },
    },
  });
  return hits;
}

/** Numbers the sources: the person's own memories and the knowledge-base passages, most relevant first. */
export function numberSources(
  question: string,
  kb: RecalledMemory[],
  memories: RecalledMemory[],
): GroundingSource[] {
  const all = [...memories.filter((m) => relevant(question, m)).map(memorySource), ...kb.map(kbSource)];
  all.sort((a, b) => b.score - a.score);
  return all.map((s, i) => ({ ...s, n: i + 1 }));
}

/** The sources an answer cites, in the order it first cites them (`[n]` markers). */
export function citedSources<T extends { n: number }>(reply: string, sources: T[]): T[] {
  const order: number[] = [];
  for (const m of reply.matchAll(/\[(\d{1,2})\]/g)) {
    const n = Number(m[1]);
    if (!order.includes(n)) order.push(n);
  }
  return order.flatMap((n) => sources.filter((s) => s.n === n));
}
