import type { ToolContext, ToolDefinition } from './tool.types';

/** Why a call was refused. */
export type DenyReason = 'unknown_tool' | 'not_declared' | 'clinical_not_allowed';

/** The policy's answer for one call. */
export type PolicyDecision = { allowed: true } | { allowed: false; reason: DenyReason; message: string };

/**
 * Decides whether a call may run: the tool must exist, the agent must declare it (an agent only uses its own
 * tools, whatever a model asks for), and a clinical call needs `allow_clinical` on the request.
 */
export async function decideToolCall(
  tool: ToolDefinition | undefined,
  name: string,
  params: Record<string, unknown>,
  ctx: ToolContext,
): Promise<PolicyDecision> {
  if (!tool)
    return {
      allowed: false,
      reason: 'unknown_tool',
      message: `${name} is not allowed: there is no such tool`,
    };
  if (!ctx.agent.tools.includes(tool.name)) {
    return {
      allowed: false,
      reason: 'not_declared',
      message: `${name} is not allowed: agent ${ctx.agent.id} does not declare it`,
    };
  }
  if (!ctx.allowClinical && (await tool.isClinical(params, ctx))) {
    return {
      allowed: false,
      reason: 'clinical_not_allowed',
      message: `${name} is not allowed: clinical information is off for this conversation (allow_clinical)`,
    };
  }
  return { allowed: true };
}
