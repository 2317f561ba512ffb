#!/usr/bin/env node
// Grounding benchmark (issue 14, care-consult ADR 0421). Starts the three BUILT services as processes (as
// tests/integration does), ingests the MedQuAD development corpus through platform-auth's KB API into one tenant
// (one KB document per QA pair), then for each question of a question set:
//   - asks it through POST /api/v1/chat (offline engine) and scores hit@1 (the first citation is a passage of a
//     relevant QA document) and whether the answer contains a sentence of the grade-2 reference answer; each
//     question is asked by a new user of the tenant, so no question is answered from what an earlier one said;
//   - searches GET /api/v1/kb/search?limit=10 and scores hit@1 and nDCG@10 over documents;
//   - runs BM25 (the offline engine's Bm25Index) over the very same passages (platform-auth's chunker) as the
//     same-run baseline.
// Usage: node bench/grounding/run.mjs [--sample N] [--final] [--keep DIR | --reuse DIR]
//   Question sets, all asked after ONE ingestion: a seeded sample of N MedQuAD questions (default 400; 0 = all
//   3,878) scored on their own QA pair, and the development sets bench/grounding/consumer-dev.jsonl and
//   consumer-spent1.jsonl, consumer-spent2.jsonl and consumer-spent3.jsonl; --final also asks consumer-blind4-final.jsonl (run it once, when
//   the code is final; never tune on it; when the file is missing, --final says so and stops).
//   Ingesting the corpus takes tens of minutes on a busy 2-core machine (the sentence encoder embeds ~12,000
//   passages), so --keep DIR puts memory's and platform-auth's embedded databases in DIR (with state.json: secrets,
//   token, document map, ingestion figures) and keeps the services running after the questions (Ctrl-C stops them);
//   --reuse DIR starts the current builds of the three services on those databases and asks the questions without
//   ingesting again (retrieval changes need no new ingestion while passages and ids stay the same).
// Env: MEDQUAD_PATH (default /work/shared/data/medquad/medquad-dev.jsonl), INGEST_CONCURRENCY (default 8: uploads
// in flight; platform-auth itself bounds its writes to memory, KB_INDEX_CONCURRENCY), CORPUS_LIMIT (debugging).
// The corpus is read from its path, never copied into the repository.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { freePort } from '../lib/free-port.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const require = createRequire(import.meta.url);
const { chunkDocument } = require(path.join(root, 'services/platform-auth/dist/kb/memory-indexer.js'));
const { Bm25Index } = require(path.join(root, 'services/care-consult/dist/providers/builtin/retrieval.js'));

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const sampleSize = Number(option('--sample') ?? 400);
const keepDir = option('--keep');
const reuseDir = option('--reuse');
const corpusFile = process.env.MEDQUAD_PATH ?? '/work/shared/data/medquad/medquad-dev.jsonl';
const concurrency = Number(process.env.INGEST_CONCURRENCY ?? 8);
// The blind set --final asks (run it once, when the code is final; never tune on it).
const finalFile = path.join(here, 'consumer-blind4-final.jsonl');
if (flag('--final') && !existsSync(finalFile)) {
  console.error(`--final: ${path.relative(root, finalFile)} does not exist; nothing run`);
  process.exit(2);
}
const readJsonl = (f) =>
  readFileSync(f, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

function start(name, port, env) {
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: path.join(root, 'services', name),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Warnings (e.g. a knowledge-base document the memory service did not store) go to stderr, the first few only.
  let shown = 0;
  child.stdout.on('data', (chunk) => {
    for (const line of String(chunk).split('\n'))
      if (/"level":(40|50)/.test(line) && shown++ < 5)
        process.stderr.write(`${name}: ${line.slice(0, 400)}\n`);
  });
  return { name, child, url: `http://127.0.0.1:${port}` };
}

async function waitFor(url, ms = 300000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`not up: ${url}`);
}

/** The reader's session: its ID token expires (15 min) long before an ingestion ends, so a 401 logs in again. */
const session = { authUrl: '', token: '' };
async function call(url, init = {}) {
  for (let attempt = 0; ; attempt++) {
    const token = init.token === true ? session.token : init.token;
    const headers = {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    };
    const res = await fetch(url, { ...init, headers });
    if (res.status === 429 && attempt < 20) {
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
      continue;
    }
    if (res.status === 401 && init.token === true && attempt < 2) {
      await res.arrayBuffer();
      session.token = await login(session.authUrl, user.email, user.password);
      continue;
    }
    return res;
  }
}

async function readSse(res) {
  const text = await res.text();
  return text
    .split('\n\n')
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      return event ? { event, data } : undefined;
    })
    .filter(Boolean);
}

const norm = (s) => s.replace(/\s+/g, ' ').trim();
const sentencesOf = (t) => (t.match(/[^.!?\n]+[.!?]+/g) ?? []).map(norm).filter((s) => s.length >= 30);
function ndcg(gains, ideal, k = 10) {
  const dcg = (g) => g.slice(0, k).reduce((s, x, i) => s + (2 ** x - 1) / Math.log2(i + 2), 0);
  const best = dcg([...ideal].sort((a, b) => b - a));
  return best > 0 ? dcg(gains) / best : 0;
}
const pct = (xs, p) => {
  const t = [...xs].sort((a, b) => a - b);
  return t.length ? t[Math.min(t.length - 1, Math.floor(p * t.length))] : NaN;
};
/** Deterministic sample (mulberry32), so every run asks the same MedQuAD questions. */
function sample(items, n, seed = 14) {
  if (!n || n >= items.length) return items;
  let a = seed;
  const rand = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, n);
}

const corpus = readJsonl(corpusFile).slice(0, Number(process.env.CORPUS_LIMIT ?? Infinity));
const keyOf = (qa) => `${qa.collection}:${qa.id}`;
// MedQuAD repeats question texts (the same "What is (are) X ?" in two collections, 1,405 of 3,878 rows): a
// question is scored against every QA pair asking exactly it, grade 2 (its own pair alone is reported too).
const byQuestion = new Map();
for (const qa of corpus) {
  const q = norm(qa.question).toLowerCase();
  byQuestion.set(q, [...(byQuestion.get(q) ?? []), keyOf(qa)]);
}
// Drawn from the documents the KB holds (all of them after a full ingestion).
const medquadOf = (docs) =>
  sample(docs, sampleSize).map((qa) => ({
    question: norm(qa.question),
    own: keyOf(qa),
    relevant: byQuestion.get(norm(qa.question).toLowerCase()).map((k) => ({ key: k, grade: 2 })),
  }));
const asSet = (file) =>
  readJsonl(file).map((q) => ({
    question: q.question,
    relevant: q.relevant.map((r) => ({ key: `${r.collection}:${r.id}`, grade: r.grade })),
  }));
const sets = [
  {
    name: `MedQuAD questions (${sampleSize && sampleSize < corpus.length ? `seeded sample of ${sampleSize}` : 'all'})`,
    questions: [],
    medquad: true,
  },
  { name: 'consumer-dev.jsonl', questions: asSet(path.join(here, 'consumer-dev.jsonl')) },
  // consumer-blind-final.jsonl was reported once (ADR 0422) and is spent: a development set now.
  { name: 'consumer-spent1.jsonl', questions: asSet(path.join(here, 'consumer-spent1.jsonl')) },
  // consumer-blind2-final.jsonl was reported once (ADR 0424) and is spent too.
  { name: 'consumer-spent2.jsonl', questions: asSet(path.join(here, 'consumer-spent2.jsonl')) },
  { name: 'consumer-spent3.jsonl', questions: asSet(path.join(here, 'consumer-spent3.jsonl')) },
  ...(flag('--final')
    ? [{ name: 'consumer-blind4-final.jsonl (run once)', questions: asSet(finalFile) }]
    : []),
  // Questions the corpus does not answer (pets, cars, money, home; off-topic-2 adds cosmetics, travel documents,
  // nutrition trivia and fitness gear): the chat must say it found nothing, not cite.
  ...['off-topic.jsonl', 'off-topic-2.jsonl'].map((name) => ({
    name,
    questions: readJsonl(path.join(here, name)).map((q) => ({ question: q.question, relevant: [] })),
    offTopic: true,
  })),
];

let all = [];
const stop = () => all.forEach((s) => s.child.exitCode === null && s.child.kill('SIGTERM'));
process.on('exit', stop);
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));

/** Starts memory, care-consult and platform-auth; with `dir`, memory and platform-auth keep their data there. */
async function startServices(secrets, dir) {
  const [pa, pc, pm] = await Promise.all([freePort(), freePort(), freePort()]);
  const db = (name) => (dir ? { DATA_DIR: path.join(dir, name) } : { DATABASE_URI: 'pglite://memory' });
  const base = { APP_PROFILES_ACTIVE: 'dev', JWT_SECRET: secrets.jwt };
  const memory = start('memory', pm, { ...base, ...db('memory'), API_KEY: secrets.memoryKey });
  const consult = start('care-consult', pc, {
    ...base,
    DATABASE_URI: 'pglite://memory',
    RELAY_SIGNING_KEY: randomBytes(48).toString('base64url'),
    MEMORY_BASE_URL: memory.url,
    MEMORY_API_KEY: secrets.memoryKey,
    MEMORY_TIMEOUT_MS: '10000',
    WORKSPACE_WATCH: 'false',
    ATTACHMENTS_DIR: path.join(os.tmpdir(), `care-bench-${pc}`),
  });
  const auth = start('platform-auth', pa, {
    ...base,
    ...db('platform-auth'),
    BCRYPT_COST: '4',
    BOOTSTRAP_ADMIN_EMAIL: secrets.admin.email,
    BOOTSTRAP_ADMIN_PASSWORD: secrets.admin.password,
    BOOTSTRAP_TENANT_ID: 'platform',
    CARE_CONSULT_URL: consult.url,
    MEMORY_BASE_URL: memory.url,
    MEMORY_API_KEY: secrets.memoryKey,
  });
  all = [memory, consult, auth];
  await Promise.all([
    waitFor(`${memory.url}/api/v1/system/health`),
    waitFor(`${consult.url}/api/health`),
    waitFor(`${auth.url}/actuator/health/liveness`),
  ]);
  return { memory: memory.url, consult: consult.url, auth: auth.url };
}
const login = async (authUrl, email, password) =>
  (
    await (
      await call(`${authUrl}/api/v1/auth/login`, {
        method: 'POST',
        body: JSON.stringify({ email, password }),
      })
    ).json()
  ).idToken;
const user = { email: 'reader@medquad.test', password: 'correct horse battery staple 9' };

/** Uploads the QA pairs not yet in `state.docOf` (one KB document each, title = the NIH page's question heading). */
async function ingest(state, until) {
  const todo = corpus.filter((qa) => !state.known.has(keyOf(qa)));
  const statuses = {};
  const started = Date.now();
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < todo.length && Date.now() < until) {
        const qa = todo[next++];
        const title = norm(qa.question).slice(0, 300);
        const res = await call(`${state.auth}/api/v1/kb/documents`, {
          method: 'POST',
          token: true,
          body: JSON.stringify({ title, content: qa.answer }),
        });
        const body = await res.json();
        const status = res.status === 201 ? body.indexStatus : `HTTP ${res.status}`;
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status !== 'INDEXED' && statuses[status] <= 3)
          process.stderr.write(`not indexed: ${res.status} ${JSON.stringify(body).slice(0, 300)}\n`);
        if (res.status === 201) {
          state.docOf[body.id] = keyOf(qa);
          if (body.indexStatus === 'INDEXED') state.known.add(keyOf(qa));
        }
        if (++done % 250 === 0)
          process.stderr.write(
            `ingested ${done}/${todo.length} in ${((Date.now() - started) / 1000).toFixed(0)} s ${JSON.stringify(statuses)}\n`,
          );
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  // What the memory service holds: every passage of every INDEXED document, nothing lost on the way.
  const status = await (
    await fetch(`${state.memory}/api/v1/memory/status`, {
      headers: { 'x-api-key': state.secrets.memoryKey, 'x-tenant-id': state.tenant },
    })
  ).json();
  // Every upload ends INDEXED or visibly FAILED: the documents list agrees with the upload answers.
  const listed = {};
  for (let offset = 0; ; offset += 100) {
    const page =
      (
        await (
          await call(`${state.auth}/api/v1/kb/documents?limit=100&offset=${offset}`, { token: true })
        ).json()
      ).items ?? [];
    for (const d of page) listed[d.indexStatus] = (listed[d.indexStatus] ?? 0) + 1;
    if (page.length < 100) break;
  }
  state.ingest.runs.push({ at: new Date().toISOString(), seconds, uploads: done, statuses });
  state.ingest.listed = listed;
  state.ingest.memoryPassages = status.tiers?.semantic?.active;
}

// INGEST_MINUTES bounds an ingestion (the rest can follow with --reuse DIR --ingest).
const until = Date.now() + Number(process.env.INGEST_MINUTES ?? Infinity) * 60_000;
let state;
if (reuseDir) {
  state = JSON.parse(readFileSync(path.join(reuseDir, 'state.json'), 'utf8'));
  Object.assign(state, await startServices(state.secrets, reuseDir));
  state.ingest.runs ??= [];
  console.log(`(reusing the ingestion in ${reuseDir}; services started from the current builds)`);
} else {
  const secrets = {
    jwt: randomBytes(48).toString('base64url'),
    memoryKey: randomBytes(32).toString('base64url'),
    admin: { email: 'admin@bench.test', password: `Adm1n-${randomBytes(9).toString('base64url')}` },
  };
  if (keepDir) mkdirSync(keepDir, { recursive: true });
  const urls = await startServices(secrets, keepDir);
  const adminToken = await login(urls.auth, secrets.admin.email, secrets.admin.password);
  const tenant = 'medquad-bench';
  await call(`${urls.auth}/api/v1/tenants`, {
    method: 'POST',
    token: adminToken,
    body: JSON.stringify({ id: tenant, name: 'MedQuAD bench' }),
  });
  const created = await call(`${urls.auth}/api/v1/users`, {
    method: 'POST',
    token: adminToken,
    body: JSON.stringify({ ...user, roles: ['USER'], tenantId: tenant }),
  });
  if (!created.ok) throw new Error(`user: ${created.status} ${await created.text()}`);
  state = { ...urls, secrets, tenant, docOf: {}, ingest: { runs: [] } };
}
session.authUrl = state.auth;
session.token = await login(state.auth, user.email, user.password);
state.known = new Set(Object.values(state.docOf));
if (!reuseDir || flag('--ingest')) await ingest(state, until);
if (keepDir || reuseDir)
  writeFileSync(path.join(keepDir ?? reuseDir, 'state.json'), JSON.stringify({ ...state, known: undefined }));

// When the corpus is not all in (a bounded ingestion), BM25 gets the very same documents the KB holds, and only
// questions with a relevant document in the KB are asked; the header says how many.
const inKb = corpus.filter((qa) => state.known.has(keyOf(qa)));
const partial = inKb.length < corpus.length;
const passages = inKb.flatMap((qa) =>
  chunkDocument(norm(qa.question).slice(0, 300), qa.answer).map((p) => ({ key: keyOf(qa), text: p.text })),
);
const bm25 = new Bm25Index(passages.map((p, position) => ({ source: p.key, text: p.text, position })));
const answerOf = new Map(corpus.map((qa) => [keyOf(qa), qa.answer]));
const docOf = new Map(Object.entries(state.docOf));
const runs = state.ingest.runs
  .map((r) => `${r.at}: ${r.uploads} uploads in ${r.seconds.toFixed(0)} s ${JSON.stringify(r.statuses)}`)
  .join('; ');
console.log(
  `\nGrounding bench: ${inKb.length} of ${corpus.length} QA documents indexed -> ${passages.length} passages (memory holds ${state.ingest.memoryPassages} active); documents list ${JSON.stringify(state.ingest.listed)}; ingestion runs: ${runs}`,
);
for (const set of sets) {
  if (set.medquad) set.questions = medquadOf(inKb);
  const before = set.medquad ? sampleSize || corpus.length : set.questions.length;
  if (set.offTopic) continue;
  set.questions = set.questions.filter((q) => q.relevant.some((r) => state.known.has(r.key)));
  if (partial)
    set.name += ` (${set.questions.length} of ${before} have a relevant document in the KB; only those asked)`;
}

// Each chat question is asked by a new person of the tenant: the chat saves what a person tells it and quotes it back
// later (ADR 0420), so one reader asking every question, run after run on a kept database, would be answered from
// its own earlier questions instead of the knowledge base.
const admin = { token: '', at: 0 };
let readers = 0;
async function newReader() {
  if (Date.now() - admin.at > 10 * 60_000) {
    admin.token = await login(state.auth, state.secrets.admin.email, state.secrets.admin.password);
    admin.at = Date.now();
  }
  const reader = {
    email: `reader-${process.pid}-${Date.now()}-${readers++}@medquad.test`,
    password: user.password,
  };
  const created = await call(`${state.auth}/api/v1/users`, {
    method: 'POST',
    token: admin.token,
    body: JSON.stringify({ ...reader, roles: ['USER'], tenantId: state.tenant }),
  });
  if (!created.ok) throw new Error(`user: ${created.status} ${await created.text()}`);
  return login(state.auth, reader.email, reader.password);
}

for (const set of sets) {
  const rows = {
    chatHit: 0,
    chatOwn: 0,
    cited: 0,
    sentence: 0,
    kbHit: 0,
    kbNdcg: 0,
    bmHit: 0,
    bmNdcg: 0,
    turnMs: [],
    searchMs: [],
  };
  for (const q of set.questions) {
    const grade = new Map(q.relevant.map((r) => [r.key, r.grade]));
    const ideal = [...grade.values()];
    const asker = await newReader();
    const t0 = performance.now();
    const res = await call(`${state.auth}/api/v1/chat`, {
      method: 'POST',
      token: asker,
      body: JSON.stringify({ messages: [{ role: 'user', content: q.question }] }),
    });
    const frames = await readSse(res);
    rows.turnMs.push(performance.now() - t0);
    const answer = frames
      .filter((f) => f.event === 'token')
      .map((f) => JSON.parse(f.data).content)
      .join('');
    const sugg = frames.find((f) => f.event === 'suggestions');
    const sources = sugg ? (JSON.parse(sugg.data).sources ?? []) : [];
    const kbSources = sources.filter((s) => s.document_id);
    if (kbSources.length) rows.cited++;
    const first = kbSources[0] ? docOf.get(kbSources[0].document_id) : undefined;
    if (first && (grade.get(first) ?? 0) >= 1) rows.chatHit++;
    if (first && first === q.own) rows.chatOwn++;
    const refs = q.relevant.filter((r) => r.grade === 2).map((r) => answerOf.get(r.key) ?? '');
    const said = norm(answer);
    if (refs.some((ref) => sentencesOf(ref).some((s) => said.includes(s)))) rows.sentence++;
    if (set.offTopic) {
      if (process.env.DEBUG_BENCH && kbSources.length)
        process.stderr.write(`off-topic cited: ${q.question}\n  ${kbSources[0].title}\n`);
      continue;
    }
    if (process.env.DEBUG_BENCH)
      process.stderr.write(
        `${q.question}\n  first=${first} want=${[...grade.keys()].slice(0, 3)} ${said.slice(0, 200)}\n`,
      );

    const s0 = performance.now();
    const search = await (
      await call(
        `${state.auth}/api/v1/kb/search?limit=10&q=${encodeURIComponent(q.question.slice(0, 1000))}`,
        { token: true },
      )
    ).json();
    rows.searchMs.push(performance.now() - s0);
    const kbDocs = [...new Set((search.items ?? []).map((i) => docOf.get(i.documentId)))].slice(0, 10);
    if ((grade.get(kbDocs[0]) ?? 0) >= 1) rows.kbHit++;
    rows.kbNdcg += ndcg(
      kbDocs.map((d) => grade.get(d) ?? 0),
      ideal,
    );
    const bmDocs = [...new Set(bm25.search(q.question, 50).map((h) => h.source))].slice(0, 10);
    if ((grade.get(bmDocs[0]) ?? 0) >= 1) rows.bmHit++;
    rows.bmNdcg += ndcg(
      bmDocs.map((d) => grade.get(d) ?? 0),
      ideal,
    );
  }
  const n = set.questions.length;
  const f = (x) => (x / n).toFixed(3);
  if (set.offTopic) {
    console.log(
      `\n### ${set.name}: ${n} questions the corpus does not answer; the chat cites a KB passage in ${f(rows.cited)} of them (${rows.cited}; should be 0)`,
    );
    continue;
  }
  console.log(
    `\n### ${set.name}: ${n} questions; load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}\n`,
  );
  console.log('| retrieval | hit@1 | nDCG@10 |');
  console.log('|---|---:|---:|');
  console.log(`| chat first citation (offline engine, POST /api/v1/chat) | ${f(rows.chatHit)} | - |`);
  console.log(`| KB search (GET /api/v1/kb/search, limit 10) | ${f(rows.kbHit)} | ${f(rows.kbNdcg)} |`);
  console.log(`| baseline: BM25 over the same passages | ${f(rows.bmHit)} | ${f(rows.bmNdcg)} |`);
  console.log(
    `\nratios: chat hit@1 / BM25 hit@1 = ${(rows.chatHit / Math.max(1, rows.bmHit)).toFixed(2)}; KB search nDCG@10 / BM25 nDCG@10 = ${(rows.kbNdcg / Math.max(1e-9, rows.bmNdcg)).toFixed(2)}`,
  );
  console.log(
    `answers citing a KB passage ${f(rows.cited)}; answer holds a sentence of a grade-2 reference answer ${f(rows.sentence)}${set.questions[0]?.own ? `; first citation is the question's own QA pair ${f(rows.chatOwn)}` : ''}`,
  );
  console.log(
    `KB search through platform-auth p50 ${pct(rows.searchMs, 0.5).toFixed(1)} ms, p95 ${pct(rows.searchMs, 0.95).toFixed(1)} ms; whole chat turn p50 ${pct(rows.turnMs, 0.5).toFixed(0)} ms, p95 ${pct(rows.turnMs, 0.95).toFixed(0)} ms (sequential)`,
  );
}
if (keepDir) {
  process.stderr.write(`services kept running (${keepDir}); Ctrl-C stops them\n`);
  await new Promise(() => {});
}
// The children's pipes would keep this process alive.
stop();
