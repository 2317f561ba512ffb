import type { SkillLibrary } from '../providers/skill-library';
import type { ToolDefinition } from './tool.types';

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/**
 * `read_skill_reference`: the text of one reference document of a skill the agent declares. Clinical when the
 * skill is marked clinical, whichever agent reads it (ADR 0402 update): a clinical reference needs `allow_clinical`.
 */
export function readSkillReferenceTool(library: SkillLibrary): ToolDefinition {
  return {
    name: 'read_skill_reference',
    description:
      'Read one reference document of one of your skills. Use it before answering a health question, and answer from it. ' +
      'Give the skill id and the reference file name (e.g. "warning-signs.md").',
    parameters: {
      type: 'object',
      properties: {
        skill: { type: 'string', description: 'Skill id, one of the skills you declare' },
        reference: { type: 'string', description: 'Reference file name inside the skill, e.g. "basics.md"' },
      },
      required: ['skill', 'reference'],
      additionalProperties: false,
    },
    async isClinical(params) {
      const skill = await library.readSkill(str(params.skill));
      return skill?.clinical ?? false;
    },
    async run(params, ctx) {
      const skill = str(params.skill);
      const reference = str(params.reference).replace(/^references\//, '');
      if (!skill || !reference)
        return { status: 'invalid', content: 'read_skill_reference needs "skill" and "reference"' };
      if (!ctx.agent.skills.includes(skill)) {
        return {
          status: 'not_found',
          content: `Skill ${skill} is not one of this agent's skills`,
          summary: { skill },
        };
      }
      const text = await library.readReference(skill, reference);
      if (text === undefined) {
        const known = (await library.listReferences([skill])).map((r) => r.reference);
        return {
          status: 'not_found',
          content: `No reference ${reference} in ${skill}. Available: ${known.join(', ')}`,
          summary: { skill, reference },
        };
      }
      const title = /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? reference;
      return { status: 'success', content: text, summary: { skill, reference, title } };
    },
  };
}
