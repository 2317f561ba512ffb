import type { CatalogService } from '../catalog/catalog.service';
import type { ChatCatalog } from './chat-catalog';

/** Adapts the catalog service (in-memory snapshot, reloaded on workspace changes) to what the chat engine reads. */
export function chatCatalogFrom(
  catalog: CatalogService,
  activeAgents: () => ReturnType<ChatCatalog['activeAgents']>,
): ChatCatalog {
  return {
    agent: (id) => catalog.agent(id),
    activeAgents,
    search: (query, limit) =>
      catalog.listAgents({ query, limit }).agents.map((a) => ({
        id: a.id,
        name: a.name,
        description: a.description,
        domain: a.domain,
        category: a.category,
        score: a.score,
      })),
    taxonomy: () => catalog.categories(),
    async listReferences(skillIds) {
      return skillIds.flatMap((id) => {
        const s = catalog.skill(id);
        return s ? s.references.map((r) => ({ skill: id, reference: r.name, title: r.title })) : [];
      });
    },
    async readReference(skillId, reference) {
      const s = catalog.skill(skillId);
      const name = reference.replace(/^references\//, '');
      return s?.references.find((r) => r.name === name)?.content;
    },
    async readSkill(skillId) {
      const s = catalog.skill(skillId);
      return s
        ? { description: s.description, body: s.instructions, clinical: s.metadata.clinical }
        : undefined;
    },
  };
}
