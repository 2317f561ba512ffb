import type { TaxonomyTree } from '@care/contracts';
import type { SkillLibrary, SkillReference } from '../providers/skill-library';
import type { AgentHit } from '../tools/search-catalog.tool';
import type { ToolAgent } from '../tools/tool.types';

/** An agent as the chat engine needs it (the catalog's AgentRecord fits). */
export interface ChatAgent extends ToolAgent {
  description: string;
  domain: string;
  category: string;
  status: string;
  persona: string;
  /** Example requests the agent is meant for (routing describes the agent by them). */
  examples?: readonly string[];
  tags?: readonly string[];
}

/**
 * What the chat engine reads from the catalog. The catalog service is adapted to it in one place
 * (`catalog-adapter.ts`), so the engine can be tested without HTTP and survives catalog refactors.
 */
export interface ChatCatalog extends SkillLibrary {
  agent(id: string): ChatAgent | undefined;
  /** Active specialists, in catalog order. */
  activeAgents(): readonly ChatAgent[];
  /** Ranked full-text search over active specialists. */
  search(query: string, limit: number): AgentHit[];
  taxonomy(): TaxonomyTree;
}

export type { SkillReference };
