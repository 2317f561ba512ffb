import { MemoryCallError, type MemoryClient, type RecalledMemory } from '@care/clients';
import { extractFacts } from './memory-facts';
import type { ToolContext, ToolDefinition, ToolOutcome } from './tool.types';

/** Tag that keeps one user's memories apart from the rest of the tenant partition. */
function userTag(userId: string): string {
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
 * The caller's own memories that relate to `query`: the memory service filters the tenant partition to the
 * caller's user tag before it ranks (ADR 0310), so other people's memories never take a place in the top K. The
 * tag is checked again here, so a memory of someone else can never be shown whatever the service answers.
 */
async function recallOwn(
  client: MemoryClient,
  ctx: ToolContext,
  query: string,
  topK: number,
): Promise<RecalledMemory[]> {
  const tag = userTag(ctx.userId);
  const hits = await client.recall(
    ctx.tenantId,
    { query, topK, filter: { tagsAny: [tag] } },
    { signal: ctx.signal },
  );
  return hits.filter((m) => m.tags?.includes(tag)).slice(0, topK);
}

/** `recall_memory`: what this person shared before that relates to the query (their own memories only). */
export function recallMemoryTool(client: MemoryClient): ToolDefinition {
  return {
    name: 'recall_memory',
    description: 'Recall what this person told you in earlier conversations that relates to a query.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to look for' },
        topK: {
          type: 'integer',
          minimum: 1,
          maximum: 10,
          description: 'How many memories at most (default 5)',
        },
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
        const mine = await recallOwn(client, ctx, query, topK);
        const content = mine.length
          ? mine.map((m) => `- ${m.text}`).join('\n')
          : 'Nothing relevant was remembered.';
        return { status: 'success', content, summary: { count: mine.length }, data: mine };
      } catch (err) {
        return failure(err, ctx, 'recall_memory');
      }
    },
  };
}

/**
 * `save_memory`: stores what this person said about themselves that is worth keeping (ADR 0420): medicines,
 * allergies, conditions, preferences, goals and circumstances, one semantic USER_STATED memory per statement,
 * tagged with its owner, its kinds and its provenance (agent, thread, message). Questions, greetings and small
 * talk are refused (`invalid`), whoever asks to save them, the engine or a model.
 */
export function saveMemoryTool(client: MemoryClient): ToolDefinition {
  return {
    name: 'save_memory',
    description:
      'Remember a fact this person stated about themselves (a medicine, an allergy, a condition, a preference, a goal or a circumstance), for later conversations. Not for questions.',
    parameters: {
      type: 'object',
      properties: {
        text: {
          type: 'string',
          description: 'The statement to remember, in the first person, in one or two sentences',
        },
      },
      required: ['text'],
      additionalProperties: false,
    },
    isClinical: () => false,
    async run(params, ctx) {
      const text = typeof params.text === 'string' ? params.text.trim().slice(0, 2000) : '';
      if (!text) return { status: 'invalid', content: 'save_memory needs a "text"' };
      const facts = extractFacts(text);
      if (!facts.length) {
        return {
          status: 'invalid',
          content:
            'Not saved: only statements about the person (medicines, allergies, conditions, preferences, goals, circumstances) are remembered, never questions or greetings.',
          summary: { saved: 0 },
        };
      }
      const provenance = [
        `agent:${ctx.agent.id}`,
        `thread:${ctx.threadId}`,
        ...(ctx.messageId ? [`message:${ctx.messageId}`] : []),
      ];
      try {
        const ids: string[] = [];
        for (const fact of facts) {
          const tags = [
            'chat',
            userTag(ctx.userId),
            ...fact.kinds.map((k) => `fact:${k}`),
            ...provenance,
          ].map((t) => t.slice(0, 100));
          const id = await client.remember(
            ctx.tenantId,
            { text: fact.text, type: 'SEMANTIC', source: 'USER_STATED', tags },
            { signal: ctx.signal },
          );
          if (id) ids.push(id);
        }
        return {
          status: 'success',
          content: `Saved ${facts.length} fact(s).`,
          summary: { saved: facts.length, ids, kinds: [...new Set(facts.flatMap((f) => f.kinds))] },
        };
      } catch (err) {
        return failure(err, ctx, 'save_memory');
      }
    },
  };
}
