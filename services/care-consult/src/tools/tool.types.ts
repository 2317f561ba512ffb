import type { ProviderToolSpec } from '../providers/provider.types';

/** The part of an agent the tools and their policy look at (an AgentRecord fits). */
export interface ToolAgent {
  id: string;
  name: string;
  clinical: boolean;
  tools: readonly string[];
  skills: readonly string[];
}

/** Who is calling and under which switches; passed to every tool run. */
export interface ToolContext {
  tenantId: string;
  userId: string;
  threadId: string;
  /** The message being answered, as `<checkpoint id>.<index in the conversation>` (provenance of saved facts). */
  messageId?: string;
  agent: ToolAgent;
  allowClinical: boolean;
  signal: AbortSignal;
}

/** Status of a finished call: `success` (ADR 0400), or why it produced nothing useful. */
export type ToolStatus = 'success' | 'denied' | 'invalid' | 'not_found' | 'unavailable' | 'error';

/** What a tool returns: text for the model, and a small summary for the `tool_end` frame (no bodies). */
export interface ToolOutcome {
  status: ToolStatus;
  /** Handed to the model as the tool result; its UTF-8 size is `result.bytes`. */
  content: string;
  /** Extra fields of `tool_end.result` (ids, counts, titles), never message text. */
  summary?: Record<string, unknown>;
  /** Structured result for the engine itself (never sent in a frame or to the model). */
  data?: unknown;
}

/** A tool of the registry. */
export interface ToolDefinition extends ProviderToolSpec {
  /** Whether this call touches clinical content, which needs `allow_clinical` (the policy asks before running). */
  isClinical(params: Record<string, unknown>, ctx: ToolContext): Promise<boolean> | boolean;
  run(params: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutcome>;
}
