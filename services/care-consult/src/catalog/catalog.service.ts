import type {
  AgentDetail,
  AgentList,
  AgentsQuery,
  AgentSummary as AgentSummarySchema,
  ReferenceListing as ReferenceListingSchema,
  SkillDetail,
  SkillList,
  Static,
  TaxonomyTree,
} from '@care/contracts';
import { NotFoundError } from '@care/service-kit';
import type { AuditMeta } from '../audit/audit.service';
import type { CatalogSnapshot, CatalogStore } from './catalog.store';
import type { AgentRecord, SkillRecord, SkillReference } from './catalog.types';

/** An agent in a list. `score` is present when the list answers a full-text query. */
type AgentSummary = Static<typeof AgentSummarySchema>;
/** A reference document as listed (its text is read through {@link CatalogService.readReference}). */
type ReferenceListing = Static<typeof ReferenceListingSchema>;

const DEFAULT_LIMIT = 10;

function summary(a: AgentRecord, score?: number): AgentSummary {
  const s: AgentSummary = {
    id: a.id,
    name: a.name,
    description: a.description,
    domain: a.domain,
    category: a.category,
    tags: a.tags,
    skills: a.skills,
    clinical: a.clinical,
    version: a.version,
  };
  if (score !== undefined) s.score = Math.round(score * 1000) / 1000;
  return s;
}

function listing(r: SkillReference): ReferenceListing {
  return { name: r.name, path: r.path, title: r.title, bytes: r.bytes };
}

/** True when `category` equals `prefix` or lies below it (segment-wise: `clinical.tri` does not match `clinical.triage`). */
function inCategory(category: string, prefix: string): boolean {
  return category === prefix || category.startsWith(`${prefix}.`);
}

/** The audit event of an agent search (ids and counts only: the search text itself is never stored). */
export function agentSearchAudit(
  q: AgentsQuery,
  list: Static<typeof AgentList>,
): { action: string; resourceType: string; meta: AuditMeta } {
  return {
    action: 'catalog.agents.list',
    resourceType: 'agent',
    meta: {
      domain: q.domain,
      category: q.category,
      queryLength: q.query?.length,
      results: list.agents.length,
    },
  };
}

/** Catalog reads over the current snapshot: filters, ranked search, taxonomy, details. No HTTP here. */
export class CatalogService {
  constructor(private readonly store: CatalogStore) {}

  private get snap(): CatalogSnapshot {
    return this.store.snapshot();
  }

  /** Active agents matching the filters; ranked by relevance when `query` has words, else in catalog order. */
  listAgents(q: AgentsQuery): Static<typeof AgentList> {
    const snap = this.snap;
    const limit = q.limit ?? DEFAULT_LIMIT;
    const keep = (a: AgentRecord) =>
      (!q.domain || a.domain === q.domain) && (!q.category || inCategory(a.category, q.category));
    const text = q.query?.trim();
    if (text) {
      const { total, hits } = snap.index.top(text, limit, q.domain || q.category ? keep : undefined);
      return { total, limit, agents: hits.map((h) => summary(h.agent, h.score)) };
    }
    const matches = snap.activeAgents.filter(keep);
    return { total: matches.length, limit, agents: matches.slice(0, limit).map((a) => summary(a)) };
  }

  /** The taxonomy tree with counts (active agents only). */
  categories(): TaxonomyTree {
    return this.snap.taxonomy;
  }

  /** An agent's manifest, its declared skills with their reference listings, and its persona. */
  getAgent(id: string): Static<typeof AgentDetail> {
    const snap = this.snap;
    const a = snap.agents.get(id);
    if (!a) throw new NotFoundError(`No agent with id "${id}"`, 'AGENT_NOT_FOUND');
    return {
      id: a.id,
      name: a.name,
      description: a.description,
      domain: a.domain,
      category: a.category,
      status: a.status,
      tags: a.tags,
      tools: a.tools,
      clinical: a.clinical,
      version: a.version,
      skills: a.skills.map((sid) => {
        const s = snap.skills.get(sid)!;
        return { id: s.id, name: s.name, description: s.description, references: s.references.map(listing) };
      }),
      persona: a.persona,
    };
  }

  /** Skill packages (templates excluded), sorted by id. */
  listSkills(): Static<typeof SkillList> {
    const skills = this.snap.countedSkills.map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      domain: s.metadata.domain ?? null,
      tags: s.metadata.tags,
      version: s.metadata.version ?? null,
      clinical: s.metadata.clinical,
      references: s.references.length,
    }));
    return { total: skills.length, skills };
  }

  /** A skill's manifest, instructions and reference listing. */
  getSkill(id: string): Static<typeof SkillDetail> {
    const snap = this.snap;
    const s = snap.skills.get(id);
    if (!s) throw new NotFoundError(`No skill with id "${id}"`, 'SKILL_NOT_FOUND');
    return {
      id: s.id,
      name: s.name,
      description: s.description,
      metadata: s.metadata,
      instructions: s.instructions,
      references: s.references.map(listing),
      agents: snap.activeAgents.filter((a) => a.skills.includes(s.id)).map((a) => a.id),
    };
  }

  /** The loaded agent record (any status) for the chat engine, or undefined. */
  agent(id: string): AgentRecord | undefined {
    return this.snap.agents.get(id);
  }

  /** The loaded skill record for the chat engine, or undefined. */
  skill(id: string): SkillRecord | undefined {
    return this.snap.skills.get(id);
  }

  /** Text of one reference document (`red-flags.md` or `references/red-flags.md`); 404 when unknown. */
  readReference(skillId: string, name: string): SkillReference {
    const s = this.snap.skills.get(skillId);
    const ref = s?.references.find((r) => r.name === name || r.path === name);
    if (!ref) throw new NotFoundError(`No reference "${name}" in skill "${skillId}"`, 'REFERENCE_NOT_FOUND');
    return ref;
  }
}
