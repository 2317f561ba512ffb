import type { SkillReference } from '../providers/skill-library';
import type { ChatAgent } from './chat-catalog';

/** What the system prompt is made of. */
export interface PromptInput {
  agent: ChatAgent;
  skills: Array<{ id: string; description: string }>;
  references: SkillReference[];
  allowClinical: boolean;
  /** Lines recalled from memory for this person, if any. */
  memories?: string;
}

/**
 * The system prompt: the agent's persona first (it is the agent), then its skills and reference documents so
 * a model knows what it can read, then the platform's standing safety rules, which no persona overrides.
 */
export function buildSystemPrompt(input: PromptInput): string {
  const { agent } = input;
  const parts = [agent.persona.trim()];
  if (input.skills.length) {
    const lines = input.skills.map((s) => {
      const refs = input.references.filter((r) => r.skill === s.id).map((r) => `${r.reference} (${r.title})`);
      return `- ${s.id}: ${s.description}${refs.length ? `\n  references: ${refs.join('; ')}` : ''}`;
    });
    parts.push(`## Your skills\n${lines.join('\n')}`);
  }
  parts.push(
    [
      '## Platform rules',
      '- Before answering a health question, read the most relevant reference document with read_skill_reference and answer from it.',
      '- Give general information only: no diagnosis, no doses, never advise starting, stopping or changing a medicine.',
      '- Anything that sounds like an emergency: tell the person to call their local emergency number now (911 US, 112 EU, 999 UK).',
      '- Be brief, plain and kind; say what is uncertain; encourage contact with their own care team.',
      input.allowClinical
        ? '- Clinical information is switched on for this conversation.'
        : '- Clinical information is switched off for this conversation: clinical reference documents are not available; give general guidance.',
    ].join('\n'),
  );
  if (input.memories) parts.push(`## What this person told you before\n${input.memories}`);
  return parts.join('\n\n');
}
