// Recall-quality harness of the memory service. Loads a dataset of conversations (sessions of dated turns)
// and questions with the ids of the turns that answer them, ingests every turn through the HTTP API (one
// partition per conversation), then asks each question and scores the ranked results: recall@5, recall@10
// and MRR per question category. Fused recall is compared, in the same run and over the same stored
// vectors, with a vector-only ranking (same service, fusion weights reduced to the vector rank alone).
//
//   pnpm --filter @care/memory build && node bench/recall-quality/run.mjs [dataset.json]
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const dist = path.join(here, '..', '..', 'services', 'memory', 'dist');
const { createApp } = require(path.join(dist, 'app.js'));
const { loadMemoryConfig } = require(path.join(dist, 'config.js'));
const { openMemoryDatabase } = require(path.join(dist, 'db', 'open-database.js'));
const { VectorIndexes } = require(path.join(dist, 'db', 'vector-index.js'));
const { BuiltinEmbeddingProvider } = require(path.join(dist, 'embeddings', 'builtin.provider.js'));
const { createLogger } = require(
  path.join(here, '..', '..', 'services', 'memory', 'node_modules', '@care', 'service-kit'),
);

const datasetPath = process.argv[2] ?? path.join(here, 'dataset.json');
const dataset = JSON.parse(fs.readFileSync(datasetPath, 'utf8'));
const started = Date.now();

// Questions are asked the day after the last session, as a user would, so recency means what it says.
const lastTurn = Math.max(
  ...dataset.conversations.flatMap((c) =>
    c.sessions.flatMap((s) => s.turns.map((t) => Date.parse(t.timestamp))),
  ),
);
const askedAt = new Date(lastTurn + 86_400_000);
const config = loadMemoryConfig({
  REMINDER_POLL_MS: '0',
  REFLECT_INTERVAL_SECONDS: '0',
  LOG_LEVEL: 'silent',
});
const database = await openMemoryDatabase({ uri: 'pglite://memory' });
const embeddings = new BuiltinEmbeddingProvider();
await embeddings.warm();
const logger = createLogger({ name: 'recall-quality', level: 'silent' });
const indexes = new VectorIndexes(database.db);
const neutral = {
  contextWeight: 0,
  recencyWeight: 0,
  strengthWeight: 0,
  tierWeights: { working: 1, episodic: 1, semantic: 1, documents: 1 },
};
const variants = {
  fused: {},
  'vector-only': { ...neutral, textWeight: 0 },
  'text-only': { ...neutral, vectorWeight: 0 },
};

async function serve(fusion) {
  const app = createApp({ config, logger, database, embeddings, indexes, fusion, clock: () => askedAt });
  const server = http.createServer(app);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}
const servers = Object.fromEntries(
  await Promise.all(Object.entries(variants).map(async ([k, f]) => [k, await serve(f)])),
);

async function call(base, method, route, partition, body) {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-tenant-id': partition },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${route} -> ${res.status} ${JSON.stringify(json)}`);
  return json;
}

// Ingest every turn through the HTTP API of the fused server (all variants share the database).
let turns = 0;
const ingestStart = Date.now();
for (const conversation of dataset.conversations) {
  for (const session of conversation.sessions) {
    for (const turn of session.turns) {
      await call(servers.fused.url, 'POST', '/api/v1/memory/remember', conversation.id, {
        id: turn.id,
        text: turn.text,
        type: 'EPISODIC',
        source: turn.speaker === 'user' ? 'USER_STATED' : 'AGENT_INFERRED',
        tags: [session.id, turn.speaker],
        occurredAt: turn.timestamp,
      });
      turns++;
    }
  }
}
const ingestMs = Date.now() - ingestStart;

// Score each question with each variant.
const scores = {}; // variant -> category -> {n, r5, r10, mrr}

const misses = [];
for (const q of dataset.questions) {
  for (const variant of Object.keys(variants)) {
    const { results } = await call(servers[variant].url, 'POST', '/api/v1/memory/recall', q.conversation, {
      query: q.question,
      topK: 10,
    });
    const ids = results.map((r) => r.id);
    const found = (k) => q.evidence.filter((e) => ids.slice(0, k).includes(e)).length / q.evidence.length;
    const first = ids.findIndex((id) => q.evidence.includes(id));
    for (const cat of [q.category, 'all']) {
      const s = ((scores[variant] ??= {})[cat] ??= { n: 0, r5: 0, r10: 0, mrr: 0 });
      s.n++;
      s.r5 += found(5);
      s.r10 += found(10);
      s.mrr += first >= 0 ? 1 / (first + 1) : 0;
    }
    if (variant === 'fused' && first !== 0)
      misses.push(
        `${q.id} [${q.category}] first evidence at ${first < 0 ? '>10' : first + 1}: ${q.question}`,
      );
  }
}

const categories = [...new Set(dataset.questions.map((q) => q.category))].sort().concat('all');
const f = (x) => x.toFixed(3);
const avg = (v, c, m) => scores[v][c][m] / scores[v][c].n;
console.log(`\n# Recall quality: ${dataset.name}\n`);
console.log(
  `${dataset.conversations.length} conversations (one partition each), ${turns} turns ingested through the HTTP API in ${(ingestMs / 1000).toFixed(1)} s (builtin embeddings), ${dataset.questions.length} questions asked on ${askedAt.toISOString().slice(0, 10)}, topK 10. Baselines run on the same stored vectors in this run: vector-only = cosine similarity alone; text-only = lexical score alone.\n`,
);
console.log(
  '| category | n | R@5 fused | R@5 vector-only | R@10 fused | R@10 vector-only | MRR fused | MRR vector-only | MRR text-only |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const c of categories) {
  console.log(
    `| ${c} | ${scores.fused[c].n} | ${f(avg('fused', c, 'r5'))} | ${f(avg('vector-only', c, 'r5'))} | ${f(avg('fused', c, 'r10'))} | ${f(avg('vector-only', c, 'r10'))} | ${f(avg('fused', c, 'mrr'))} | ${f(avg('vector-only', c, 'mrr'))} | ${f(avg('text-only', c, 'mrr'))} |`,
  );
}
const ratio = avg('fused', 'all', 'mrr') / avg('vector-only', 'all', 'mrr');
console.log(
  `\nMRR fused / vector-only: ${ratio.toFixed(3)} (${ratio > 1 ? 'fused beats' : 'fused does NOT beat'} the vector-only baseline); R@5 ratio ${(avg('fused', 'all', 'r5') / avg('vector-only', 'all', 'r5')).toFixed(3)}.`,
);
if (process.env.VERBOSE)
  console.log(`\nFused questions whose first evidence was not at rank 1:\n- ${misses.join('\n- ')}`);
console.log(`\nTotal time ${((Date.now() - started) / 1000).toFixed(1)} s.`);

for (const { server } of Object.values(servers)) server.close();
await database.close();
