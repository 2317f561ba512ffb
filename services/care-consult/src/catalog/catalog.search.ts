import { SearchIndex, type SearchHit } from './search-index';
import type { AgentRecord } from './catalog.types';

export type { SearchHit };

// Name and tags say what an agent is for; the persona is long and generic, so it only breaks ties.
const BOOST = { name: 4, tags: 3, category: 2.5, description: 2, skills: 1.5, domain: 1, persona: 0.4 };

/** Ranked full-text search over agents: one {@link SearchIndex} built per workspace load, then read-only. */
export class AgentSearchIndex {
  private readonly index: SearchIndex;
  private readonly records: AgentRecord[];

  constructor(agents: Iterable<AgentRecord>) {
    this.records = [...agents];
    this.index = new SearchIndex(
      this.records.map((a) => ({
        id: a.id,
        fields: {
          name: a.name,
          tags: a.tags.join(' '),
          category: a.category,
          description: a.description,
          skills: a.skills.join(' '),
          domain: a.domain,
          persona: a.persona,
        },
      })),
      BOOST,
    );
  }

  /** Number of indexed agents. */
  get size(): number {
    return this.index.size;
  }

  /** All hits for `query`, best first (ties by id). */
  search(query: string): SearchHit[] {
    return this.index.search(query);
  }

  /** The `limit` best agents that pass `keep`, with scores, and how many passed in all. */
  top(
    query: string,
    limit: number,
    keep?: (a: AgentRecord) => boolean,
  ): { total: number; hits: Array<{ agent: AgentRecord; score: number }> } {
    const r = this.index.top(query, { limit, accept: keep && ((d) => keep(this.records[d])) });
    return { total: r.total, hits: r.hits.map((h) => ({ agent: this.records[h.doc], score: h.score })) };
  }
}
