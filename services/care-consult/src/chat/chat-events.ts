/** `message`: the assistant's turn begins; ids tell the client where the turn is stored and who answers. */
export interface MessageEventData {
  type: 'message';
  role: 'assistant';
  thread_id: string;
  checkpoint_id: string;
  agent_id: string | null;
  agent_name: string | null;
  /** True when the router chose the agent (no `agent_id` in the request). */
  routed: boolean;
  /** Routed turns: how sure the router was; `fallback` when the generalist answers below the confidence floor. */
  routing?: { confidence: number; fallback: boolean; alternatives: string[] };
  provider: string;
  model: string;
  offline: boolean;
}

/** `tool_end` payload (ADR 0400) plus `reason` when a call was refused by policy. */
export interface ToolEndEventData {
  type: 'tool_end';
  tool: string;
  duration_ms: number;
  status: string;
  allowed: boolean;
  result: { bytes: number } & Record<string, unknown>;
  reason?: string;
}

/**
 * A source the answer cites (ADR 0421), sent with `suggestions` (no new event type): its citation number, kind
 * (`kb`, `memory`, `skill`), id and title. Never the passage text.
 */
export interface CitedSource {
  n: number;
  kind: string;
  id: string;
  title: string;
  document_id?: string;
}

/** Every frame POST /api/chat can send, as event name and data. `error` precedes `done` after a failure. */
export type ChatEvent =
  | { event: 'message'; data: MessageEventData }
  | { event: 'token'; data: { type: 'token'; content: string } }
  | { event: 'tool_start'; data: { type: 'tool_start'; tool: string; params: Record<string, unknown> } }
  | { event: 'tool_end'; data: ToolEndEventData }
  | {
      event: 'suggestions';
      data: { type: 'suggestions'; items: string[]; suggestions: string[]; sources?: CitedSource[] };
    }
  | { event: 'refusal'; data: { type: 'refusal'; reason: string; message: string; category: string } }
  | { event: 'error'; data: { type: 'error'; code: string; message: string } }
  | { event: 'done'; data: '[DONE]' };

/** Where the chat engine sends its frames (the SSE writer in production, an array in tests). */
export type EmitFn = (event: ChatEvent) => void;

/** The `done` frame: literal `[DONE]`, not JSON (ADR 0400). */
export const DONE_EVENT: ChatEvent = { event: 'done', data: '[DONE]' };
