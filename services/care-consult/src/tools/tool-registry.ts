import { performance } from 'node:perf_hooks';
import type { EmitFn } from '../chat/chat-events';
import type { ProviderToolSpec } from '../providers/provider.types';
import { abortError, isAbortError } from '../providers/provider.errors';
import { decideToolCall } from './tool-policy';
import type { ToolContext, ToolDefinition, ToolOutcome, ToolStatus } from './tool.types';

/** One executed (or refused) call, as stored in the thread checkpoint. */
export interface ToolCallRecord {
  id: string;
  tool: string;
  params: Record<string, unknown>;
  status: ToolStatus;
  allowed: boolean;
  duration_ms: number;
  bytes: number;
  reason?: string;
}

/** A call the engine wants run: from a model, or from the engine itself (memory recall and save). */
export interface ToolCallRequest {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * The tools by name, the policy in front of them, and the `tool_start`/`tool_end` frames around every call,
 * refused ones included (`allowed: false`), so a client always sees what was attempted.
 */
export class ToolRegistry {
  private readonly tools: Map<string, ToolDefinition>;

  constructor(tools: ToolDefinition[]) {
    this.tools = new Map(tools.map((t) => [t.name, t]));
  }

  /** The specs of the tools an agent declares and this registry has, for the model's tool list. */
  specsFor(agent: { tools: readonly string[] }): ProviderToolSpec[] {
    return agent.tools.flatMap((name) => {
      const t = this.tools.get(name);
      return t ? [{ name: t.name, description: t.description, parameters: t.parameters }] : [];
    });
  }

  /** Runs one call under the policy, emitting its frames. Abort propagates; any other failure is a status. */
  async execute(
    call: ToolCallRequest,
    ctx: ToolContext,
    emit: EmitFn,
  ): Promise<{ record: ToolCallRecord; outcome: ToolOutcome }> {
    const started = performance.now();
    const params = call.arguments;
    emit({ event: 'tool_start', data: { type: 'tool_start', tool: call.name, params } });
    const tool = this.tools.get(call.name);
    const decision = await decideToolCall(tool, call.name, params, ctx);
    let outcome: ToolOutcome;
    if (!decision.allowed) {
      outcome = { status: 'denied', content: decision.message };
    } else {
      try {
        outcome = await tool!.run(params, ctx);
      } catch (err) {
        if (isAbortError(err, ctx.signal)) throw err;
        outcome = { status: 'error', content: `${call.name} failed`, summary: { error: 'tool_failed' } };
      }
    }
    if (ctx.signal.aborted) throw abortError(ctx.signal);
    const duration = Math.round((performance.now() - started) * 100) / 100;
    const bytes = Buffer.byteLength(outcome.content, 'utf8');
    const reason = decision.allowed ? undefined : decision.reason;
    emit({
      event: 'tool_end',
      data: {
        type: 'tool_end',
        tool: call.name,
        duration_ms: duration,
        status: outcome.status,
        allowed: decision.allowed,
        result: { ...outcome.summary, bytes },
        ...(reason ? { reason } : {}),
      },
    });
    const record: ToolCallRecord = {
      id: call.id,
      tool: call.name,
      params,
      status: outcome.status,
      allowed: decision.allowed,
      duration_ms: duration,
      bytes,
    };
    if (reason) record.reason = reason;
    return { record, outcome };
  }
}
