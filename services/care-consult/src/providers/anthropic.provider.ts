import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam, RawMessageStreamEvent, Tool } from '@anthropic-ai/sdk/resources/messages';
import { ProviderError, abortError, isAbortError } from './provider.errors';
import { parseToolArguments } from './tool-arguments';
import type { ChatProvider, ProviderEvent, ProviderMessage, ProviderRequest } from './provider.types';

/** Settings of the Anthropic provider. */
export interface AnthropicProviderOptions {
  apiKey: string;
  baseUrl?: string;
  model: string;
  timeoutMs?: number;
  maxRetries?: number;
}

type Block = Exclude<MessageParam['content'], string>[number];

/**
 * Anthropic wants tool results inside a user turn and strictly alternating roles, so consecutive tool results
 * (and a user message after them) are merged into one user message.
 */
function toAnthropicMessages(messages: ProviderMessage[]): MessageParam[] {
  const out: MessageParam[] = [];
  const push = (role: 'user' | 'assistant', blocks: Block[]) => {
    const last = out[out.length - 1];
    if (last && last.role === role && Array.isArray(last.content)) (last.content as Block[]).push(...blocks);
    else out.push({ role, content: blocks } as MessageParam);
  };
  for (const m of messages) {
    if (m.role === 'system') continue; // the system prompt travels in `system`
    if (m.role === 'tool') {
      push('user', [
        { type: 'tool_result', tool_use_id: m.toolCallId ?? '', content: m.content, is_error: m.isError },
      ]);
    } else if (m.role === 'assistant') {
      const blocks: Block[] = m.content ? [{ type: 'text', text: m.content }] : [];
      for (const c of m.toolCalls ?? [])
        blocks.push({ type: 'tool_use', id: c.id, name: c.name, input: c.arguments });
      if (blocks.length) push('assistant', blocks);
    } else {
      push('user', [{ type: 'text', text: m.content }]);
    }
  }
  return out;
}

function endReason(stop: string | null | undefined): 'stop' | 'tool_calls' | 'length' | 'other' {
  if (stop === 'end_turn' || stop === 'stop_sequence') return 'stop';
  if (stop === 'tool_use') return 'tool_calls';
  if (stop === 'max_tokens') return 'length';
  return 'other';
}

/**
 * Anthropic Messages API over the official SDK, streamed. Text arrives as `text_delta`; a tool call opens a
 * `tool_use` block whose JSON input comes in `input_json_delta` pieces and is complete at `content_block_stop`.
 * An `error` event mid-stream makes the SDK throw, which becomes a {@link ProviderError}.
 */
export class AnthropicProvider implements ChatProvider {
  readonly id = 'anthropic' as const;
  readonly offline = false;
  readonly model: string;
  private readonly client: Anthropic;

  constructor(options: AnthropicProviderOptions) {
    this.model = options.model;
    this.client = new Anthropic({
      apiKey: options.apiKey,
      baseURL: options.baseUrl,
      timeout: options.timeoutMs ?? 60000,
      maxRetries: options.maxRetries ?? 1,
    });
  }

  async *stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
    const tools: Tool[] = request.tools.map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: t.parameters as Tool['input_schema'],
    }));
    let stream: AsyncIterable<RawMessageStreamEvent>;
    try {
      stream = await this.client.messages.create(
        {
          model: this.model,
          system: request.system,
          messages: toAnthropicMessages(request.messages),
          max_tokens: request.maxTokens ?? 1024,
          stream: true,
          ...(tools.length ? { tools } : {}),
        },
        { signal: request.signal },
      );
    } catch (err) {
      throw this.wrap(err, request.signal);
    }
    const open = new Map<number, { id: string; name: string; json: string }>();
    let reason: ReturnType<typeof endReason> = 'other';
    try {
      for await (const event of stream) {
        if (event.type === 'content_block_start' && event.content_block.type === 'tool_use') {
          open.set(event.index, { id: event.content_block.id, name: event.content_block.name, json: '' });
        } else if (event.type === 'content_block_delta') {
          if (event.delta.type === 'text_delta') yield { type: 'text', text: event.delta.text };
          else if (event.delta.type === 'input_json_delta') {
            const block = open.get(event.index);
            if (block) block.json += event.delta.partial_json;
          }
        } else if (event.type === 'content_block_stop') {
          const block = open.get(event.index);
          if (block) {
            open.delete(event.index);
            yield {
              type: 'tool_call',
              call: { id: block.id, name: block.name, arguments: parseToolArguments(block.json) },
            };
          }
        } else if (event.type === 'message_delta') {
          reason = endReason(event.delta.stop_reason);
        }
      }
    } catch (err) {
      throw this.wrap(err, request.signal);
    }
    if (request.signal.aborted) throw abortError(request.signal);
    yield { type: 'end', reason };
  }

  private wrap(err: unknown, signal: AbortSignal): unknown {
    if (isAbortError(err, signal)) return abortError(signal);
    const status = err instanceof Anthropic.APIError ? err.status : undefined;
    const type =
      err instanceof Anthropic.APIError
        ? (err.error as { error?: { type?: string } } | undefined)?.error?.type
        : undefined;
    const what = [status ? `status ${status}` : undefined, type].filter(Boolean).join(', ');
    const detail = what || (err instanceof Anthropic.APIConnectionError ? 'unreachable' : 'stream failed');
    return new ProviderError(this.id, `The Anthropic model call failed (${detail})`, { cause: err, status });
  }
}
