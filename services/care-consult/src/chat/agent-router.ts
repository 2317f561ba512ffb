import type { TaxonomyTree } from '@care/contracts';
import { tokenize } from '../providers/builtin/retrieval';
import type { ChatAgent, ChatCatalog } from './chat-catalog';

/** Which agent the router chose and how. */
export interface RouteDecision {
  agent: ChatAgent;
  via: 'search' | 'taxonomy' | 'default';
}

// Second category segments of generalist agents, the safe choice when the question gives little to go on.
const GENERALIST = ['general', 'care-coordination', 'health-literacy'];
// A non-clinical hit replaces a clinical best hit (without allow_clinical) only when nearly as relevant.
const CLINICAL_GATE_RATIO = 0.6;

type Node = { subcategories: Record<string, Node> };

function categoryPaths(tree: TaxonomyTree): string[] {
  const out: string[] = [];
  const walk = (prefix: string, nodes: Record<string, Node>) => {
    for (const [name, node] of Object.entries(nodes)) {
      out.push(`${prefix}.${name}`);
      walk(`${prefix}.${name}`, node.subcategories);
    }
  };
  for (const [domain, node] of Object.entries(tree.domains)) {
    out.push(domain);
    walk(domain, node.categories as Record<string, Node>);
  }
  return out;
}

function generalistOf(agents: readonly ChatAgent[], prefix: string): ChatAgent | undefined {
  const inside = agents.filter((a) => a.category === prefix || a.category.startsWith(`${prefix}.`));
  const depth = (a: ChatAgent) => a.category.split('.').length;
  return (
    inside.find((a) => GENERALIST.includes(a.category.split('.')[1] ?? '')) ??
    [...inside].sort((a, b) => depth(a) - depth(b))[0]
  );
}

/**
 * Picks a specialist when the request names none, following the router persona shipped in the workspace:
 * full-text search over the user's words first (with a clinical gate: without `allow_clinical`, a nearly as
 * relevant non-clinical specialist wins over a clinical one); when nothing matches, the taxonomy category
 * sharing the most words with the question, answered by its generalist; else the navigation generalist.
 * Emergencies never reach here: the safety breaker runs first.
 */
export function routeToAgent(catalog: ChatCatalog, userText: string, allowClinical: boolean): RouteDecision | undefined {
  const agents = catalog.activeAgents();
  if (!agents.length) return undefined;
  const query = userText.slice(-2000);
  const hits = catalog
    .search(query, 5)
    .map((h) => ({ score: h.score ?? 0, agent: catalog.agent(h.id) }))
    .filter((h): h is { score: number; agent: ChatAgent } => !!h.agent && h.agent.status === 'active');
  if (hits.length) {
    const [best] = hits;
    if (best.agent.clinical && !allowClinical) {
      const alt = hits.find((h) => !h.agent.clinical && h.score >= best.score * CLINICAL_GATE_RATIO);
      if (alt) return { agent: alt.agent, via: 'search' };
    }
    return { agent: best.agent, via: 'search' };
  }
  const words = new Set(tokenize(query));
  let best: { path: string; score: number } | undefined;
  for (const path of categoryPaths(catalog.taxonomy())) {
    const segs = tokenize(path.replace(/[.-]/g, ' '));
    const matched = segs.filter((s) => words.has(s)).length;
    // Deeper categories win ties: they are more specific.
    const score = matched ? matched / segs.length + path.split('.').length * 1e-3 : 0;
    if (score > 0 && (!best || score > best.score)) best = { path, score };
  }
  const byTaxonomy = best && generalistOf(agents, best.path);
  if (byTaxonomy) return { agent: byTaxonomy, via: 'taxonomy' };
  return { agent: generalistOf(agents, 'navigation') ?? agents[0], via: 'default' };
}
