import type { GroundingSource } from '../providers/provider.types';
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
  /** Numbered sources retrieved for this turn (knowledge base, the person's memories). */
  sources?: GroundingSource[];
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
  const sources = input.sources ?? [];
  if (sources.length) {
    const list = sources.map(
      (s) =>
        `[${s.n}] ${s.kind === 'memory' ? 'Memory: what this person told you before' : `${s.title} (knowledge base)`}\n${s.text}`,
    );
    parts.push(
      [
        '## Sources for this question',
        'Answer from these numbered sources. After each statement taken from a source, cite it as [n]. A reference document you read is cited by its title. ' +
          'If the sources do not answer the question, say so plainly and suggest what to ask a clinician; never fill the gap with unrelated text.',
        ...list,
      ].join('\n\n'),
    );
  } else {
    parts.push(
      "## Sources for this question\nNothing in the knowledge base or in this person's memories matched this question. If your reference documents do not answer it either, say so plainly and suggest the right specialist or a question for a clinician.",
    );
  }
  return parts.join('\n\n');
}
