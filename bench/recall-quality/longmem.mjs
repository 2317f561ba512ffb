// Long-conversation recall benchmark of the memory service (issue 17). Each conversation of a long-memory set
// (bench/recall-quality/longmem/*.json: dated sessions of turns, questions of five kinds with their evidence turn
// ids) goes into its own partition of a real memory app on embedded PGlite: every turn through
// POST /api/v1/memory/remember, every question through POST /api/v1/memory/recall with topK 10. Scored: evidence
// recall@10 (share of a question's evidence turns in the top 10), per question kind. Baselines in the same run,
// over the same turn texts: BM25 (minisearch, in process) and vector-only (the same service and stored vectors,
// fusion reduced to the cosine similarity, every extra stage off).
//
//   pnpm --filter @care/memory build && node bench/recall-quality/longmem.mjs            # the dev sets
//   node bench/recall-quality/longmem.mjs --final          # the held-out sets: run ONCE, when the code is final
//   VERBOSE=1 node bench/recall-quality/longmem.mjs        # also list the missed evidence per question
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import MiniSearch from 'minisearch';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const svc = path.join(here, '..', '..', 'services', 'memory');
const load = (p) => require(path.join(svc, 'dist', p));
const { createApp } = load('app.js');
const { loadMemoryConfig } = load('config.js');
const { openMemoryDatabase } = load('db/open-database.js');
const { VectorIndexes } = load('db/vector-index.js');
const { BuiltinEmbeddingProvider } = load('embeddings/builtin.provider.js');
const { VECTOR_ONLY } = load('recall/fusion.js');
const { createLogger } = require(path.join(svc, 'node_modules', '@care', 'service-kit'));

const args = process.argv.slice(2);
const final = args.includes('--final');
const files = args.filter((a) => !a.startsWith('--'));
const setDir = path.join(here, 'longmem');
const sets = (
  files.length ? files : final ? ['final-5.json', 'final-6.json'] : ['dev-1.json', 'dev-2.json']
).map((f) => JSON.parse(fs.readFileSync(path.isAbsolute(f) ? f : path.join(setDir, f), 'utf8')));
const started = Date.now();

/** A session date ("2025-01-09 20:15", no zone) as UTC, plus `seconds` so turns keep their order. */
// Session dates are 'YYYY-MM-DD HH:MM' (dev, final-1/2) or 'YYYY-MM-DD' (final-3 to final-6: taken as noon UTC).
const at = (date, seconds) => {
  const stamp = /^\d{4}-\d{2}-\d{2}$/.test(date) ? `${date} 12:00` : date;
  return new Date(Date.parse(`${stamp.replace(' ', 'T')}:00Z`) + seconds * 1000);
};
/** The text stored for a turn (and indexed by BM25): who said it, then what was said. */
const turnText = (t) => `${t.speaker}: ${t.text}`;

// Questions are asked the day after the last session of any set.
const last = Math.max(...sets.flatMap((s) => s.sessions.map((x) => at(x.date, 0).getTime())));
const askedAt = new Date(last + 86_400_000);
const config = loadMemoryConfig({
  REMINDER_POLL_MS: '0',
  REFLECT_INTERVAL_SECONDS: '0',
  LOG_LEVEL: 'silent',
});
const database = await openMemoryDatabase({ uri: 'pglite://memory' });
const embeddings = new BuiltinEmbeddingProvider();
await embeddings.warm();
const logger = createLogger({ name: 'longmem', level: 'silent' });
const indexes = new VectorIndexes(database.db);
// 'fused + context': the opt-in conversation-context stage (ADR 0315).
const variants = { fused: {}, 'vector-only': VECTOR_ONLY, 'fused + context': { contextWeight: 0.5 } };
// Tuning (dev sets only): VARIANTS='{"name": {fusion overrides}, ...}' adds columns scored in the same run.
const extra = JSON.parse(process.env.VARIANTS ?? '{}');
Object.assign(variants, extra);

async function serve(fusion) {
  const app = createApp({ config, logger, database, embeddings, indexes, fusion, clock: () => askedAt });
  const server = http.createServer(app);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}
const servers = {};
for (const [k, f] of Object.entries(variants)) servers[k] = await serve(f);

async function call(base, route, partition, body) {
  const res = await fetch(`${base}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-tenant-id': partition },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`POST ${route} -> ${res.status} ${JSON.stringify(json)}`);
  return json;
}

// Ingest every turn through the HTTP API (all variants share the database).
let turns = 0;
const ingestStart = process.hrtime.bigint();
const cpuStart = process.cpuUsage();
const bm25 = new Map();
for (const set of sets) {
  const docs = [];
  for (const session of set.sessions) {
    session.turns.forEach((t, i) => docs.push({ ...t, session: session.session, at: at(session.date, i) }));
  }
  for (const d of docs) {
    await call(servers.fused.url, '/api/v1/memory/remember', set.id, {
      id: d.id,
      text: turnText(d),
      type: 'EPISODIC',
      source: 'USER_STATED',
      tags: [`session-${d.session}`, d.speaker],
      occurredAt: d.at.toISOString(),
    });
    turns++;
  }
  const index = new MiniSearch({ fields: ['text'], storeFields: [] });
  index.addAll(docs.map((d) => ({ id: d.id, text: turnText(d) })));
  bm25.set(set.id, index);
}
const ingestS = Number(process.hrtime.bigint() - ingestStart) / 1e9;
const cpu = process.cpuUsage(cpuStart);
const ingestCpuS = (cpu.user + cpu.system) / 1e6;

const scores = {}; // system -> kind -> {n, r10}
const misses = [];
const perSet = {}; // set id -> system -> kind -> {n, r10}
const add = (system, kind, r, setId) => {
  for (const table of [scores, (perSet[setId] ??= {})]) {
    for (const k of [kind, 'overall']) {
      const s = ((table[system] ??= {})[k] ??= { n: 0, r10: 0 });
      s.n++;
      s.r10 += r;
    }
  }
};
const recallTimes = [];
const variantTimes = {}; // variant -> recall round trips, ms
for (const set of sets) {
  for (const q of set.questions) {
    const evidence = q.evidence;
    const share = (ids) => evidence.filter((e) => ids.includes(e)).length / evidence.length;
    for (const variant of Object.keys(variants)) {
      const t0 = process.hrtime.bigint();
      const { results } = await call(servers[variant].url, '/api/v1/memory/recall', set.id, {
        query: q.question,
        topK: 10,
      });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (variant === 'fused') recallTimes.push(ms);
      (variantTimes[variant] ??= []).push(ms);
      const ids = results.slice(0, 10).map((r) => r.id);
      add(variant, q.kind, share(ids), set.id);
      if (variant === 'fused' && share(ids) < 1)
        misses.push(
          `${q.id} [${q.kind}] ${share(ids).toFixed(2)} missing ${evidence.filter((e) => !ids.includes(e)).join(',')}: ${q.question}`,
        );
    }
    const hits = bm25
      .get(set.id)
      .search(q.question)
      .slice(0, 10)
      .map((h) => h.id);
    add('BM25', q.kind, share(hits), set.id);
  }
}

const kinds = [...new Set(sets.flatMap((s) => s.questions.map((q) => q.kind)))].sort().concat('overall');
const f = (x) => x.toFixed(3);
recallTimes.sort((a, b) => a - b);
const pct = (p) => recallTimes[Math.min(recallTimes.length - 1, Math.floor((p / 100) * recallTimes.length))];
console.log(
  `\n# Long-conversation recall: ${sets.map((s) => s.id).join(', ')}${final ? ' (held-out final sets)' : ''}\n`,
);
console.log(
  `${turns} turns stored through POST /api/v1/memory/remember in ${ingestS.toFixed(1)} s (${(turns / ingestS).toFixed(0)} memories/s wall, ${(turns / ingestCpuS).toFixed(0)} per CPU-second of this process, builtin embeddings), ${sets.reduce((n, s) => n + s.questions.length, 0)} questions through POST /api/v1/memory/recall (topK 10) on ${askedAt.toISOString().slice(0, 10)}. Evidence recall@10; BM25 (minisearch) over the same turn texts and vector-only (cosine similarity alone, no extra stage) in this run.\n`,
);
const names = Object.keys(extra);
/** The table of one score set (all sets together, or one set when several run). */
function table(sc) {
  const r = (sys, k) => sc[sys][k].r10 / sc[sys][k].n;
  const ks = kinds.filter((k) => sc.fused[k]);
  console.log(
    `| kind | n | BM25 | vector-only | fused | fused / BM25 | fused + context (opt-in) |${names.map((n) => ` ${n} |`).join('')}`,
  );
  console.log(`|---|---|---|---|---|---|---|${names.map(() => '---|').join('')}`);
  for (const k of ks) {
    console.log(
      `| ${k} | ${sc.fused[k].n} | ${f(r('BM25', k))} | ${f(r('vector-only', k))} | ${f(r('fused', k))} | ${(r('fused', k) / r('BM25', k)).toFixed(2)} | ${f(r('fused + context', k))} |${names.map((n) => ` ${f(r(n, k))} |`).join('')}`,
    );
  }
}
table(scores);
if (sets.length > 1) {
  for (const set of sets) {
    console.log(`\n## ${set.id}\n`);
    table(perSet[set.id]);
  }
}
console.log(
  `\nRecall latency (fused, HTTP round trip, ${recallTimes.length} questions, partitions of ~400): p50 ${pct(50).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms.`,
);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `Recall p50 per column (same run, interleaved per question): ${Object.entries(variantTimes)
    .map(([v, xs]) => `${v} ${median(xs).toFixed(1)} ms`)
    .join(', ')}.`,
);
if (process.env.VERBOSE) console.log(`\nFused questions missing evidence:\n- ${misses.join('\n- ')}`);
console.log(`\nTotal time ${((Date.now() - started) / 1000).toFixed(1)} s.`);

for (const { server } of Object.values(servers)) server.close();
await database.close();
