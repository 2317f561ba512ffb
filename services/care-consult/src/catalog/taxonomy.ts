import { DOMAINS, type TaxonomyTree } from '@care/contracts';
import type { AgentRecord } from './catalog.types';

/** A category node: agents in it or below it, and its subcategories by segment name. */
export interface CategoryNode {
  count: number;
  subcategories: Record<string, CategoryNode>;
}

/**
 * The taxonomy tree (ADR 0202): `total` agents; per domain its `count` and `categories`, keyed by the
 * category's own segment name (`clinical.triage.after-hours` sits at domains.clinical.categories.triage
 * .subcategories["after-hours"]). A node counts the agents at it and below it. All five domains are present,
 * with count 0 when empty, so clients can rely on the keys.
 */
export function buildTaxonomy(agents: Iterable<AgentRecord>): TaxonomyTree {
  const domains: TaxonomyTree['domains'] = {};
  for (const d of DOMAINS) domains[d] = { count: 0, categories: {} };
  let total = 0;
  for (const agent of agents) {
    if (agent.status !== 'active') continue;
    total += 1;
    const [domain, ...segments] = agent.category.split('.');
    const node = (domains[domain] ??= { count: 0, categories: {} });
    node.count += 1;
    let level: Record<string, CategoryNode> = node.categories as Record<string, CategoryNode>;
    for (const seg of segments) {
      const child = (level[seg] ??= { count: 0, subcategories: {} });
      child.count += 1;
      level = child.subcategories;
    }
  }
  return { total, domains: sortTree(domains) };
}

// Keys in alphabetical order so the JSON is stable between loads and easy to diff.
function sortTree<
  T extends Record<
    string,
    { categories?: Record<string, CategoryNode>; subcategories?: Record<string, CategoryNode> }
  >,
>(map: T): T {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(map).sort()) {
    const node = map[key];
    if (node.categories) out[key] = { ...node, categories: sortTree(node.categories) };
    else out[key] = { ...node, subcategories: sortTree(node.subcategories ?? {}) };
  }
  return out as T;
}
