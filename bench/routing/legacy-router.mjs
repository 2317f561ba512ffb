// The router as it was before issue 14 (commit 3dc3f21, src/chat/agent-router.ts), kept here only as the
// same-run baseline of routing.bench.mjs: catalog full-text search over the user's words, a clinical swap
// (without allow_clinical a non-clinical hit scoring >= 0.6 of a clinical best hit wins), else the taxonomy
// category sharing most words, else the navigation generalist.
const GENERALIST = ['general', 'care-coordination', 'health-literacy'];
const CLINICAL_GATE_RATIO = 0.6;

function categoryPaths(tree) {
  const out = [];
  const walk = (prefix, nodes) => {
    for (const [name, node] of Object.entries(nodes)) {
      out.push(`${prefix}.${name}`);
      walk(`${prefix}.${name}`, node.subcategories);
    }
  };
  for (const [domain, node] of Object.entries(tree.domains)) {
    out.push(domain);
    walk(domain, node.categories);
  }
  return out;
}

function generalistOf(agents, prefix) {
  const inside = agents.filter((a) => a.category === prefix || a.category.startsWith(`${prefix}.`));
  const depth = (a) => a.category.split('.').length;
  return (
    inside.find((a) => GENERALIST.includes(a.category.split('.')[1] ?? '')) ??
    [...inside].sort((a, b) => depth(a) - depth(b))[0]
  );
}

export function legacyRouteToAgent(catalog, tokenize, userText, allowClinical) {
  const agents = catalog.activeAgents();
  if (!agents.length) return undefined;
  const query = userText.slice(-2000);
  const hits = catalog
    .search(query, 5)
    .map((h) => ({ score: h.score ?? 0, agent: catalog.agent(h.id) }))
    .filter((h) => !!h.agent && h.agent.status === 'active');
  if (hits.length) {
    const [best] = hits;
    if (best.agent.clinical && !allowClinical) {
      const alt = hits.find((h) => !h.agent.clinical && h.score >= best.score * CLINICAL_GATE_RATIO);
      if (alt) return { agent: alt.agent, via: 'search' };
    }
    return { agent: best.agent, via: 'search' };
  }
  const words = new Set(tokenize(query));
  let best;
  for (const path of categoryPaths(catalog.taxonomy())) {
    const segs = tokenize(path.replace(/[.-]/g, ' '));
    const matched = segs.filter((s) => words.has(s)).length;
    const score = matched ? matched / segs.length + path.split('.').length * 1e-3 : 0;
    if (score > 0 && (!best || score > best.score)) best = { path, score };
  }
  const byTaxonomy = best && generalistOf(agents, best.path);
  if (byTaxonomy) return { agent: byTaxonomy, via: 'taxonomy' };
  return { agent: generalistOf(agents, 'navigation') ?? agents[0], via: 'default' };
}
