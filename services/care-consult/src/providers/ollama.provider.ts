import { ProviderError, abortError, isAbortError } from './provider.errors';
import { readNdjson } from './ndjson';
import { parseToolArguments } from './tool-arguments';
import type { ChatProvider, ProviderEvent, ProviderMessage, ProviderRequest } from './provider.types';

/** Settings of the Ollama provider. */
export interface OllamaProviderOptions {
  /** e.g. `http://127.0.0.1:11434` (LOCAL_LLM_BASE_URL). */
  baseUrl: string;
  model: string;
  /** Bound on connecting and receiving the response head; the stream itself runs until done or aborted. */
  connectTimeoutMs?: number;
}

interface OllamaLine {
  message?: {
    content?: string;
    tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: unknown } }>;
  };
  done?: boolean;
  done_reason?: string;
  error?: string;
}

/** One message of Ollama's `/api/chat` request body. */
type OllamaMessage =
  | { role: 'system' | 'user' | 'assistant'; content: string }
  | { role: 'tool'; content: string; tool_name?: string }
  | {
      role: 'assistant';
      content: string;
      tool_calls: Array<{ function: { name: string; arguments: Record<string, unknown> } }>;
    };

function toOllamaMessages(system: string, messages: ProviderMessage[]): OllamaMessage[] {
  const out: OllamaMessage[] = [{ role: 'system', content: system }];
  for (const m of messages) {
    if (m.role === 'tool') out.push({ role: 'tool', content: m.content, tool_name: m.toolName });
    else if (m.role === 'assistant' && m.toolCalls?.length) {
      out.push({
        role: 'assistant',
        content: m.content,
        tool_calls: m.toolCalls.map((c) => ({ function: { name: c.name, arguments: c.arguments } })),
      });
    } else out.push({ role: m.role, content: m.content });
  }
  return out;
}

/**
 * Ollama's native `/api/chat`, streamed as NDJSON: one JSON object per line with `message.content`, tool calls
 * as whole objects in `message.tool_calls`, `done: true` on the last line, or an `{error}` line mid-stream.
 */
export class OllamaProvider implements ChatProvider {
  readonly id = 'ollama' as const;
  readonly offline = false;
  readonly model: string;
  private readonly baseUrl: string;
  private readonly connectTimeoutMs: number;

  constructor(options: OllamaProviderOptions) {
    this.model = options.model;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.connectTimeoutMs = options.connectTimeoutMs ?? 30000;
  }

  async *stream(request: ProviderRequest): AsyncIterable<ProviderEvent> {
    // The connect bound must not cut a long answer short: it is cleared once the response head arrived.
    const ctrl = new AbortController();
    const onAbort = () => ctrl.abort(request.signal.reason);
    request.signal.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => ctrl.abort(new Error('connect timeout')), this.connectTimeoutMs);
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          model: this.model,
          messages: toOllamaMessages(request.system, request.messages),
          stream: true,
          ...(request.tools.length
            ? { tools: request.tools.map((t) => ({ type: 'function', function: t })) }
            : {}),
          ...(request.maxTokens ? { options: { num_predict: request.maxTokens } } : {}),
        }),
        signal: ctrl.signal,
      });
    } catch (err) {
      request.signal.removeEventListener('abort', onAbort);
      throw this.wrap(err, request.signal, undefined);
    } finally {
      clearTimeout(timer);
    }
    try {
      yield* this.read(response, request.signal);
    } finally {
      request.signal.removeEventListener('abort', onAbort);
    }
  }

  private async *read(response: Response, signal: AbortSignal): AsyncIterable<ProviderEvent> {
    if (!response.ok || !response.body) {
      await response.body?.cancel().catch(() => undefined);
      throw new ProviderError(this.id, `The Ollama model call failed (status ${response.status})`, {
        status: response.status,
      });
    }
    let calls = 0;
    let reason: 'stop' | 'tool_calls' | 'length' | 'other' = 'other';
    try {
      for await (const raw of readNdjson(response.body as unknown as AsyncIterable<Uint8Array>)) {
        const line = raw as OllamaLine;
        if (line.error) throw new ProviderError(this.id, 'The Ollama model reported an error mid-stream');
        if (line.message?.content) yield { type: 'text', text: line.message.content };
        for (const c of line.message?.tool_calls ?? []) {
          const id = c.id ?? `ollama_call_${calls}`;
          calls++;
          yield {
            type: 'tool_call',
            call: { id, name: c.function?.name ?? '', arguments: parseToolArguments(c.function?.arguments) },
          };
        }
        if (line.done) {
          reason = calls ? 'tool_calls' : line.done_reason === 'length' ? 'length' : 'stop';
          break;
        }
      }
    } catch (err) {
      throw this.wrap(err, signal, response.status);
    }
    if (signal.aborted) throw abortError(signal);
    if (reason === 'other')
      throw new ProviderError(this.id, 'The Ollama stream ended before it said it was done');
    yield { type: 'end', reason };
  }

  private wrap(err: unknown, signal: AbortSignal, status: number | undefined): unknown {
    if (isAbortError(err, signal)) return abortError(signal);
    if (err instanceof ProviderError) return err;
    return new ProviderError(
      this.id,
      `The Ollama model call failed (${status ? 'stream broken' : 'unreachable'})`,
      {
        cause: err,
        status,
      },
    );
  }
}
