#!/usr/bin/env node
// Grounding benchmark (issue 14, care-consult ADR 0421). Starts the three BUILT services as processes (as
// tests/integration does), ingests the MedQuAD development corpus through platform-auth's KB API into one tenant
// (one KB document per QA pair), then for each question of a question set:
//   - asks it through POST /api/v1/chat (offline engine) and scores hit@1 (the first citation is a passage of a
//     relevant QA document) and whether the answer contains a sentence of the grade-2 reference answer;
//   - searches GET /api/v1/kb/search?limit=10 and scores hit@1 and nDCG@10 over documents;
//   - runs BM25 (the offline engine's Bm25Index) over the very same passages (platform-auth's chunker) as the
//     same-run baseline.
// Usage: node bench/grounding/run.mjs [questions.jsonl]   (default: bench/grounding/consumer-dev.jsonl)
// Env: MEDQUAD_PATH (default /work/shared/data/medquad/medquad-dev.jsonl), INGEST_CONCURRENCY (default 4).
// The corpus is read from its path, never copied into the repository.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const require = createRequire(import.meta.url);
const { chunkDocument } = require(path.join(root, 'services/platform-auth/dist/kb/memory-indexer.js'));
const { Bm25Index } = require(path.join(root, 'services/care-consult/dist/providers/builtin/retrieval.js'));

const questionsFile = path.resolve(process.argv[2] ?? path.join(here, 'consumer-dev.jsonl'));
const corpusFile = process.env.MEDQUAD_PATH ?? '/work/shared/data/medquad/medquad-dev.jsonl';
const concurrency = Number(process.env.INGEST_CONCURRENCY ?? 4);
const readJsonl = (f) => readFileSync(f, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

function start(name, port, env) {
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: path.join(root, 'services', name),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Warnings (e.g. a knowledge-base passage the memory service refused) go to stderr, the first few only.
  let shown = 0;
  child.stdout.on('data', (chunk) => {
    for (const line of String(chunk).split('\n')) if (/"level":(40|50)/.test(line) && shown++ < 5) process.stderr.write(`${name}: ${line.slice(0, 400)}\n`);
  });
  return { name, child, url: `http://127.0.0.1:${port}` };
}

async function waitFor(url, ms = 180000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`not up: ${url}`);
}

async function call(url, init = {}) {
  for (let attempt = 0; ; attempt++) {
    const headers = { 'content-type': 'application/json', ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) };
    const res = await fetch(url, { ...init, headers });
    if (res.status === 429 && attempt < 20) {
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
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

const corpus = readJsonl(corpusFile).slice(0, Number(process.env.CORPUS_LIMIT ?? Infinity));
const questions = readJsonl(questionsFile);
const [pa, pc, pm] = await Promise.all([freePort(), freePort(), freePort()]);
const jwt = randomBytes(48).toString('base64url');
const memoryKey = randomBytes(32).toString('base64url');
const admin = { email: 'admin@bench.test', password: `Adm1n-${randomBytes(9).toString('base64url')}` };
const base = { APP_PROFILES_ACTIVE: 'dev', DATABASE_URI: 'pglite://memory', JWT_SECRET: jwt };
const memory = start('memory', pm, { ...base, API_KEY: memoryKey });
const consult = start('care-consult', pc, {
  ...base,
  RELAY_SIGNING_KEY: randomBytes(48).toString('base64url'),
  MEMORY_BASE_URL: memory.url,
  MEMORY_API_KEY: memoryKey,
  MEMORY_TIMEOUT_MS: '10000',
  WORKSPACE_WATCH: 'false',
  ATTACHMENTS_DIR: path.join(os.tmpdir(), `care-bench-${pc}`),
});
const auth = start('platform-auth', pa, {
  ...base,
  BCRYPT_COST: '4',
  BOOTSTRAP_ADMIN_EMAIL: admin.email,
  BOOTSTRAP_ADMIN_PASSWORD: admin.password,
  BOOTSTRAP_TENANT_ID: 'platform',
  CARE_CONSULT_URL: consult.url,
  MEMORY_BASE_URL: memory.url,
  MEMORY_API_KEY: memoryKey,
  MEMORY_TIMEOUT_MS: '30000',
});
const all = [memory, consult, auth];
const stop = () => all.forEach((s) => s.child.exitCode === null && s.child.kill('SIGTERM'));
process.on('exit', stop);

try {
  await Promise.all([waitFor(`${memory.url}/api/v1/system/health`), waitFor(`${consult.url}/api/health`), waitFor(`${auth.url}/actuator/health/liveness`)]);
  const login = async (email, password) => (await (await call(`${auth.url}/api/v1/auth/login`, { method: 'POST', body: JSON.stringify({ email, password }) })).json()).idToken;
  const adminToken = await login(admin.email, admin.password);
  const tenant = 'medquad-bench';
  await call(`${auth.url}/api/v1/tenants`, { method: 'POST', token: adminToken, body: JSON.stringify({ id: tenant, name: 'MedQuAD bench' }) });
  const user = { email: 'reader@medquad.test', password: 'correct horse battery staple 9' };
  const created = await call(`${auth.url}/api/v1/users`, { method: 'POST', token: adminToken, body: JSON.stringify({ ...user, roles: ['USER'], tenantId: tenant }) });
  if (!created.ok) throw new Error(`user: ${created.status} ${await created.text()}`);
  const token = await login(user.email, user.password);

  // Ingest: one KB document per QA pair, title = the NIH page's question heading.
  const docOf = new Map(); // KB document id -> `${collection}:${id}`
  const passages = []; // for the BM25 baseline: { key, text }
  const started = Date.now();
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < corpus.length) {
        const qa = corpus[next++];
        const title = norm(qa.question).slice(0, 300);
        const res = await call(`${auth.url}/api/v1/kb/documents`, { method: 'POST', token, body: JSON.stringify({ title, content: qa.answer }) });
        const body = await res.json();
        if (res.status !== 201 || body.indexStatus !== 'INDEXED') {
          if (failed++ < 3) process.stderr.write(`not indexed: ${res.status} ${JSON.stringify(body).slice(0, 300)}\n`);
        }
        const key = `${qa.collection}:${qa.id}`;
        docOf.set(body.id, key);
        for (const p of chunkDocument(title, qa.answer)) passages.push({ key, text: p.text });
        if (docOf.size % 250 === 0) process.stderr.write(`ingested ${docOf.size}/${corpus.length} in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
      }
    }),
  );
  const ingestS = (Date.now() - started) / 1000;
  const bm25 = new Bm25Index(passages.map((p, position) => ({ source: p.key, text: p.text, position })));
  const answerOf = new Map(corpus.map((qa) => [`${qa.collection}:${qa.id}`, qa.answer]));

  const rows = { chatHit: 0, chatHit2: 0, sentence: 0, kbHit: 0, kbNdcg: 0, bmHit: 0, bmNdcg: 0, firstTokenMs: [] };
  for (const q of questions) {
    const grade = new Map(q.relevant.map((r) => [`${r.collection}:${r.id}`, r.grade]));
    const ideal = [...grade.values()];
    const t0 = performance.now();
    const res = await call(`${auth.url}/api/v1/chat`, { method: 'POST', token, body: JSON.stringify({ messages: [{ role: 'user', content: q.question }] }) });
    const frames = await readSse(res);
    if (process.env.DEBUG_BENCH) process.stderr.write(`${res.status} ${JSON.stringify(frames).slice(0, 1500)}\n`);
    rows.firstTokenMs.push(performance.now() - t0);
    const answer = frames.filter((f) => f.event === 'token').map((f) => JSON.parse(f.data).content).join('');
    const sugg = frames.find((f) => f.event === 'suggestions');
    const sources = sugg ? JSON.parse(sugg.data).sources ?? [] : [];
    const first = sources[0]?.document_id ? docOf.get(sources[0].document_id) : undefined;
    if (first && (grade.get(first) ?? 0) >= 1) rows.chatHit++;
    if (first && grade.get(first) === 2) rows.chatHit2++;
    const refs = q.relevant.filter((r) => r.grade === 2).map((r) => answerOf.get(`${r.collection}:${r.id}`) ?? '');
    const said = norm(answer);
    if (refs.some((ref) => sentencesOf(ref).some((s) => said.includes(s)))) rows.sentence++;

    const search = await (await call(`${auth.url}/api/v1/kb/search?limit=10&q=${encodeURIComponent(q.question.slice(0, 1000))}`, { token })).json();
    if (process.env.DEBUG_BENCH) process.stderr.write(`search ${JSON.stringify(search).slice(0, 600)}\n`);
    const kbDocs = [...new Set((search.items ?? []).map((i) => docOf.get(i.documentId)))].slice(0, 10);
    if ((grade.get(kbDocs[0]) ?? 0) >= 1) rows.kbHit++;
    rows.kbNdcg += ndcg(kbDocs.map((d) => grade.get(d) ?? 0), ideal);
    const bmDocs = [...new Set(bm25.search(q.question, 50).map((h) => h.source))].slice(0, 10);
    if ((grade.get(bmDocs[0]) ?? 0) >= 1) rows.bmHit++;
    rows.bmNdcg += ndcg(bmDocs.map((d) => grade.get(d) ?? 0), ideal);
  }
  const n = questions.length;
  const f = (x) => (x / n).toFixed(3);
  const t = [...rows.firstTokenMs].sort((a, b) => a - b);
  console.log(`\nGrounding bench: ${path.basename(questionsFile)} (${n} questions), ${corpus.length} QA documents -> ${passages.length} passages ingested through the KB API in ${ingestS.toFixed(0)} s (${failed} not indexed); load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}\n`);
  console.log('| retrieval | hit@1 (grade>=1) | nDCG@10 |');
  console.log('|---|---:|---:|');
  console.log(`| chat first citation (offline engine) | ${f(rows.chatHit)} | - |`);
  console.log(`| KB search (memory recall, filtered to kb) | ${f(rows.kbHit)} | ${f(rows.kbNdcg)} |`);
  console.log(`| baseline: BM25 over the same passages | ${f(rows.bmHit)} | ${f(rows.bmNdcg)} |`);
  console.log(`\nchat hit@1 on grade-2 documents: ${f(rows.chatHit2)}; answer contains a sentence of the reference answer: ${f(rows.sentence)}`);
  console.log(`ratios: chat hit@1 / BM25 hit@1 = ${(rows.chatHit / Math.max(1, rows.bmHit)).toFixed(2)}; KB nDCG@10 / BM25 nDCG@10 = ${(rows.kbNdcg / Math.max(1e-9, rows.bmNdcg)).toFixed(2)}`);
  console.log(`whole chat turn (sequential, through platform-auth) p50 ${t[Math.floor(n / 2)].toFixed(0)} ms, max ${t[n - 1].toFixed(0)} ms`);
} finally {
  stop();
}
