import type {
  ChatProvider,
  ProviderGrounding,
  ProviderMessage,
  ProviderToolCall,
} from '../providers/provider.types';
import type { ToolCallRecord, ToolRegistry } from '../tools/tool-registry';
import type { ToolContext } from '../tools/tool.types';
import type { EmitFn } from './chat-events';

/** What a turn produced so far; kept by the caller so an aborted or failed turn can still be recorded. */
export interface TurnState {
  reply: string;
  toolCalls: ToolCallRecord[];
  /** Reference documents read successfully (for suggestions and the checkpoint). */
  usedReferences: Array<{ skill: string; reference: string }>;
  tokens: number;
}

/** A fresh, empty turn state. */
export function newTurnState(): TurnState {
  return { reply: '', toolCalls: [], usedReferences: [], tokens: 0 };
}

/** Inputs of {@link runModelLoop}. */
export interface ModelLoopInput {
  provider: ChatProvider;
  registry: ToolRegistry;
  ctx: ToolContext;
  system: string;
  messages: ProviderMessage[];
  /** Model turns that may end in tool calls; one more turn without tools then forces an answer. */
  maxToolRounds: number;
  maxTokens?: number;
  grounding?: ProviderGrounding;
}

/**
 * The model/tool loop: stream a model turn, forward its text as `token` frames, run the tool calls it asked
 * for through the registry (policy and frames included), hand the results back, and repeat until the model
 * answers without tools. Every await is on the turn's abort signal, so a client disconnect stops it at once.
 */
export async function runModelLoop(input: ModelLoopInput, state: TurnState, emit: EmitFn): Promise<void> {
  const { provider, registry, ctx } = input;
  const messages = [...input.messages];
  const tools = registry.specsFor(ctx.agent);
  for (let round = 0; ; round++) {
    const offerTools = round < input.maxToolRounds && tools.length > 0;
    const calls: ProviderToolCall[] = [];
    let text = '';
    const stream = provider.stream({
      system: input.system,
      messages,
      tools: offerTools ? tools : [],
      agent: { id: ctx.agent.id, name: ctx.agent.name, skills: [...ctx.agent.skills] },
      signal: ctx.signal,
      maxTokens: input.maxTokens,
      grounding: input.grounding,
    });
    for await (const event of stream) {
      if (event.type === 'text' && event.text) {
        text += event.text;
        state.reply += event.text;
        state.tokens++;
        emit({ event: 'token', data: { type: 'token', content: event.text } });
      } else if (event.type === 'tool_call') {
        calls.push(event.call);
      }
    }
    if (!calls.length) return;
    if (!offerTools) return; // a model calling tools it was not offered gets no second chance to loop
    messages.push({ role: 'assistant', content: text, toolCalls: calls });
    for (const call of calls) {
      const { record, outcome } = await registry.execute(call, ctx, emit);
      state.toolCalls.push(record);
      if (record.tool === 'read_skill_reference' && outcome.status === 'success') {
        state.usedReferences.push({
          skill: String(call.arguments.skill),
          reference: String(call.arguments.reference).replace(/^references\//, ''),
        });
      }
      messages.push({
        role: 'tool',
        content: outcome.content,
        toolCallId: call.id,
        toolName: call.name,
        isError: outcome.status !== 'success',
      });
    }
  }
}
