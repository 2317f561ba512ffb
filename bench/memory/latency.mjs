// Recall latency and ingestion throughput of the memory service on the embedded database (PGlite +
// pgvector), against the same recall with its full-text half in SQL instead of the in-process index (ADR 0305)
// and against an exact brute-force scan over the same vectors, in the same run.
//
// Vectors are random 512-d unit vectors inserted directly with COPY: computing 100k real embeddings with the
// builtin model would take tens of minutes and says nothing about the index. Texts are 12 words drawn
// uniformly from a 2,000-word synthetic vocabulary, so the full-text half of recall does real work too.
// Ingestion through the HTTP API (with real builtin embeddings) is measured separately on a small sample.
//
//   pnpm --filter @care/memory build && node bench/memory/latency.mjs            # 10k and 100k
//   SIZES=10000 QUERIES=200 node bench/memory/latency.mjs                        # quicker
//   BENCH_DATA_DIR=/tmp/memory-bench node bench/memory/latency.mjs               # reuse populated databases
//
// BENCH_DATA_DIR (off by default) caches each populated, indexed database (after bulk load, ANALYZE and the HNSW
// build; before the indexed inserts) as a PGlite dumpDataDir() tarball, one per size and vector kind, and loads it
// on later runs instead of rebuilding (pending migrations are applied to it on open). The HNSW graph is then the
// same from run to run, which suits comparing code changes; figures that count should build afresh (unset), and
// the bulk load and HNSW build columns of a cached run show "cached". Delete the folder after a schema change
// that needs new data.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const svc = path.join(here, '..', '..', 'services', 'memory');
const load = (p) => require(path.join(svc, 'dist', p));
const { createApp, createAppDeps } = load('app.js');
const { loadMemoryConfig } = load('config.js');
const { openMemoryDatabase } = load('db/open-database.js');
const { VectorIndexes } = load('db/vector-index.js');
const { BuiltinEmbeddingProvider } = load('embeddings/builtin.provider.js');
const { LexicalIndex } = load('recall/lexical-index.js');
const { findCandidates } = load('recall/recall.repository.js');
const { createLogger } = require(path.join(svc, 'node_modules', '@care', 'service-kit'));
const { sql } = require(path.join(svc, 'node_modules', 'drizzle-orm'));

const SIZES = (process.env.SIZES ?? '10000,100000').split(',').map(Number);
const QUERIES = Number(process.env.QUERIES ?? 300);
const DIM = 512;
const MODEL = 'bench:random-unit-512';
const TENANT = 'bench';
const config = loadMemoryConfig({
  REMINDER_POLL_MS: '0',
  REFLECT_INTERVAL_SECONDS: '0',
  LOG_LEVEL: 'silent',
});
const logger = createLogger({ name: 'bench', level: 'silent' });
const started = Date.now();

// Seeded PRNG (mulberry32) so runs are comparable.
let seed = 0x5eed;
const rand = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const unitVector = () => {
  const v = Array.from({ length: DIM }, () => rand() - 0.5);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};
// Embeddings are not uniform on the sphere: they cluster by topic. VECTORS=clustered (default) draws each vector
// near one of 1,000 random topic centres (noise comparable to the centre's weight); VECTORS=uniform draws uniform
// random unit vectors, the worst case for any graph index.
const UNIFORM = process.env.VECTORS === 'uniform';
const CENTRES = Array.from({ length: 1000 }, () => unitVector());
const dataVector = () => {
  if (UNIFORM) return unitVector();
  const c = CENTRES[Math.floor(rand() * CENTRES.length)];
  const v = c.map((x) => x + (rand() - 0.5) * 0.12);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};
const SYL = [
  'ka',
  'lo',
  'mi',
  're',
  'su',
  'ten',
  'bar',
  'vo',
  'ni',
  'dal',
  'pe',
  'sho',
  'gru',
  'fen',
  'a',
  'or',
];
const VOCAB = Array.from({ length: 2000 }, (_, i) => {
  let w = '';
  for (let n = i + 7; n > 0; n = Math.floor(n / 16)) w += SYL[n % 16];
  return `${w}x`;
});
const words = (k) => Array.from({ length: k }, () => VOCAB[Math.floor(rand() * VOCAB.length)]).join(' ');
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x) => x.toFixed(1);

/** Embedding provider of the bench: a fixed vector per query text, in the partition's recorded space. */
class FixedProvider {
  kind = 'bench';
  model = MODEL;
  location = 'in-process';
  constructor(map) {
    this.map = map;
  }
  async dimension() {
    return DIM;
  }
  async embed(texts) {
    return texts.map((t) => this.map.get(t) ?? unitVector());
  }
}

const CACHE_DIR = process.env.BENCH_DATA_DIR;

async function measureSize(n) {
  const cacheFile = CACHE_DIR && path.join(CACHE_DIR, `memory-${n}-${UNIFORM ? 'uniform' : 'clustered'}.tar`);
  const cached = cacheFile && fs.existsSync(cacheFile) ? new Blob([fs.readFileSync(cacheFile)]) : undefined;
  const database = await openMemoryDatabase({
    uri: 'pglite://memory',
    sharedBuffers: process.env.PGLITE_SHARED_BUFFERS ?? config.PGLITE_SHARED_BUFFERS,
    loadDataDir: cached,
  });
  const indexes = new VectorIndexes(database.db);
  const populated = cached ? { loadS: NaN, buildS: NaN } : await populate(database, indexes, n);
  if (cacheFile && !cached) {
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    const dump = await database.db.$client.dumpDataDir('none');
    fs.writeFileSync(cacheFile, Buffer.from(await dump.arrayBuffer()));
    console.error(`  ${n}: cached in ${cacheFile}`);
  }
  if (cached) console.error(`  ${n}: loaded from ${cacheFile}`);
  await indexes.ensure(DIM); // built by populate, or in the cached database: checked once, then known
  const { loadS, buildS } = populated;
  // The same queries and inserted rows whether the data was built or loaded from the cache.
  seed = 0x5eed + n;
  let t;

  // Incremental inserts with the HNSW and GIN indexes in place (what remember pays per row, minus embedding).
  t = Date.now();
  const extra = 200;
  for (let j = 0; j < extra; j++) {
    await database.db.execute(
      sql`insert into memories (tenant_id, id, tier, type, source, text, dim, embedding) values (${TENANT}, ${`x${j}`}, 'episodic', 'EPISODIC', 'SYSTEM', ${words(12)}, ${DIM}, ${JSON.stringify(dataVector())}::vector)`,
    );
  }
  const insertRate = extra / ((Date.now() - t) / 1000);

  const queries = Array.from({ length: 100 }, () => words(3));
  const embeddings = new FixedProvider(new Map(queries.map((q) => [q, dataVector()])));
  // One in-process full-text index for the app and the in-process services, as in the service process.
  const lexicalIndex = LexicalIndex.forDatabase(database);
  const deps = { config, logger, database, embeddings, indexes, lexicalIndex };
  const app = createApp(deps);
  const server = http.createServer(app);
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}/api/v1/memory/recall`;
  const cpu = [];
  const recallHttp = async (query) => {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tenant-id': TENANT },
      body: JSON.stringify({ query, topK: 10 }),
    });
    const body = await res.json();
    if (res.status !== 200 || body.results.length !== 10) throw new Error(`recall failed: ${res.status}`);
    const c = process.cpuUsage(c0);
    // CPU of the whole process (client, express and the embedded database): what the request costs on an idle core.
    cpu.push((c.user + c.system) / 1000);
    return performance.now() - t0;
  };
  const cold = [];
  // First sight of each query; the very first recall also loads the partition into the in-process index.
  for (const q of queries) cold.push(await recallHttp(q));
  const firstMs = cold[0];
  const warm = [];
  cpu.length = 0;
  for (let i = 0; i < QUERIES; i++) warm.push(await recallHttp(queries[i % queries.length]));

  // Baselines, interleaved with the recall they compare to: the same recall with the HNSW index disabled (exact
  // scan), and the same recall with the full-text half in SQL (GIN match and scoring, as before ADR 0305).
  const service = createAppDeps(deps).recall;
  const sqlText = createAppDeps({ ...deps, lexicalIndex: null }).recall;
  const exactN = Math.min(n >= 100000 ? 30 : 60, QUERIES);
  // Its term statistics warm, as the app's are after the cold pass.
  for (let i = 0; i < exactN; i++)
    await sqlText.recall(TENANT, { query: queries[i % queries.length], topK: 10 });
  const exact = [];
  const hnswSvc = [];
  const sqlTextSvc = [];
  for (let i = 0; i < exactN; i++) {
    const q = queries[i % queries.length];
    let t0 = performance.now();
    await service.recall(TENANT, { query: q, topK: 10 }, { exact: true });
    exact.push(performance.now() - t0);
    t0 = performance.now();
    await sqlText.recall(TENANT, { query: q, topK: 10 });
    sqlTextSvc.push(performance.now() - t0);
    t0 = performance.now();
    await service.recall(TENANT, { query: q, topK: 10 });
    hnswSvc.push(performance.now() - t0);
  }

  // ANN quality: the vector search's top 10 with the index vs the exact top 10.
  let overlap = 0;
  const annN = 50;
  for (let i = 0; i < annN; i++) {
    const queryVector = await embeddings.embed([queries[i]]).then((v) => v[0]);
    const top = async (exactScan) =>
      database.withTenant(TENANT, async (tx) => {
        const rows = await findCandidates(tx, {
          tenantId: TENANT,
          dim: DIM,
          queryVector,
          terms: [],
          tiers: ['episodic'],
          pool: 50,
          now: new Date(),
          exact: exactScan,
        });
        return rows
          .filter((r) => r.vectorRank !== undefined)
          .sort((a, b) => a.vectorRank - b.vectorRank)
          .slice(0, 10)
          .map((r) => r.id);
      });
    const truth = new Set(await top(true));
    overlap += (await top(false)).filter((id) => truth.has(id)).length / 10;
  }
  server.close();
  await lexicalIndex?.close();
  await database.close();
  return {
    n,
    firstMs,
    sqlTextSvc,
    loadS,
    buildS,
    insertRate,
    cold,
    warm,
    cpu: [...cpu],
    exact,
    hnswSvc,
    annRecall: overlap / annN,
  };
}

/** Bulk-loads `n` memories (COPY), analyzes, and builds the HNSW index through `indexes`. */
async function populate(database, indexes, n) {
  const client = database.db.$client; // the PGlite instance: COPY FROM /dev/blob for the bulk load
  await database.db.execute(
    sql`insert into partitions (tenant_id, embedding_model, dimension) values (${TENANT}, ${MODEL}, ${DIM})`,
  );
  let t = Date.now();
  const ids = [];
  for (let i = 0; i < n; i += 5000) {
    const lines = [];
    for (let j = i; j < Math.min(n, i + 5000); j++) {
      ids.push(`m${j}`);
      lines.push(
        `${TENANT},m${j},episodic,EPISODIC,SYSTEM,${words(12)},${DIM},"[${dataVector()
          .map((x) => x.toFixed(6))
          .join(',')}]"`,
      );
    }
    await client.query(
      `COPY memories (tenant_id, id, tier, type, source, text, dim, embedding) FROM '/dev/blob' WITH (FORMAT csv)`,
      [],
      {
        blob: new Blob([`${lines.join('\n')}\n`]),
      },
    );
  }
  const loadS = (Date.now() - t) / 1000;
  console.error(`  ${n}: bulk load ${loadS.toFixed(0)} s`);
  await database.db.execute(sql`analyze memories`);
  t = Date.now();
  await database.db.execute(sql.raw(`set maintenance_work_mem = '1GB'`));
  await indexes.ensure(DIM);
  const buildS = (Date.now() - t) / 1000;
  console.error(`  ${n}: HNSW build ${buildS.toFixed(0)} s`);
  return { loadS, buildS };
}

async function measureApiIngestion(count) {
  const database = await openMemoryDatabase({
    uri: 'pglite://memory',
    sharedBuffers: process.env.PGLITE_SHARED_BUFFERS ?? config.PGLITE_SHARED_BUFFERS,
  });
  const embeddings = new BuiltinEmbeddingProvider();
  await embeddings.warm();
  const app = createApp({ config, logger, database, embeddings });
  const server = http.createServer(app);
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${server.address().port}/api/v1/memory/remember`;
  const t = Date.now();
  for (let i = 0; i < count; i++) {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: `Note ${i}: ${words(10)}`, type: 'EPISODIC', source: 'USER_STATED' }),
    });
    if (res.status !== 200) throw new Error(`remember failed ${res.status}`);
    await res.arrayBuffer();
  }
  const rate = count / ((Date.now() - t) / 1000);
  const t2 = performance.now();
  await embeddings.embed(['how long does one query embedding take']);
  const embedMs = performance.now() - t2;
  server.close();
  await database.close();
  return { rate, embedMs };
}

const header = () => {
  console.log(
    `\n# Memory recall latency (embedded PGlite + pgvector HNSW, 512-d, ${UNIFORM ? 'uniform random' : 'clustered random'} vectors)\n`,
  );
  console.log(
    `Recall = POST /api/v1/memory/recall over loopback HTTP, topK 10, both searches + fusion + access stats; ${QUERIES} requests after one cold pass over 100 distinct queries.`,
  );
  console.log(
    'Baselines = the same recall in-process with the full-text half in SQL (no in-process index), and with the HNSW index disabled (exact scan over the same vectors).\n',
  );
  console.log(
    '| memories | recall p50 ms | recall p99 ms | CPU ms/recall p50 | CPU p99 | first recall ms (index load) | cold-pass p99 ms | in-process p50 | full text in SQL p50 | SQL text/in-process | exact scan p50 | exact scan p99 | exact/HNSW p50 | ANN recall@10 | bulk load rows/s | HNSW build s | inserts/s (indexed) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
};
console.error('measuring ingestion through the HTTP API...');
const api = await measureApiIngestion(Number(process.env.API_COUNT ?? 200));
header();
const results = [];
for (const n of SIZES) {
  console.error(`measuring ${n} memories...`);
  const r = await measureSize(n);
  results.push(r);
  console.log(
    `| ${r.n.toLocaleString('en')} | ${ms(pct(r.warm, 50))} | ${ms(pct(r.warm, 99))} | ${ms(pct(r.cpu, 50))} | ${ms(pct(r.cpu, 99))} | ${ms(r.firstMs)} | ${ms(pct(r.cold, 99))} | ${ms(pct(r.hnswSvc, 50))} | ${ms(pct(r.sqlTextSvc, 50))} | ${(pct(r.sqlTextSvc, 50) / pct(r.hnswSvc, 50)).toFixed(1)}x | ${ms(pct(r.exact, 50))} | ${ms(pct(r.exact, 99))} | ${(pct(r.exact, 50) / pct(r.hnswSvc, 50)).toFixed(1)}x | ${r.annRecall.toFixed(3)} | ${Number.isNaN(r.loadS) ? 'cached' : Math.round(r.n / r.loadS)} | ${Number.isNaN(r.buildS) ? 'cached' : r.buildS.toFixed(1)} | ${Math.round(r.insertRate)} |`,
  );
}
const big = results.at(-1);
console.log(
  `\nTarget recall p99 < 25 ms at ${big.n.toLocaleString('en')}: measured ${ms(pct(big.warm, 99))} ms wall clock -> ${pct(big.warm, 99) < 25 ? 'met' : 'NOT met'} (CPU per recall p99 ${ms(pct(big.cpu, 99))} ms; wall clock includes waiting for a core on a shared machine).`,
);
console.log(
  `Ingestion through the HTTP API with builtin embeddings: ${api.rate.toFixed(1)} memories/s (one query embedding alone: ${ms(api.embedMs)} ms).`,
);
console.log(
  `\nTotal ${((Date.now() - started) / 1000).toFixed(0)} s on ${require('node:os').cpus().length} cores, load average ${require('node:os').loadavg()[0].toFixed(1)}.`,
);
