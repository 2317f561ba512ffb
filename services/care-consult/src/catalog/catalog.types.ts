import type { Domain } from '@care/contracts';

/** Agent statuses: only `active` agents are specialists (listed, searched, counted). */
export const AGENT_STATUSES = ['active', 'system', 'template'] as const;
/** One agent status. */
export type AgentStatus = (typeof AGENT_STATUSES)[number];

/** Tools an agent may declare (workspace README). */
export const AGENT_TOOLS = [
  'read_skill_reference',
  'search_catalog',
  'recall_memory',
  'save_memory',
] as const;

/** A loaded, validated agent package (`agents/<id>/AGENT.md`). */
export interface AgentRecord {
  id: string;
  name: string;
  description: string;
  domain: Domain;
  /** Dot path `<domain>.<category>[.<sub>]`. */
  category: string;
  status: AgentStatus;
  skills: string[];
  tools: string[];
  tags: string[];
  clinical: boolean;
  version: string;
  /** Example requests the agent is meant for (front matter `examples`, may be empty); routing reads them. */
  examples: string[];
  /** The Markdown body: the persona the model is given. */
  persona: string;
  /** Path relative to the workspace root. */
  file: string;
}

/** One reference document of a skill (`skills/<id>/references/<name>.md`). */
export interface SkillReference {
  /** File name, e.g. `red-flags.md`. */
  name: string;
  /** Path relative to the skill folder, e.g. `references/red-flags.md`. */
  path: string;
  /** First Markdown heading, or the file name without extension. */
  title: string;
  bytes: number;
  /** Full text, kept in memory for the offline engine and `read_skill_reference`. */
  content: string;
}

/** Optional metadata of a skill (Agent Skills `metadata` map). */
export interface SkillMetadata {
  domain?: Domain;
  tags: string[];
  version?: string;
  clinical: boolean;
  status: 'active' | 'template';
}

/** A loaded, validated skill package (`skills/<id>/SKILL.md`). */
export interface SkillRecord {
  /** The skill `name`, equal to its folder. */
  id: string;
  name: string;
  description: string;
  metadata: SkillMetadata;
  /** The SKILL.md body: the procedure an agent applies. */
  instructions: string;
  references: SkillReference[];
  file: string;
}

/** A problem found while loading the workspace; errors skip the package, warnings keep it. */
export interface WorkspaceProblem {
  severity: 'error' | 'warning';
  /** Path relative to the workspace root. */
  file: string;
  /** Front-matter field (`skills[1]`), absent when the whole file is at fault. */
  field?: string;
  message: string;
}

/** Everything one load of the workspace produced. */
export interface WorkspaceContent {
  root: string;
  agents: Map<string, AgentRecord>;
  skills: Map<string, SkillRecord>;
  problems: WorkspaceProblem[];
}
