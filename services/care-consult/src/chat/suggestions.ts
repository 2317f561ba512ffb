import { Bm25Index } from '../providers/builtin/retrieval';
import type { SkillReference } from '../providers/skill-library';

const MAX_ITEMS = 3;
const MAX_LENGTH = 80;

function clip(text: string): string {
  return text.length <= MAX_LENGTH ? text : `${text.slice(0, MAX_LENGTH - 1).trimEnd()}…`;
}

/**
 * Follow-up questions for the suggestion chips, deterministic: the agent's reference documents closest to the
 * question that this turn did not already use, then a question to take to the care team. Up to three.
 */
export function suggestFollowUps(input: {
  question: string;
  references: SkillReference[];
  used: Array<{ skill: string; reference: string }>;
}): string[] {
  const unused = input.references.filter(
    (r) => !input.used.some((u) => u.skill === r.skill && u.reference === r.reference),
  );
  const ranked = new Bm25Index(unused.map((r, position) => ({ source: r, text: r.title, position })))
    .search(input.question, MAX_ITEMS)
    .map((h) => h.source);
  // Nothing close to the question: the agent's first documents still show what else it can help with.
  const picks = [...ranked, ...unused.filter((r) => !ranked.includes(r))].slice(0, MAX_ITEMS - 1);
  const items = picks.map((r) => clip(`Tell me about ${lowerFirst(r.title)}`));
  items.push('What should I ask my care team about this?');
  return [...new Set(items)].slice(0, MAX_ITEMS);
}

function lowerFirst(title: string): string {
  // Keep acronyms (TIA, CGM) as they are.
  return /^[A-Z][a-z]/.test(title) ? title[0].toLowerCase() + title.slice(1) : title;
}
