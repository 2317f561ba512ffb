// Trains the semantic stage of the red-flag screen over Universal Sentence Encoder lite vectors: a multinomial
// logistic regression plus the exemplars of a nearest-neighbour vote (the stage averages the two), on
// services/care-consult/data/red-flags/labelled.jsonl + train.jsonl + train-v4.jsonl + train-v5-hard.jsonl +
// train-v5-voices.jsonl + blind-dev.jsonl + blind1-spent.jsonl to blind8-spent.jsonl + train-v6a.jsonl +
// train-v6b.jsonl (never holdout.jsonl, train-hard.jsonl or blind10-final; ADR 0418, 0428, 0429, 0434). blind8-spent
// is trained on but not cross-validated on, so the folds stay those of ADR 0429.
// Thresholds and the veto level are picked by 5-fold cross-validation over the eight blind development sets (each
// fold scored by a model trained without it): the best cross-validated recall whose
// false-positive rate stays within MAX_FPR, that refuses no more than EVERYDAY_MAX of the everyday messages and
// answers every ordinary.jsonl (everyday-set.mjs; both scored by the model trained on everything, which never saw
// them; ADR 0414). A context join marked `resolved` (ADR 0418) is scored as the screen scores it. The shipped
// model is trained on everything. Writes data/red-flags/semantic-model.json and semantic-exemplars.bin.
// Run after building:  pnpm --filter @care/care-consult run build && node bench/red-flags/train-semantic.mjs
// Options: --cache FILE keeps vectors between runs while iterating. Experiments (write no shipped model):
// RF_TRAIN=a.jsonl,b.jsonl and RF_CV=... replace the file lists; RF_HOLD_OUT=file.jsonl trains without that file and
// scores it with the chosen thresholds; RF_CANDIDATE=/path/x.json writes the model there (x.json + x.bin, for
// everyday.mjs --model); RF_FIXED=veto,message,sentence,highCost keeps that operating point instead of picking one.
// --hold-out-spent is RF_HOLD_OUT=blind1-spent.jsonl with blind-dev alone cross-validated.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cachedEmbedder } from '../lib/embed-cache.mjs';
import { everydayMessages } from './everyday-set.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const svc = resolve(here, '../../services/care-consult');
const safety = require(resolve(svc, 'dist/safety/index.js'));
const semantic = safety;
const { sharedSentenceEncoder } = require(resolve(svc, 'node_modules/@care/sentence-encoder'));

const HOLD_OUT_SPENT = process.argv.includes('--hold-out-spent');
const list = (name, fallback) => (process.env[name] ? process.env[name].split(',') : fallback);
const TRAIN_FILES = list('RF_TRAIN', [...safety.SEMANTIC_TRAINING_FILES]);
const HELD_OUT = HOLD_OUT_SPENT ? 'blind1-spent.jsonl' : process.env.RF_HOLD_OUT;
// A held-out set is never cross-validated on (the model scored on it is trained on every cross-validation set).
const CV_FILES = (
  HOLD_OUT_SPENT
    ? ['blind-dev.jsonl']
    : list('RF_CV', [
        'blind-dev.jsonl',
        'blind1-spent.jsonl',
        'blind2-spent.jsonl',
        'blind3-spent.jsonl',
        'blind4-spent.jsonl',
        'blind5-spent.jsonl',
        'blind6-spent.jsonl',
        'blind7-spent.jsonl',
      ])
).filter((f) => f !== HELD_OUT);
const FOLDS = 5;
const KNN_K = 7;
const KNN_TEMPERATURE = 20;
const EPOCHS = Number(process.env.EPOCHS ?? 300);
const L2 = Number(process.env.L2 ?? 1e-5);
const RATE = 0.05;
// Class weights: a missed emergency costs more than a needless refusal.
const NONE_WEIGHT = 1;
const EMERGENCY_WEIGHT = Number(process.env.EW ?? 2);
// Operating point: the best cross-validated recall whose false-positive rate stays within MAX_FPR. The default is
// the rate the previous screen was measured at on its blind set (7.5%): when in doubt refuse, but no more often
// than before. The 2% target point is printed beside it (ADR 0411).
const MAX_DEV_FPR = Number(process.env.MAX_FPR ?? 0.075);
const TARGET_FPR = 0.02;
// ... and refusing no more of the everyday messages (everyday-set.mjs, scored by the model trained on everything,
// which never saw them) than the screen before it did: 3.2% (ADR 0414); and answering every ordinary.jsonl.
const EVERYDAY_MAX = Number(process.env.EVERYDAY_MAX ?? 0.032);
// When in doubt, refuse: these categories also fire at their own (lower) summed-probability threshold.
const HIGH_COST = ['suicidal_intent', 'self_harm'];

const encoder = sharedSentenceEncoder();
await encoder.warm();
const classes = semantic.SEMANTIC_CLASSES;
const classIndex = new Map(classes.map((c, i) => [c, i]));

// --cache FILE keeps vectors between runs while iterating (never committed).
const cacheArg = process.argv.indexOf('--cache');
const cachePath = cacheArg >= 0 ? process.argv[cacheArg + 1] : undefined;
const embedAll = cachedEmbedder(encoder, cachePath);

// The segment vectors of a case, exactly as the screen builds them (planConversation + segmentVectors).
async function caseSegments(c) {
  const plan = semantic.planConversation(c.text, c.context ?? []);
  const vectors = await embedAll(plan.texts);
  const segVecs = semantic.segmentVectors(plan, vectors, 512);
  return plan.segments.map((s, i) => ({
    kind: s.kind,
    resolved: s.resolved === true,
    asksNow: s.asksNow === true,
    vector: segVecs[i],
  }));
}

// Training rows: every message-level segment of every case (the message, and its join with earlier turns);
// the sentences of a non-emergency are non-emergencies too (a sentence alone must not fire where its message
// would not).
async function rowsOf(cases) {
  const rows = [];
  for (const c of cases) {
    for (const s of await caseSegments(c)) {
      if (s.kind === 'message' || c.label === null)
        rows.push({ vector: s.vector, y: classIndex.get(c.label ?? 'none') });
    }
  }
  return rows;
}

async function train(rows) {
  const X = rows.map((r) => r.vector);
  const D = X[0].length;
  const K = classes.length;
  const W = Array.from({ length: K }, () => new Float64Array(D));
  const b = new Float64Array(K);
  const mW = Array.from({ length: K }, () => new Float64Array(D));
  const vW = Array.from({ length: K }, () => new Float64Array(D));
  const mb = new Float64Array(K);
  const vb = new Float64Array(K);
  const weightOf = (y) => (y === K - 1 ? NONE_WEIGHT : EMERGENCY_WEIGHT);
  const totalWeight = rows.reduce((a, r) => a + weightOf(r.y), 0);
  const scores = new Float64Array(K);
  for (let t = 1; t <= EPOCHS; t++) {
    const gW = Array.from({ length: K }, () => new Float64Array(D));
    const gb = new Float64Array(K);
    for (let n = 0; n < rows.length; n++) {
      const x = X[n];
      for (let k = 0; k < K; k++) {
        let s = b[k];
        const w = W[k];
        for (let i = 0; i < D; i++) s += w[i] * x[i];
        scores[k] = s;
      }
      const max = Math.max(...scores);
      let sum = 0;
      for (let k = 0; k < K; k++) sum += scores[k] = Math.exp(scores[k] - max);
      const wt = weightOf(rows[n].y) / totalWeight;
      for (let k = 0; k < K; k++) {
        const g = wt * (scores[k] / sum - (k === rows[n].y ? 1 : 0));
        gb[k] += g;
        const gw = gW[k];
        for (let i = 0; i < D; i++) gw[i] += g * x[i];
      }
    }
    for (let k = 0; k < K; k++) {
      for (let i = 0; i < D; i++) {
        const g = gW[k][i] + L2 * W[k][i];
        mW[k][i] = 0.9 * mW[k][i] + 0.1 * g;
        vW[k][i] = 0.999 * vW[k][i] + 0.001 * g * g;
        W[k][i] -= (RATE * (mW[k][i] / (1 - 0.9 ** t))) / (Math.sqrt(vW[k][i] / (1 - 0.999 ** t)) + 1e-8);
      }
      mb[k] = 0.9 * mb[k] + 0.1 * gb[k];
      vb[k] = 0.999 * vb[k] + 0.001 * gb[k] * gb[k];
      b[k] -= (RATE * (mb[k] / (1 - 0.9 ** t))) / (Math.sqrt(vb[k] / (1 - 0.999 ** t)) + 1e-8);
    }
  }
  const round = (x) => Math.round(x * 1e5) / 1e5;
  // Exemplars for the neighbour vote: the training vectors, int8 with one scale per vector.
  const scales = X.map((x) => Math.max(...Array.from(x, Math.abs)) / 127 || 1);
  const bytes = new Int8Array(X.length * D);
  const exemplars = new Float32Array(X.length * D);
  X.forEach((x, n) => {
    for (let i = 0; i < D; i++) {
      bytes[n * D + i] = Math.round(x[i] / scales[n]);
      exemplars[n * D + i] = bytes[n * D + i] * scales[n];
    }
  });
  return {
    dimension: D,
    classes: [...classes],
    weights: W.map((w) => [...w].map(round)),
    bias: [...b].map(round),
    messageThreshold: 0.5,
    sentenceThreshold: 0.5,
    vetoBelow: 0,
    knn: { k: KNN_K, temperature: KNN_TEMPERATURE },
    exemplarClasses: rows.map((r) => r.y),
    exemplarScales: scales,
    exemplars,
    bytes,
    trainedOn: trainedOnHash(),
    embedder: encoder.model,
  };
}

// The blind development sets are used two ways: FOLDS-fold cross-validation (each fold scored by a model trained
// without it) picks the thresholds and gives an honest estimate; the shipped model is then trained on all of it.
const base = TRAIN_FILES.filter((f) => !CV_FILES.includes(f) && f !== HELD_OUT).flatMap((f) =>
  safety.loadLabelledFile(f),
);
const everyday = everydayMessages().map((text) => ({ text, label: null }));
const ordinary = safety.loadLabelledFile(safety.ORDINARY_FILE);
const dev = CV_FILES.flatMap((f) => safety.loadLabelledFile(f).map((c) => ({ ...c, file: f })));
// Embed every text once, up front (one cache write).
await embedAll(
  [...base, ...dev, ...(HELD_OUT ? safety.loadLabelledFile(HELD_OUT) : []), ...everyday, ...ordinary].flatMap(
    (c) => semantic.planConversation(c.text, c.context ?? []).texts,
  ),
);
const fold = (i) => i % FOLDS;
const devProbs = new Array(dev.length);
for (let f = 0; f < FOLDS; f++) {
  const model = await train(await rowsOf([...base, ...dev.filter((_, i) => fold(i) !== f)]));
  const held = dev.map((c, i) => [c, i]).filter(([, i]) => fold(i) === f);
  for (const [c, i] of held) devProbs[i] = await segmentScores(model, c);
  console.log(`fold ${f + 1}/${FOLDS} trained`);
}
// A rule hit on a firm cue (no breathing, an overdose amount) cannot be vetoed (ADR 0419): 'firm', 'soft' or null.
// As the screen reads them: a conversation about an animal alone is answered (ADR 0428) and is scored as a firm
// 'none' below; a resolved follow-up's rules read the latest message alone (ADR 0428).
const ruleOf = (c) => {
  if (safety.aboutAnimalOnly(c.text, c.context ?? [])) return 'animal';
  const resolved = semantic.planConversation(c.text, c.context ?? []).segments.some((s) => s.resolved);
  const r = safety.detectRedFlagRule(c.text, resolved ? [] : c.context);
  return r ? (r.firm ? 'firm' : 'soft') : null;
};
const rules = dev.map(ruleOf);
const model = await train(await rowsOf([...base, ...dev]));
// Messages outside training, scored by the model trained on everything: per case, its summary and rule verdict.
async function scoredByModel(cases) {
  const out = [];
  for (const c of cases) {
    out.push({
      rule: ruleOf(c),
      summary: summarise(await segmentScores(model, c)),
    });
  }
  return out;
}
const everydayScored = await scoredByModel(everyday);
const ordinaryScored = await scoredByModel(ordinary);
// Two operating points: the best recall within MAX_DEV_FPR (shipped) and within TARGET_FPR (printed).
let best = null;
let bestAtTarget = null;
const grid = [];
for (let t = 0.05; t <= 0.991; t += 0.025) grid.push(Math.round(t * 1000) / 1000);
const emergencies = dev.filter((c) => c.label !== null).length;
const negatives = dev.length - emergencies;
const summary = devProbs.map(summarise);
const fires = (r, x, rule) =>
  rule !== 'animal' &&
  (x.message >= r.mt ||
    x.sentence >= r.st ||
    x.risk >= r.ht ||
    rule === 'firm' ||
    (rule !== null && x.all >= r.veto));
const firedAt = (r, i) => fires(r, summary[i], rules[i]);
const everydayRate = (r) =>
  everydayScored.filter((x) => fires(r, x.summary, x.rule)).length / everyday.length;
const answersOrdinary = (r) => ordinaryScored.every((x) => !fires(r, x.summary, x.rule));
// Cross-validated recall and false-positive rate of operating point `r`, written onto it.
function scorePoint(r) {
  let tp = 0;
  let fp = 0;
  for (let i = 0; i < dev.length; i++) {
    if (!firedAt(r, i)) continue;
    if (dev[i].label !== null) tp++;
    else fp++;
  }
  r.recall = tp / emergencies;
  r.fpr = fp / negatives;
  return r;
}
// RF_FIXED=veto,message,sentence,highCost pins the operating point (an experiment that retrains the weights only).
const FIXED = process.env.RF_FIXED?.split(',').map(Number);
if (FIXED) {
  const [veto, mt, st, ht] = FIXED;
  best = scorePoint({ veto, mt, st, ht });
  best.everyday = everydayRate(best);
}
for (const veto of FIXED ? [] : [0, 0.1, 0.2, 0.3, 0.4, 0.5]) {
  for (const mt of grid) {
    for (const st of [...grid, 1.01]) {
      if (st < mt) continue;
      for (const ht of [...grid.filter((t) => t <= mt), 1.01]) {
        const r = scorePoint({ veto, mt, st, ht });
        const better = (than) =>
          !than || r.recall > than.recall || (r.recall === than.recall && r.fpr < than.fpr);
        const inBudget = (max) =>
          r.fpr <= max && (r.everyday ??= everydayRate(r)) <= EVERYDAY_MAX && answersOrdinary(r);
        if (better(best) && inBudget(MAX_DEV_FPR)) best = { ...r };
        if (better(bestAtTarget) && inBudget(TARGET_FPR)) bestAtTarget = { ...r };
      }
    }
  }
}
if (process.env.DUMP)
  writeFileSync(
    process.env.DUMP,
    JSON.stringify({ devProbs, rules, dev: dev.map((c) => ({ label: c.label, file: c.file })) }),
  );
console.log(`best recall with FP <= ${TARGET_FPR} (not shipped):`, bestAtTarget);
if (bestAtTarget) printCrossValidated(bestAtTarget);
console.log(`shipped: best recall with FP <= ${MAX_DEV_FPR}:`, best);
if (!best)
  throw new Error(
    `no thresholds keep the cross-validated false-positive rate within ${MAX_DEV_FPR} and everyday refusals within ${EVERYDAY_MAX}`,
  );
printCrossValidated(best);
model.messageThreshold = best.mt;
model.sentenceThreshold = best.st;
model.vetoBelow = best.veto;
if (best.ht <= 1) model.highCost = { classes: HIGH_COST, threshold: best.ht };
if (HELD_OUT) {
  await scoreHeldOut(model, HELD_OUT);
  process.exit(0);
}
if (process.env.RF_CANDIDATE) {
  // A candidate for everyday.mjs --model: written beside, never over, the shipped model.
  writeModel(process.env.RF_CANDIDATE, process.env.RF_CANDIDATE.replace(/\.json$/, '.bin'));
  process.exit(0);
}
writeModel(
  resolve(svc, 'data/red-flags/semantic-model.json'),
  resolve(svc, 'data/red-flags/semantic-exemplars.bin'),
);

// The model as JSON (without its vectors) and its int8 exemplars beside it.
function writeModel(jsonPath, binPath) {
  const { exemplars: _vectors, bytes, ...shipped } = model;
  writeFileSync(jsonPath, `${JSON.stringify(shipped)}\n`);
  writeFileSync(binPath, Buffer.from(bytes.buffer));
  console.log(`wrote ${jsonPath}`);
}

// Per file and category: the cross-validated refusal rate of the chosen thresholds.
function printCrossValidated(choice) {
  const fired = dev.map((_, i) => firedAt(choice, i));
  for (const file of CV_FILES) {
    const idx = dev.map((c, i) => i).filter((i) => dev[i].file === file);
    const line = [];
    for (const cat of [...safety.RED_FLAG_CATEGORIES, null]) {
      const of = idx.filter((i) => dev[i].label === cat);
      if (of.length)
        line.push(
          `${cat ?? 'FP'} ${(of.filter((i) => fired[i]).length / of.length).toFixed(2)}/${of.length}`,
        );
    }
    const em = idx.filter((i) => dev[i].label !== null);
    console.log(
      `cross-validated ${file}: recall ${(em.filter((i) => fired[i]).length / em.length).toFixed(3)} | ${line.join(' | ')}`,
    );
  }
}

// The trained model with the chosen thresholds on a file it never saw (rules + semantic, as the screen runs).
async function scoreHeldOut(model, file) {
  const cases = safety.loadLabelledFile(file);
  const fired = [];
  for (const c of cases) {
    const segs = await caseSegments(c);
    const { verdict, highest } = semantic.scoreSegments(
      model,
      segs,
      segs.map((s) => s.vector),
    );
    const rule = ruleOf(c);
    fired.push(
      rule !== 'animal' &&
        (verdict !== null || rule === 'firm' || (rule !== null && highest >= model.vetoBelow)),
    );
  }
  const line = [];
  for (const cat of [...safety.RED_FLAG_CATEGORIES, null]) {
    const of = cases.map((c, i) => i).filter((i) => cases[i].label === cat);
    if (of.length)
      line.push(`${cat ?? 'FP'} ${(of.filter((i) => fired[i]).length / of.length).toFixed(2)}/${of.length}`);
  }
  const em = cases.map((c, i) => i).filter((i) => cases[i].label !== null);
  const tp = em.filter((i) => fired[i]).length;
  const neg = cases.length - em.length;
  const fp = cases.filter((c, i) => c.label === null && fired[i]).length;
  console.log(
    `held out ${file}: recall ${(tp / em.length).toFixed(3)} (${tp}/${em.length}), FP ${fp}/${neg} | ${line.join(' | ')}`,
  );
}

// Per segment of a case, scored by `m`: its kind, emergency probability and high-cost (suicide, self-harm) risk.
async function segmentScores(m, c) {
  const segs = await caseSegments(c);
  const probs = semantic.classProbabilities(
    m,
    segs.map((s) => s.vector),
  );
  return segs.map((s, j) => ({
    kind: s.kind,
    resolved: s.resolved,
    asksNow: s.asksNow,
    emergency: 1 - probs[j].at(-1),
    risk: HIGH_COST.reduce((a, h) => a + probs[j][classIndex.get(h)], 0),
  }));
}

// Per case, the highest score of each kind, so a grid point is one comparison per case. A resolved segment
// (ADR 0418, 0428) refuses only through the suicidal-intent / self-harm risk, and a sentence of a message that asks
// what to do now (ADR 0426) is held to the message threshold, as in scoreSegments.
function summarise(probs) {
  const atMessageThreshold = (p) =>
    !p.resolved && (p.kind === 'message' || (p.kind === 'sentence' && p.asksNow));
  return {
    message: Math.max(0, ...probs.filter(atMessageThreshold).map((p) => p.emergency)),
    sentence: Math.max(
      0,
      ...probs.filter((p) => p.kind === 'sentence' && !p.resolved).map((p) => p.emergency),
    ),
    risk: Math.max(0, ...probs.map((p) => p.risk)),
    all: Math.max(0, ...probs.map((p) => p.emergency)),
  };
}

function trainedOnHash() {
  const h = createHash('sha256');
  for (const f of TRAIN_FILES) h.update(readFileSync(resolve(svc, 'data/red-flags', f)));
  return h.digest('hex');
}
