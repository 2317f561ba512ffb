import type {
  ChatProvider,
  GroundingSource,
  ProviderGrounding,
  ProviderMessage,
} from '../providers/provider.types';
import type { MemoryClient, RecalledMemory } from '@care/clients';
import { citedSources, numberSources, searchKnowledgeBase } from './grounding';
import type { ToolRegistry } from '../tools/tool-registry';
import type { ToolContext } from '../tools/tool.types';
import type { ChatCatalog } from './chat-catalog';
import type { EmitFn } from './chat-events';
import { runModelLoop, type TurnState } from './model-loop';
import { extractFacts } from '../tools/memory-facts';
import { buildSystemPrompt } from './prompt';
import { suggestFollowUps } from './suggestions';
import type { ChatSettings, PreparedTurn } from './chat.types';

/** Inputs of {@link answerTurn}. */
export interface AnswerInput {
  catalog: ChatCatalog;
  provider: ChatProvider;
  registry: ToolRegistry;
  memory?: MemoryClient;
  settings: ChatSettings;
  turn: PreparedTurn;
  state: TurnState;
  emit: EmitFn;
  signal: AbortSignal;
}

/**
 * The answering part of a turn (no red flag): recall what the person shared before, build the prompt from the
 * persona and skills, run the model/tool loop, store an episodic memory, then send the suggestions.
 * Memory steps run only when the agent declares the tool and a memory backend is configured (the registry has it).
 */
export async function answerTurn(input: AnswerInput): Promise<string[]> {
  const { catalog, registry, turn, state, emit, signal } = input;
  const agent = turn.agent!;
  const ctx: ToolContext = {
    tenantId: turn.caller.tenantId,
    userId: turn.caller.userId,
    threadId: turn.lease.threadId,
    agent,
    messageId: `${turn.lease.checkpointId}.${lastUserIndex(turn.request.messages)}`,
    allowClinical: turn.request.allow_clinical === true,
    signal,
  };
  const has = (tool: string) => registry.specsFor(agent).some((t) => t.name === tool);
  let memories: string | undefined;
  let recalled: RecalledMemory[] = [];
  if (has('recall_memory')) {
    const { record, outcome } = await registry.execute(
      { id: 'recall_0', name: 'recall_memory', arguments: { query: turn.latest.slice(0, 2000), topK: 5 } },
      ctx,
      emit,
    );
    state.toolCalls.push(record);
    if (outcome.status === 'success' && Number(outcome.summary?.count) > 0) {
      memories = outcome.content;
      recalled = Array.isArray(outcome.data) ? (outcome.data as RecalledMemory[]) : [];
    }
  }
  // Grounding (ADR 0421): the tenant's knowledge base and the person's own memories, numbered for citation.
  const kb = input.memory ? await searchKnowledgeBase(input.memory, ctx, turn.latest, emit) : [];
  const sources = numberSources(turn.latest, kb, recalled);
  const grounding: ProviderGrounding = { sources };
  if (!sources.length) {
    // The router's next-best specialist for this question, when it routed the turn (ADR 0415).
    const other = turn.route?.alternatives.find((a) => a.id !== agent.id);
    if (other && other.id !== agent.id) grounding.specialist = other.name;
  }
  const skills: Array<{ id: string; description: string }> = [];
  for (const id of agent.skills) {
    const s = await catalog.readSkill(id);
    if (s) skills.push({ id, description: s.description });
  }
  const references = await catalog.listReferences(agent.skills);
  const system = buildSystemPrompt({
    agent,
    skills,
    references,
    allowClinical: ctx.allowClinical,
    memories,
    sources,
  });
  const messages: ProviderMessage[] = turn.request.messages.map((m) => ({
    role: m.role,
    content: m.content,
  }));
  await runModelLoop(
    {
      provider: input.provider,
      registry,
      ctx,
      system,
      messages,
      maxToolRounds: input.settings.maxToolRounds,
      maxTokens: input.settings.maxTokens,
      grounding,
    },
    state,
    emit,
  );
  // Only statements worth keeping are saved (ADR 0420): a question or a greeting leaves no memory and no call.
  const facts = has('save_memory') ? extractFacts(turn.latest) : [];
  if (facts.length) {
    const text = facts
      .map((f) => f.text)
      .join(' ')
      .slice(0, 2000);
    const { record } = await registry.execute(
      { id: 'save_0', name: 'save_memory', arguments: { text } },
      ctx,
      emit,
    );
    state.toolCalls.push(record);
  }
  // Below the routing floor the first chip asks which specialist the person needs (ADR 0415).
  const followUps = suggestFollowUps({ question: turn.latest, references, used: state.usedReferences });
  const suggestions = turn.route?.clarify ? [turn.route.clarify, ...followUps].slice(0, 3) : followUps;
  // The skill reference read this turn is the next source number (the offline engine cites it so).
  const numbered: GroundingSource[] = [...sources];
  for (const used of state.usedReferences) {
    const ref = references.find((r) => r.skill === used.skill && r.reference === used.reference);
    numbered.push({
      n: numbered.length + 1,
      kind: 'skill',
      id: `${used.skill}/${used.reference}`,
      title: ref?.title ?? used.reference,
      text: '',
      score: 0,
    });
  }
  const cited = citedSources(state.reply, numbered).map((s) => ({
    n: s.n,
    kind: s.kind,
    id: s.id,
    title: s.title,
    ...(s.documentId ? { document_id: s.documentId } : {}),
  }));
  emit({
    event: 'suggestions',
    data: { type: 'suggestions', items: suggestions, suggestions, sources: cited },
  });
  return suggestions;
}

function lastUserIndex(messages: ReadonlyArray<{ role: string }>): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === 'user') return i;
  return -1;
}
