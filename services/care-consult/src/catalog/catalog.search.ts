import MiniSearch from 'minisearch';
import type { AgentRecord } from './catalog.types';

/** One ranked hit. */
export interface SearchHit {
  id: string;
  score: number;
}

// Words that carry no topic in a health question; indexing them would let every persona match.
const STOP_WORDS = new Set(
  ('a an and are as at be but by can do for from have how i if in into is it its me my no not of on or our so ' +
    'than that the their them then there these they this to too was we what when where which who why will with ' +
    'you your yours about after also any been before being could did does had has he her his just more most she ' +
    'should some such very would').split(' '),
);

/** Lower-case, accents off, stop words out, a light plural stem (`medications` -> `medication`). */
export function normaliseTerm(term: string): string | null {
  const t = term.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
  if (!t || STOP_WORDS.has(t)) return null;
  if (t.length > 4 && t.endsWith('ies')) return `${t.slice(0, -3)}y`;
  if (t.length > 4 && t.endsWith('sses')) return t.slice(0, -2);
  if (t.length > 3 && t.endsWith('s') && !/(ss|us|is)$/.test(t)) return t.slice(0, -1);
  return t;
}

// Name and tags say what an agent is for; the persona is long and generic, so it only breaks ties.
const BOOST = { name: 4, tags: 3, category: 2.5, description: 2, skills: 1.5, domain: 1, persona: 0.4 };
const FIELDS = Object.keys(BOOST);

/**
 * Ranked full-text search over agents with MiniSearch (BM25+ scoring, per-field boosts, prefix matching for
 * words of 3+ letters and one typo for words of 5+). Built once per workspace load and then read-only, so
 * searches need no locking.
 */
export class AgentSearchIndex {
  private readonly mini: MiniSearch<AgentRecord>;

  constructor(agents: Iterable<AgentRecord>) {
    this.mini = new MiniSearch<AgentRecord>({
      idField: 'id',
      fields: FIELDS,
      storeFields: [],
      extractField: (doc, field) => {
        const v = (doc as unknown as Record<string, unknown>)[field];
        if (field === 'category' && typeof v === 'string') return v.replace(/[.-]/g, ' ');
        return Array.isArray(v) ? v.join(' ') : (v as string);
      },
      processTerm: (term) => normaliseTerm(term),
      searchOptions: {
        boost: BOOST,
        prefix: (term) => term.length >= 3,
        fuzzy: (term) => (term.length >= 5 ? 1 : false),
        maxFuzzy: 1,
        combineWith: 'OR',
      },
    });
    this.mini.addAll([...agents]);
  }

  /** Number of indexed agents. */
  get size(): number {
    return this.mini.documentCount;
  }

  /** All hits for `query`, best first (ties by id for a stable order). */
  search(query: string): SearchHit[] {
    return this.mini
      .search(query)
      .map((r) => ({ id: String(r.id), score: r.score }))
      .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  }
}
