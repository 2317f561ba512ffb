#!/usr/bin/env node
// Trains the learned share of chat routing (ADR 0417): a multinomial logistic regression over the sentence
// encoder's vector of a message and its word bag (wordBag: the lexical side's stems and phrase expansions), one
// class per active agent, on every agent's own texts (agentProfileTexts: name
// and description, scope, tags, examples) plus the labelled development sets (blind-dev, blind1-spent,
// blind2-spent, blind3-spent, own-examples; label = the best acceptable agent). Never a final set.
//
// Generalisation is measured leave-one-set-out: for each development set, a model trained on the catalog and the
// other four sets routes it (through AgentRouter.decideOn, the router's own decision code). The fusion weight is
// chosen by nested leave-one-set-out (for each held-out set, the weight that does best on the other sets with
// models trained without them), and the shipped weight is the one the full leave-one-set-out mean picks. The
// shipped model is then trained on the catalog and all five sets. Writes data/routing/router-model.json.
//
//   pnpm --filter @care/care-consult run build &&
//     node bench/routing/train-router.mjs [--dry-run] [--cache FILE] [--share W]
//
// --dry-run prints the figures and writes no model; --cache FILE keeps message vectors between runs (not committed);
// --share W ships weight W instead of the flat leave-one-set-out pick (the shipped model is the pick, 3: ADR 0433).
// Training-only sets (TRAINING_ONLY_FILES, ADR 0433) are in every model; --no-training-only leaves them out and
// --no-nested skips the nested figures.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cachedEmbedder } from '../lib/embed-cache.mjs';
import {
  SET_FILES,
  TRAINING_ONLY_FILES,
  dist,
  serviceRequire,
  shippedCatalog,
  silentLogger,
} from './shipped.mjs';

const { AgentRouter, agentProfileTexts } = dist('chat/agent-router.js');
const { learnedScorer, routingModelHash, wordBag, ROUTING_MODEL_PATH } = dist('chat/routing/learned.js');
const { queryTerms } = dist('chat/routing/lexical.js');
const { sharedSentenceEncoder } = serviceRequire('@care/sentence-encoder');

const DRY_RUN = process.argv.includes('--dry-run');
const cacheArg = process.argv.indexOf('--cache');
const cachePath = cacheArg >= 0 ? process.argv[cacheArg + 1] : undefined;
const shareArg = process.argv.indexOf('--share');
const SHIPPED_SHARE = shareArg >= 0 ? Number(process.argv[shareArg + 1]) : undefined;
if (SHIPPED_SHARE !== undefined && !(SHIPPED_SHARE > 0)) throw new Error('--share takes a positive weight');
// The development sets, in the order their bytes enter the model's hash (see routingModelHash). Never `final`.
const SETS = {
  dev: SET_FILES.dev,
  spent: SET_FILES.spent,
  spent2: SET_FILES.spent2,
  spent3: SET_FILES.spent3,
  own: SET_FILES.own,
};
const NAMES = Object.keys(SETS);
// Training-only sets (ADR 0433): in every model's training, never held out or scored. --no-training-only leaves them
// out, for the same-run comparison that decides whether they stay.
const EXTRA = process.argv.includes('--no-training-only') ? {} : TRAINING_ONLY_FILES;
const EXTRA_NAMES = Object.keys(EXTRA);
// --no-nested skips nested leave-one-set-out (about four times the models) while iterating.
const NESTED = !process.argv.includes('--no-nested');
const EPOCHS = Number(process.env.EPOCHS ?? 150);
const L2 = Number(process.env.L2 ?? 1e-4);
const RATE = 0.05;
// Candidate weights of the learned share (probability x weight added to the combined score, which is ~0.3-1.3).
const SHARES = [0.2, 0.3, 0.5, 0.8, 1, 1.5, 2, 3];

const logger = silentLogger('train-router');
const catalog = await shippedCatalog(logger);
const encoder = sharedSentenceEncoder();
// The router without a learned share: its scores are the base the share is added to.
const router = new AgentRouter(catalog, encoder, logger, { model: null });
await router.ready();
const agents = catalog.activeAgents();
const ids = agents.map((a) => a.id);
const classOf = new Map(ids.map((id, i) => [id, i]));

const embedVectors = cachedEmbedder(encoder, cachePath);
const embedAll = async (texts) => (await embedVectors(texts)).map((v) => Float64Array.from(v));

// Catalog rows: every agent's profile texts, labelled with the agent.
const profileTexts = agents.map((a) => agentProfileTexts(a));
const catalogVectors = await embedAll(profileTexts.flat());
const catalogRows = [];
profileTexts.forEach((texts, i) =>
  texts.forEach((text) =>
    catalogRows.push({
      y: i,
      v: catalogVectors[catalogRows.length],
      words: wordBag([{ terms: queryTerms(text), weight: 1 }]),
    }),
  ),
);

// Set cases: the router's base scores (for measuring) and a training row (the best acceptable agent).
const sets = {};
const fileOf = (name) => SETS[name] ?? EXTRA[name];
// Every set the shipped model trains on, in the order their bytes enter its hash.
const TRAINED = [...NAMES, ...EXTRA_NAMES];
for (const name of TRAINED) {
  const cases = readFileSync(fileOf(name), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
  const unknown = cases.flatMap((c) => c.acceptable).filter((id) => !classOf.has(id));
  if (unknown.length)
    throw new Error(`${name}: agents not in the catalog: ${[...new Set(unknown)].join(', ')}`);
  const vectors = await embedAll(cases.map((c) => c.text.trim().slice(-2000)));
  sets[name] = [];
  for (const [i, c] of cases.entries()) {
    const scores = await router.scores([c.text]);
    const words = wordBag([{ terms: queryTerms(c.text.trim().slice(-2000)), weight: 1 }]);
    sets[name].push({ ...c, scores, y: classOf.get(c.acceptable[0]), v: vectors[i], words });
  }
}

/** Multinomial logistic regression, full-batch Adam with L2, over unit vectors and unit word bags. */
function train(trainingRows) {
  const K = ids.length;
  const V = trainingRows[0].v.length;
  const vocabulary = [...new Set(trainingRows.flatMap((r) => [...r.words.keys()]))].sort();
  const column = new Map(vocabulary.map((t, j) => [t, V + j]));
  const D = V + vocabulary.length;
  const rows = trainingRows.map((r) => ({ ...r, bag: [...r.words].map(([t, x]) => [column.get(t), x]) }));
  const W = Array.from({ length: K }, () => new Float64Array(D));
  const b = new Float64Array(K);
  const mW = W.map(() => new Float64Array(D));
  const vW = W.map(() => new Float64Array(D));
  const gW = W.map(() => new Float64Array(D));
  const mb = new Float64Array(K);
  const vb = new Float64Array(K);
  const gb = new Float64Array(K);
  const scores = new Float64Array(K);
  for (let t = 1; t <= EPOCHS; t++) {
    for (const g of gW) g.fill(0);
    gb.fill(0);
    for (const r of rows) {
      let max = -Infinity;
      for (let k = 0; k < K; k++) {
        let s = b[k];
        const w = W[k];
        for (let i = 0; i < V; i++) s += w[i] * r.v[i];
        for (const [j, x] of r.bag) s += w[j] * x;
        scores[k] = s;
        if (s > max) max = s;
      }
      let sum = 0;
      for (let k = 0; k < K; k++) sum += scores[k] = Math.exp(scores[k] - max);
      for (let k = 0; k < K; k++) {
        const g = (scores[k] / sum - (k === r.y ? 1 : 0)) / rows.length;
        if (Math.abs(g) < 1e-12) continue;
        gb[k] += g;
        const gw = gW[k];
        for (let i = 0; i < V; i++) gw[i] += g * r.v[i];
        for (const [j, x] of r.bag) gw[j] += g * x;
      }
    }
    const c1 = 1 - 0.9 ** t;
    const c2 = 1 - 0.999 ** t;
    for (let k = 0; k < K; k++) {
      for (let i = 0; i < D; i++) {
        const g = gW[k][i] + L2 * W[k][i];
        mW[k][i] = 0.9 * mW[k][i] + 0.1 * g;
        vW[k][i] = 0.999 * vW[k][i] + 0.001 * g * g;
        W[k][i] -= (RATE * (mW[k][i] / c1)) / (Math.sqrt(vW[k][i] / c2) + 1e-8);
      }
      mb[k] = 0.9 * mb[k] + 0.1 * gb[k];
      vb[k] = 0.999 * vb[k] + 0.001 * gb[k] * gb[k];
      b[k] -= (RATE * (mb[k] / c1)) / (Math.sqrt(vb[k] / c2) + 1e-8);
    }
  }
  const round = (x) => Math.round(x * 1e5) / 1e5;
  return {
    embedder: encoder.model,
    dimension: V,
    vocabulary,
    agents: ids,
    weights: W.map((row) => Array.from(row, round)),
    bias: Array.from(b, round),
    weight: 0,
    trainedOn: '',
  };
}

const rowsOf = (names) =>
  [...names, ...EXTRA_NAMES].flatMap((n) => sets[n].map((c) => ({ y: c.y, v: c.v, words: c.words })));
// Models trained on the catalog and every set but the excluded ones, each with its learned probabilities per case.
const models = new Map();
function modelWithout(excluded) {
  const key = [...excluded].sort().join(',');
  if (!models.has(key)) {
    const scorer = learnedScorer(
      train([...catalogRows, ...rowsOf(NAMES.filter((n) => !excluded.includes(n)))]),
      ids,
    );
    models.set(
      key,
      new Map(NAMES.flatMap((n) => sets[n].map((c) => [c, scorer.probabilities(c.v, c.words)]))),
    );
  }
  return models.get(key);
}
const right = (c, decision) => c.acceptable.includes(decision.agent.id);
const accuracy = (name, probs, share) =>
  sets[name].filter((c) => right(c, router.decideOn(c.scores, false, probs?.get(c), share))).length /
  sets[name].length;
const f = (x) => x.toFixed(3);

console.log(
  `${agents.length} agents, ${catalogRows.length} catalog texts; sets ${NAMES.map((n) => `${n} ${sets[n].length}`).join(', ')}; training only: ${EXTRA_NAMES.map((n) => `${n} ${sets[n].length}`).join(', ') || 'none'}`,
);
console.log(
  `base router (no learned share): ${NAMES.map((n) => `${n} ${f(accuracy(n, undefined, 0))}`).join(' ')}`,
);
const catalogOnly = modelWithout(NAMES);
for (const share of SHARES)
  console.log(
    `catalog texts${EXTRA_NAMES.length ? ' and training-only sets' : ''}, no development set, share ${share}: ${NAMES.map((n) => `${n} ${f(accuracy(n, catalogOnly, share))}`).join(' ')}`,
  );
const loso = SHARES.map((share) => {
  const r = NAMES.map((n) => accuracy(n, modelWithout([n]), share));
  const mean = r.reduce((a, x) => a + x, 0) / r.length;
  console.log(
    `leave-one-set-out, share ${share}: ${NAMES.map((n, i) => `${n} ${f(r[i])}`).join(' ')} mean ${f(mean)}`,
  );
  return { share, mean };
});
const nested = (NESTED ? NAMES : []).map((held) => {
  const inner = SHARES.map((share) => ({
    share,
    score: NAMES.filter((n) => n !== held).reduce(
      (a, n) => a + accuracy(n, modelWithout([held, n]), share),
      0,
    ),
  })).sort((a, b) => b.score - a.score || a.share - b.share)[0];
  return { held, share: inner.share, acc: accuracy(held, modelWithout([held]), inner.share) };
});
if (NESTED)
  console.log(
    `nested leave-one-set-out (share chosen without the held-out set): ${nested.map((x) => `${x.held} ${f(x.acc)} (share ${x.share})`).join(' ')} mean ${f(nested.reduce((a, x) => a + x.acc, 0) / nested.length)}`,
  );
const flat = [...loso].sort((a, b) => b.mean - a.mean || a.share - b.share)[0].share;
console.log(`flat leave-one-set-out pick: share ${flat}`);
const share = SHIPPED_SHARE ?? flat;
const model = train([...catalogRows, ...rowsOf(NAMES)]);
model.weight = share;
model.trainedOn = routingModelHash(
  agents.map((a) => ({ id: a.id, texts: agentProfileTexts(a) })),
  TRAINED.map((n) => readFileSync(fileOf(n))),
);
const full = learnedScorer(model, ids);
const fit = new Map(NAMES.flatMap((n) => sets[n].map((c) => [c, full.probabilities(c.v, c.words)])));
console.log(
  `shipped model (share ${share}), on its own training sets: ${NAMES.map((n) => `${n} ${f(accuracy(n, fit, share))}`).join(' ')}`,
);
if (!DRY_RUN) {
  writeFileSync(ROUTING_MODEL_PATH, `${JSON.stringify(model)}\n`);
  console.log(`wrote ${path.relative(process.cwd(), ROUTING_MODEL_PATH)}`);
}
