#!/usr/bin/env node
// GET /api/agents?query= over a generated workspace of 5,000 agents (issue 5 target: p99 < 5 ms in-process),
// against a plain linear scan over the same agents in the same run. Run after `pnpm --filter @care/care-consult build`.
// Prints a Markdown table; bounded (~1-2 min on a shared 2-core machine). `pnpm --filter @care/care-consult bench`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const service = path.resolve(here, '../../services/care-consult');
const require = createRequire(path.join(service, 'package.json'));
const { createApp, createAppDeps } = require(path.join(service, 'dist/app.js'));
const { CatalogStore } = require(path.join(service, 'dist/catalog/catalog.store.js'));
const { CatalogService } = require(path.join(service, 'dist/catalog/catalog.service.js'));
const { loadAppConfig } = require(path.join(service, 'dist/config.js'));
const { openCareConsultDatabase } = require(path.join(service, 'dist/db/open-database.js'));
const { createLogger } = require('@care/service-kit');
const jwt = require('jsonwebtoken');

const AGENTS = Number(process.env.BENCH_AGENTS ?? 5000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 400);
const HTTP_QUERIES = Number(process.env.BENCH_HTTP_QUERIES ?? 300);

// Deterministic pseudo-random numbers (mulberry32) so every run searches the same workspace.
let seed = 0x5eed;
const rand = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (list) => list[Math.floor(rand() * list.length)];
const DOMAINS = ['clinical', 'navigation', 'wellness', 'therapy', 'education'];
const TOPICS =
  'sleep diabetes asthma insurance claims anxiety grief pregnancy nutrition hypertension cardiology medication pharmacy referral appointment stress mindfulness triage pediatrics caregiving records allergy migraine arthritis kidney thyroid vaccine dental vision hearing cancer stroke rehab exercise smoking alcohol weight memory dementia fertility menopause skin wound pain fatigue nausea fever cough'.split(
    ' ',
  );
const SYLL = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'te', 'vi', 'zo', 'pa', 'de', 'fu', 'gi', 'ho', 'ju'];
const FILLER = Array.from({ length: 3000 }, () =>
  Array.from({ length: 2 + Math.floor(rand() * 3) }, () => pick(SYLL)).join(''),
);
const words = (n, extra = []) =>
  Array.from({ length: n }, () => (rand() < 0.15 ? pick(TOPICS) : pick(FILLER))).concat(extra);

function generateWorkspace(root) {
  mkdirSync(path.join(root, 'skills'), { recursive: true });
  const agents = [];
  for (let i = 0; i < AGENTS; i++) {
    const domain = DOMAINS[i % DOMAINS.length];
    const topic = pick(TOPICS);
    const id = `agent-${i}-${topic}`;
    const tags = [topic, pick(TOPICS), pick(FILLER)];
    const a = {
      id,
      name: `${topic} ${pick(FILLER)} guide ${i}`,
      description: words(14, [topic]).join(' '),
      domain,
      category: `${domain}.${topic}${rand() < 0.4 ? `.${pick(FILLER)}` : ''}`,
      tags,
      persona: `You are the ${topic} guide. ${words(150).join(' ')}.`,
    };
    agents.push(a);
    const dir = path.join(root, 'agents', id);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'AGENT.md'),
      `---\nid: ${id}\nname: ${a.name}\ndescription: ${a.description}\ndomain: ${domain}\ncategory: ${a.category}\nstatus: active\n` +
        `skills: []\ntools: [search_catalog]\ntags: [${tags.join(', ')}]\nclinical: false\nversion: 1.0.0\n---\n${a.persona}\n`,
    );
  }
  return agents;
}

// Baseline: what a service without an index would do: score every agent by weighted term hits, sort, cut.
function linearScan(agents, query, limit = 10) {
  const terms = query.toLowerCase().split(/\W+/).filter(Boolean);
  const hits = [];
  for (const a of agents) {
    let score = 0;
    for (const t of terms) {
      if (a._name.includes(t)) score += 4;
      if (a._tags.includes(t)) score += 3;
      if (a._category.includes(t)) score += 2.5;
      if (a._description.includes(t)) score += 2;
      if (a._persona.includes(t)) score += 0.4;
    }
    if (score > 0) hits.push({ id: a.id, score });
  }
  hits.sort((x, y) => y.score - x.score || x.id.localeCompare(y.id));
  return { total: hits.length, agents: hits.slice(0, limit) };
}

// The library the ADR compared against (MiniSearch, same fields, boosts, prefix and typo rules).
function miniSearchOver(records) {
  const mod = require('minisearch');
  const MiniSearch = mod.default ?? mod;
  const { normaliseTerm } = require(path.join(service, 'dist/catalog/search-index.js'));
  const boost = { name: 4, tags: 3, category: 2.5, description: 2, skills: 1.5, domain: 1, persona: 0.4 };
  const ms = new MiniSearch({
    fields: Object.keys(boost),
    storeFields: [],
    extractField: (doc, f) => (Array.isArray(doc[f]) ? doc[f].join(' ') : doc[f]),
    processTerm: normaliseTerm,
    searchOptions: { boost, prefix: (t) => t.length >= 3, fuzzy: (t) => (t.length >= 5 ? 1 : false) },
  });
  ms.addAll(records);
  return ms;
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
// Wall-clock latency per call, in ROUNDS rounds. On a shared machine the tail is mostly the OS scheduler
// (a 0.2 ms call that gets descheduled waits a whole time slice), so besides the p99 over all samples the
// table shows the p99 of the quietest round; both are printed, with the load average, so nothing is hidden.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
function measure(fn, queries) {
  for (const q of queries.slice(0, 50)) fn(q); // warm-up
  const all = [];
  const roundP99 = [];
  for (let r = 0; r < ROUNDS; r++) {
    globalThis.gc?.(); // start each round with a clean heap (run with --expose-gc, as the npm script does)
    const times = [];
    for (const q of queries) {
      const t0 = performance.now();
      fn(q);
      times.push(performance.now() - t0);
    }
    all.push(...times);
    roundP99.push(
      pct(
        times.sort((a, b) => a - b),
        99,
      ),
    );
  }
  all.sort((a, b) => a - b);
  return { p50: pct(all, 50), p99: pct(all, 99), bestP99: Math.min(...roundP99), max: all[all.length - 1] };
}

async function measureHttp(port, token, queries) {
  const call = (q) =>
    new Promise((resolve, reject) => {
      const req = http.get(
        {
          host: '127.0.0.1',
          port,
          path: `/api/agents?query=${encodeURIComponent(q)}`,
          headers: { authorization: `Bearer ${token}` },
        },
        (res) => {
          res.resume();
          res.on('end', () =>
            res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`)),
          );
        },
      );
      req.on('error', reject);
    });
  for (const q of queries.slice(0, 30)) await call(q);
  const times = [];
  for (const q of queries) {
    const t0 = performance.now();
    await call(q);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { p50: pct(times, 50), p99: pct(times, 99), bestP99: Number.NaN, max: times[times.length - 1] };
}

const root = mkdtempSync(path.join(os.tmpdir(), 'care-bench-ws-'));
const secret = 'bench-secret-0123456789abcdef0123456789';
try {
  const agents = generateWorkspace(root);
  for (const a of agents) {
    Object.assign(a, {
      _name: a.name.toLowerCase(),
      _tags: a.tags.join(' '),
      _category: a.category,
      _description: a.description.toLowerCase(),
      _persona: a.persona.toLowerCase(),
    });
  }
  const queries = Array.from({ length: QUERIES }, () =>
    rand() < 0.5 ? pick(TOPICS) : `${pick(TOPICS)} ${pick(FILLER)} ${pick(TOPICS)}`,
  );

  const logger = createLogger({ name: 'bench', level: 'error' });
  const t0 = performance.now();
  const catalog = new CatalogStore({ root, logger });
  const snap = await catalog.load();
  const loadMs = performance.now() - t0;
  if (snap.activeAgents.length !== AGENTS)
    throw new Error(`loaded ${snap.activeAgents.length} of ${AGENTS} agents`);
  const svc = new CatalogService(catalog);

  const indexed = measure((q) => svc.listAgents({ query: q, limit: 10 }), queries);
  const linear = measure((q) => linearScan(agents, q), queries);
  const mini = miniSearchOver(snap.activeAgents);
  const library = measure((q) => mini.search(q).slice(0, 10), queries);

  const config = loadAppConfig({
    JWT_SECRET: secret,
    WORKSPACE_ROOT: root,
    WORKSPACE_WATCH: 'false',
    LOG_LEVEL: 'error',
    LOCAL_LLM_BASE_URL: 'http://127.0.0.1:1',
  });
  const database = await openCareConsultDatabase({ uri: 'pglite://memory' });
  const deps = createAppDeps({ config, logger, database, catalog });
  const server = http.createServer(createApp(deps));
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const token = jwt.sign({ tenantId: 'bench', roles: ['USER'] }, secret, {
    subject: 'bench-user',
    issuer: 'care-platform',
    audience: 'care-platform',
    expiresIn: 600,
  });
  const viaHttp = await measureHttp(server.address().port, token, queries.slice(0, HTTP_QUERIES));
  server.close();
  await deps.audit.flush();
  await database.close();

  const f = (x) => (Number.isNaN(x) ? '—' : x.toFixed(3));
  const row = (label, m) =>
    console.log(`| ${label} | ${f(m.p50)} | ${f(m.p99)} | ${f(m.bestP99)} | ${f(m.max)} |`);
  const load = os.loadavg()[0].toFixed(1);
  console.log(`\n### GET /api/agents?query= over ${AGENTS} generated agents\n`);
  console.log(
    `${QUERIES} queries x ${ROUNDS} rounds; workspace load ${(loadMs / 1000).toFixed(1)} s; load average ${load} on ${os.cpus().length} CPUs.\n`,
  );
  console.log('| Path | p50 ms | p99 ms (all) | p99 ms (quietest round) | max ms |');
  console.log('|---|---:|---:|---:|---:|');
  row('catalog search, in-process (service inverted index)', indexed);
  row('comparison: MiniSearch 7.2.0, in-process', library);
  row('baseline: linear scan, in-process', linear);
  row(`full HTTP request (JWT, validation, audit, JSON), loopback, ${HTTP_QUERIES} queries`, viaHttp);
  console.log(
    `\nRatio linear scan / index: p50 ${(linear.p50 / indexed.p50).toFixed(1)}x, p99 ${(linear.p99 / indexed.p99).toFixed(1)}x, quietest-round p99 ${(linear.bestP99 / indexed.bestP99).toFixed(1)}x.`,
  );
  console.log(
    `Target p99 < 5 ms in-process: ${indexed.p99 < 5 ? 'met' : indexed.bestP99 < 5 ? 'met in the quietest round only (machine busy)' : 'NOT met'} (all ${f(indexed.p99)} ms, quietest round ${f(indexed.bestP99)} ms).`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
