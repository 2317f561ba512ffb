import type { LlmProviderName } from '../config';
/** A message as the chat providers see it; `tool` messages carry a tool result back to the model. */
export interface ProviderMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  /** Tool calls the assistant asked for (assistant messages only). */
  toolCalls?: ProviderToolCall[];
  /** Which call a `tool` message answers. */
  toolCallId?: string;
  /** Name of the tool a `tool` message answers (Ollama matches results by name). */
  toolName?: string;
  /** A `tool` message reporting a failed or refused call. */
  isError?: boolean;
}

/** A tool call requested by the model, arguments already parsed. */
export interface ProviderToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** A tool offered to the model: name, purpose and a JSON Schema of its parameters. */
export interface ProviderToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** What the agent is, for engines that answer from its skill documents (hosted models ignore it). */
export interface ProviderAgentContext {
  id: string;
  name: string;
  skills: string[];
}

/** A numbered source of a turn (ADR 0421): a knowledge-base passage, a memory of the person, or a skill reference. */
export interface GroundingSource {
  /** Citation number, `[n]` in the answer. */
  n: number;
  kind: 'kb' | 'memory' | 'skill';
  /** Memory id, or `<skill>/<reference>` for a skill reference. */
  id: string;
  /** Document title, or a label for a memory. */
  title: string;
  text: string;
  score: number;
  documentId?: string;
}

/** What the turn found before the model runs. */
export interface ProviderGrounding {
  sources: GroundingSource[];
  /** Someone better placed to answer, when nothing relevant was found (a specialist agent's name). */
  specialist?: string;
}

/** One model call: a system prompt, the conversation, the tools on offer, and the abort signal. */
export interface ProviderRequest {
  system: string;
  messages: ProviderMessage[];
  tools: ProviderToolSpec[];
  agent: ProviderAgentContext;
  signal: AbortSignal;
  maxTokens?: number;
  /** Retrieved sources of the turn (also in the system prompt for hosted models); the offline engine quotes them. */
  grounding?: ProviderGrounding;
}

/** What a provider streams back: text chunks, complete tool calls, then one `end`. */
export type ProviderEvent =
  | { type: 'text'; text: string }
  | { type: 'tool_call'; call: ProviderToolCall }
  | { type: 'end'; reason: 'stop' | 'tool_calls' | 'length' | 'other' };

/** A chat model behind one interface, whatever the vendor or wire format. */
export interface ChatProvider {
  /** As configured by LLM_PROVIDER and reported by /api/models (`offline` is the built-in engine). */
  readonly id: LlmProviderName;
  readonly model: string;
  /** True for the built-in engine: no network, answers from the workspace only. */
  readonly offline: boolean;
  /** Streams one model turn; must stop promptly (and reject with an abort error) once `signal` aborts. */
  stream(request: ProviderRequest): AsyncIterable<ProviderEvent>;
}
