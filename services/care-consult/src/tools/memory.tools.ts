import { MemoryCallError, type MemoryClient } from './memory.client';
import type { ToolContext, ToolDefinition, ToolOutcome } from './tool.types';

/** Tag that keeps one user's memories apart from the rest of the tenant partition. */
export function userTag(userId: string): string {
  return `user:${userId}`.slice(0, 100);
}

function failure(err: unknown, ctx: ToolContext, tool: string): ToolOutcome {
  if (ctx.signal.aborted) throw err;
  if (err instanceof MemoryCallError) {
    return {
      status: err.kind === 'unavailable' ? 'unavailable' : 'error',
      content: `${tool}: the memory service is not available right now; continue without it`,
      summary: { error: err.kind, ...(err.status ? { upstream_status: err.status } : {}) },
    };
  }
  throw err;
}

/**
 * `recall_memory`: what this person shared before that relates to the query. The partition is the tenant
 * (memory service design); results are narrowed to the caller's own memories by their user tag.
 */
export function recallMemoryTool(client: MemoryClient): ToolDefinition {
  return {
    name: 'recall_memory',
    description: 'Recall what this person told you in earlier conversations that relates to a query.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to look for' },
        topK: { type: 'integer', minimum: 1, maximum: 10, description: 'How many memories at most (default 5)' },
      },
      required: ['query'],
      additionalProperties: false,
    },
    isClinical: () => false,
    async run(params, ctx) {
      const query = typeof params.query === 'string' ? params.query.trim().slice(0, 4000) : '';
      if (!query) return { status: 'invalid', content: 'recall_memory needs a "query"' };
      const topK = Number.isInteger(params.topK) ? Math.min(10, Math.max(1, params.topK as number)) : 5;
      try {
        // Over-fetch: other users' memories in the tenant partition are dropped below.
        const all = await client.recall(ctx.tenantId, query, Math.min(100, topK * 4), ctx.signal);
        const mine = all.filter((m) => m.tags?.includes(userTag(ctx.userId))).slice(0, topK);
        const content = mine.length ? mine.map((m) => `- ${m.text}`).join('\n') : 'Nothing relevant was remembered.';
        return { status: 'success', content, summary: { count: mine.length } };
      } catch (err) {
        return failure(err, ctx, 'recall_memory');
      }
    },
  };
}

/** `save_memory`: stores an episodic memory of what the person said, tagged with user, agent and thread. */
export function saveMemoryTool(client: MemoryClient): ToolDefinition {
  return {
    name: 'save_memory',
    description: 'Remember something this person told you, for later conversations.',
    parameters: {
      type: 'object',
      properties: { text: { type: 'string', description: 'What to remember, in one or two sentences' } },
      required: ['text'],
      additionalProperties: false,
    },
    isClinical: () => false,
    async run(params, ctx) {
      const text = typeof params.text === 'string' ? params.text.trim().slice(0, 2000) : '';
      if (!text) return { status: 'invalid', content: 'save_memory needs a "text"' };
      const tags = ['chat', userTag(ctx.userId), `agent:${ctx.agent.id}`, `thread:${ctx.threadId}`].map((t) => t.slice(0, 100));
      try {
        const id = await client.remember(ctx.tenantId, { text, type: 'EPISODIC', source: 'USER_STATED', tags }, ctx.signal);
        return { status: 'success', content: 'Saved.', summary: id ? { id } : {} };
      } catch (err) {
        return failure(err, ctx, 'save_memory');
      }
    },
  };
}
