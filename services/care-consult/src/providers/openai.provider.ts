import OpenAI from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { ProviderError, abortError, isAbortError } from './provider.errors';
import { parseToolArguments } from './tool-arguments';
import type { ChatProvider, ProviderEvent, ProviderMessage, ProviderRequest } from './provider.types';

/** Settings of the OpenAI-compatible provider. */
export interface OpenAiProviderOptions {
  apiKey: string;
  /** Any server speaking the chat-completions API (OpenAI, vLLM, LM Studio, a gateway...). */
  baseUrl?: string;
  model: string;
  timeoutMs?: number;
  maxRetries?: number;
}

function toOpenAiMessages(system: string, messages: ProviderMessage[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [{ role: 'system', content: system }];
  for (const m of messages) {
    if (m.role === 'tool') {
      out.push({ role: 'tool', tool_call_id: m.toolCallId ?? '', content: m.content });
    } else if (m.role === 'assistant' && m.toolCalls?.length) {
      out.push({
        role: 'assistant',
        content: m.content || null,
        tool_calls: m.toolCalls.map((c) => ({
          id: c.id,
          type: 'function' as const,
          function: { name: c.name, arguments: JSON.stringify(c.arguments) },
        })),
      });
    } else {
      out.push({ role: m.role, content: m.content });
    }
  }
  return out;
}

type PartialCall = { id: string; name: string; args: string };

function finishReason(reason: string | null | undefined): 'stop' | 'tool_calls' | 'length' | 'other' {
  if (reason === 'stop' || reason === 'tool_calls' || reason === 'length') return reason;
  return 'other';
}

/**
 * OpenAI chat completions over the official SDK, streamed. Tool-call fragments arrive spread over chunks (by
 * `index`), so they are assembled and emitted whole once the stream says why it finished.
 */
export class OpenAiProvider implements ChatProvider {
  readonly id = 'openai' as const;
  readonly offline = false;
  readonly model: string;
  private readonly client: OpenAI;

  constructor(options: OpenAiProviderOptions) {
    this.model = options.model;
    this.client = new OpenAI({
      apiKey: options.apiKey,
      baseURL: options.baseUrl,
      timeout: options.timeoutMs ?? 60000,
      maxRetries: options.maxRetries ?? 1,
    });
  }

  async *stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
    const tools: ChatCompletionTool[] = request.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
    let stream: AsyncIterable<ChatCompletionChunk>;
    try {
      stream = await this.client.chat.completions.create(
        {
          model: this.model,
          messages: toOpenAiMessages(request.system, request.messages),
          stream: true,
          ...(tools.length ? { tools } : {}),
          ...(request.maxTokens ? { max_tokens: request.maxTokens } : {}),
        },
        { signal: request.signal },
      );
    } catch (err) {
      throw this.wrap(err, request.signal);
    }
    const calls = new Map<number, PartialCall>();
    let reason: ReturnType<typeof finishReason> = 'other';
    try {
      for await (const chunk of stream) {
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        if (choice.delta?.content) yield { type: 'text', text: choice.delta.content };
        for (const d of choice.delta?.tool_calls ?? []) {
          const call = calls.get(d.index) ?? { id: '', name: '', args: '' };
          if (d.id) call.id = d.id;
          if (d.function?.name) call.name += d.function.name;
          if (d.function?.arguments) call.args += d.function.arguments;
          calls.set(d.index, call);
        }
        if (choice.finish_reason) reason = finishReason(choice.finish_reason);
      }
    } catch (err) {
      throw this.wrap(err, request.signal);
    }
    if (request.signal.aborted) throw abortError(request.signal);
    for (const [index, c] of [...calls.entries()].sort((a, b) => a[0] - b[0])) {
      yield {
        type: 'tool_call',
        call: { id: c.id || `call_${index}`, name: c.name, arguments: parseToolArguments(c.args) },
      };
    }
    yield { type: 'end', reason: calls.size && reason === 'other' ? 'tool_calls' : reason };
  }

  private wrap(err: unknown, signal: AbortSignal): unknown {
    if (isAbortError(err, signal)) return abortError(signal);
    const status = err instanceof OpenAI.APIError ? err.status : undefined;
    const what = status
      ? `status ${status}`
      : err instanceof OpenAI.APIConnectionError
        ? 'unreachable'
        : 'stream failed';
    return new ProviderError(this.id, `The OpenAI-compatible model call failed (${what})`, {
      cause: err,
      status,
    });
  }
}
