import type { ToolDefinition } from './tool.types';

/** One specialist found by a catalog search. */
export interface AgentHit {
  id: string;
  name: string;
  description: string;
  domain: string;
  category: string;
  /** Relevance when the search ranked the hit. */
  score?: number;
}

/** The catalog search the tool needs (the catalog service is adapted to it). */
export type AgentSearchFn = (query: string, limit: number) => AgentHit[];

/** `search_catalog`: finds specialists for a topic, so an agent can point the person to a better fit. */
export function searchCatalogTool(search: AgentSearchFn): ToolDefinition {
  return {
    name: 'search_catalog',
    description:
      'Search the catalog of specialist agents by topic; returns their ids, names and what they help with.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Topic words, e.g. "sleep problems"' },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: 10,
          description: 'How many agents at most (default 5)',
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    isClinical: () => false,
    async run(params) {
      const query = typeof params.query === 'string' ? params.query.trim().slice(0, 500) : '';
      if (!query) return { status: 'invalid', content: 'search_catalog needs a "query"' };
      const limit = Number.isInteger(params.limit) ? Math.min(10, Math.max(1, params.limit as number)) : 5;
      const hits = search(query, limit);
      const content = hits.length
        ? hits.map((a) => `- ${a.id} (${a.category}): ${a.name}: ${a.description}`).join('\n')
        : 'No specialist matches this topic.';
      return { status: 'success', content, summary: { count: hits.length, agents: hits.map((a) => a.id) } };
    },
  };
}
