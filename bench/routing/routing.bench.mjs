#!/usr/bin/env node
// Routing quality and time: the meaning-based router (src/chat/agent-router.ts, ADR 0415) against the router it
// replaced (legacy-router.mjs), in the same run, over the shipped workspace and a labelled routing set.
// Prints accuracy per topic (a route is right when the chosen agent is one of the message's acceptable agents)
// and p50/p99 routing time per message (new router: embedding of the message included, cache cleared).
//
//   pnpm --filter @care/care-consult build && node bench/routing/routing.bench.mjs [--set dev|spent|spent2|spent3|own|final] [--misses] [--no-learned]
//
// --set dev (default): services/care-consult/data/routing/blind-dev.jsonl, tuning allowed.
// --set spent: data/routing/blind1-spent.jsonl, the first final set; reported once (ADR 0415), now a development set.
// --set own: bench/routing/own-examples.jsonl, written for this work (not from any blind set).
// --set spent2: data/routing/blind2-spent.jsonl, the second final set; reported once (ADR 0416), now a development set.
// --set spent3: data/routing/blind3-spent.jsonl, the third final set; reported once (ADR 0417), now a development set.
// --set spent4: data/routing/blind4-spent.jsonl, the fourth final set; reported once (ADR 0433), now a development set.
// --set final: the frozen data/routing/blind5-final.jsonl (ADR 0433's next set). Run it ONCE, when the router is
// final; never with --misses.
// --no-learned: the router without its learned share (ADR 0417), to compare accuracy and time in like conditions.
// The learned share is trained on dev, spent, spent2, spent3, own and the training-only generated set
// (train-router.mjs, ADR 0433): on those its accuracy is in-sample.
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { legacyRouteToAgent } from './legacy-router.mjs';
import { SET_FILES, dist, serviceRequire, shippedCatalog, silentLogger } from './shipped.mjs';

const { AgentRouter, agentProfileTexts } = dist('chat/agent-router.js');
const { tokenize } = dist('providers/builtin/retrieval.js');
const { SentenceEncoder, sharedSentenceEncoder } = serviceRequire('@care/sentence-encoder');

const arg = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const setName = arg('set') ?? 'dev';
const showMisses = process.argv.includes('--misses');
// Router settings: the shipped ones, or without the learned share.
const settings = process.argv.includes('--no-learned') ? { model: null } : {};
const ROUNDS = Number(arg('rounds') ?? 3);
const files = SET_FILES;
if (!files[setName]) throw new Error(`unknown set ${setName}`);
if (setName === 'final' && showMisses) throw new Error('the final set is scored only: no --misses');
if (!existsSync(files[setName])) {
  console.error(
    `${path.relative(process.cwd(), files[setName])} is not there yet: the frozen final set is added by the lead, written blind.`,
  );
  process.exit(2);
}
// Agents merged or renamed since a set was written: a label naming the old id is met by the agent that took it over.
const ALIASES = {};
const current = (id) => ALIASES[id] ?? id;
const cases = readFileSync(files[setName], 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l))
  .map((c) => ({ ...c, best: c.acceptable[0], acceptable: [...new Set(c.acceptable.map(current))] }));

// Topics, by the best acceptable agent (the table used children, maternity, symptoms, caregiving, medications).
const TOPICS = [
  ['children', ['child-health-educator', 'pediatric-symptom-guide']],
  [
    'maternity',
    ['prenatal-educator', 'postpartum-educator', 'maternal-care-guide', 'pregnancy-loss-support'],
  ],
  ['symptoms', ['symptom-triage', 'after-hours-triage']],
  ['caregiving', ['caregiver-educator', 'caregiver-support-companion', 'care-transitions-guide']],
  [
    'medications',
    [
      'medication-adherence-coach',
      'medication-interaction-checker',
      'medication-literacy-educator',
      'pharmacy-access-navigator',
    ],
  ],
  ['sleep', ['sleep-coach', 'shift-work-sleep-advisor']],
  [
    'mental health',
    [
      'anxiety-support-guide',
      'low-mood-support',
      'behavioural-activation-coach',
      'grief-companion',
      'cbt-coach',
      'thought-record-guide',
      'mindfulness-guide',
      'mindfulness-based-coping-guide',
      'crisis-support-navigator',
      'stress-resilience-coach',
      'workplace-wellbeing-coach',
    ],
  ],
  [
    'insurance & access',
    [
      'prior-authorization-guide',
      'insurance-benefits-guide',
      'claims-appeals-helper',
      'appointment-assistant',
      'visit-preparation-coach',
      'referral-navigator',
      'medical-records-assistant',
      'care-coordinator',
    ],
  ],
  [
    'conditions & results',
    [
      'lab-results-explainer',
      'health-literacy-guide',
      'diabetes-care-guide',
      'diabetes-educator',
      'hypertension-educator',
      'heart-disease-educator',
      'cardiology-guide',
      'asthma-educator',
      'respiratory-guide',
    ],
  ],
  [
    'healthy living',
    [
      'activity-coach',
      'active-aging-coach',
      'nutrition-guide',
      'healthy-habits-coach',
      'heart-healthy-eating-coach',
    ],
  ],
];
const topicOf = (c) => TOPICS.find(([, ids]) => ids.includes(c.best))?.[0] ?? 'other';

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

const logger = silentLogger('bench');
const catalog = await shippedCatalog(logger);
const known = new Set(catalog.activeAgents().map((a) => a.id));
const unknown = [...new Set(cases.flatMap((c) => c.acceptable))].filter((id) => !known.has(id));
if (unknown.length) console.log(`note: acceptable ids not in the catalog: ${unknown.join(', ')}`);

const t0 = performance.now();
const router = new AgentRouter(catalog, sharedSentenceEncoder(), logger, settings);
await router.ready();
const readyMs = performance.now() - t0;

const legacy = (text, allow) => legacyRouteToAgent(catalog, tokenize, text, allow);
const fresh = (text, allow) => router.route([text], allow);
// Timed first turns must pay for the encoder: the shared encoder remembers its last 1,024 texts (every message of
// the accuracy runs), so the timed router sends messages to an encoder without that cache and agent texts to the
// shared one (already embedded, nothing to time there).
const profileTexts = new Set(catalog.activeAgents().flatMap((a) => agentProfileTexts(a)));
const uncached = new SentenceEncoder({ cacheSize: 0 });
const timedRouter = new AgentRouter(
  catalog,
  {
    model: uncached.model, // the same vector space: the learned share applies as in the accuracy runs
    embed: (texts) =>
      (texts.every((t) => profileTexts.has(t)) ? sharedSentenceEncoder() : uncached).embed(texts),
  },
  logger,
  settings,
);
await timedRouter.ready();
await uncached.warm();
const learnedOn = async (r) => (await r.scores(['a question about my care']))?.learned !== undefined;
if ((await learnedOn(router)) !== (await learnedOn(timedRouter)))
  throw new Error('the timed router and the scored router differ in their learned share');

async function evaluate(allowClinical) {
  const rows = [];
  for (const c of cases) {
    const old = legacy(c.text, allowClinical);
    const now = await fresh(c.text, allowClinical);
    rows.push({
      c,
      topic: topicOf(c),
      old: old.agent.id,
      now: now.agent.id,
      via: now.via,
      conf: now.confidence,
    });
  }
  return rows;
}

async function timing() {
  const oldT = [];
  const newT = [];
  const newCpu = [];
  for (let r = 0; r < ROUNDS; r++) {
    globalThis.gc?.();
    for (const c of cases) {
      let s = performance.now();
      legacy(c.text, false);
      oldT.push(performance.now() - s);
      timedRouter.clearMessageCache();
      const cpu = process.cpuUsage();
      s = performance.now();
      await timedRouter.route([c.text], false);
      newT.push(performance.now() - s);
      const used = process.cpuUsage(cpu);
      newCpu.push((used.user + used.system) / 1000);
    }
  }
  const cached = [];
  for (const c of cases) await fresh(c.text, false); // every message's vector is remembered by now
  for (const c of cases) {
    const s = performance.now();
    await fresh(c.text, false);
    cached.push(performance.now() - s);
  }
  for (const t of [oldT, newT, cached, newCpu]) t.sort((a, b) => a - b);
  return { oldT, newT, cached, newCpu };
}

const rows = await evaluate(false);
const rowsClinical = await evaluate(true);
const ok = (r, key) => r.c.acceptable.includes(r[key]);
const acc = (list, key) => list.filter((r) => ok(r, key)).length;

console.log(
  `\n### Routing: ${setName} set (${cases.length} messages), shipped workspace (${known.size} active agents)${settings.model === null ? ', without the learned share' : ''}\n`,
);
console.log(
  `Router ready (model load + ${router.profileTextCount} agent texts embedded) in ${(readyMs / 1000).toFixed(1)} s; semantic: ${router.semantic}; learned share: ${(await learnedOn(router)) ? 'on' : 'off'}.\n`,
);
console.log('| topic | messages | old router | new router |');
console.log('|---|---:|---:|---:|');
const topics = [...TOPICS.map(([t]) => t), 'other'].filter((t) => rows.some((r) => r.topic === t));
for (const t of topics) {
  const list = rows.filter((r) => r.topic === t);
  console.log(
    `| ${t} | ${list.length} | ${acc(list, 'old')}/${list.length} (${(acc(list, 'old') / list.length).toFixed(2)}) | ${acc(list, 'now')}/${list.length} (${(acc(list, 'now') / list.length).toFixed(2)}) |`,
  );
}
const all = (list, key) =>
  `${acc(list, key)}/${list.length} (**${(acc(list, key) / list.length).toFixed(3)}**)`;
console.log(
  `| **all** (allow_clinical off, the default) | ${rows.length} | ${all(rows, 'old')} | ${all(rows, 'now')} |`,
);
console.log(
  `| all, allow_clinical on | ${rowsClinical.length} | ${all(rowsClinical, 'old')} | ${all(rowsClinical, 'now')} |`,
);
const fallbacks = rows.filter((r) => r.via === 'fallback');
console.log(
  `\nNew router below the floor (generalist + clarifying question): ${fallbacks.length} of ${rows.length}; of those the generalist was acceptable for ${acc(fallbacks, 'now')}.`,
);

const { oldT, newT, cached, newCpu } = await timing();
const f = (x) => x.toFixed(3);
console.log(`\n| routing time per message (${ROUNDS} rounds x ${cases.length}) | p50 ms | p99 ms | max ms |`);
console.log('|---|---:|---:|---:|');
console.log(
  `| old router (catalog search + clinical swap) | ${f(pct(oldT, 50))} | ${f(pct(oldT, 99))} | ${f(oldT.at(-1))} |`,
);
console.log(
  `| new router, message embedded (no cached vector) | ${f(pct(newT, 50))} | ${f(pct(newT, 99))} | ${f(newT.at(-1))} |`,
);
console.log(
  `| new router, message embedded: CPU time of this process (less exposed to other load) | ${f(pct(newCpu, 50))} | ${f(pct(newCpu, 99))} | ${f(newCpu.at(-1))} |`,
);
console.log(
  `| new router, message vector cached (a later turn, or the red-flag screen embedded it first) | ${f(pct(cached, 50))} | ${f(pct(cached, 99))} | ${f(cached.at(-1))} |`,
);
console.log(
  `\nLoad average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(
      ' ',
    )} on ${os.cpus().length} CPUs. Ratio new/old p99: ${(pct(newT, 99) / pct(oldT, 99)).toFixed(1)}x.`,
);
console.log(
  `Targets: accuracy >= 0.92: ${acc(rows, 'now') / rows.length >= 0.92 ? 'met' : 'NOT met'}; p99 < 10 ms: ${pct(newT, 99) < 10 ? 'met' : 'NOT met'}.`,
);

if (showMisses) {
  console.log('\nMisrouted by the new router:');
  for (const r of rows.filter((x) => !ok(x, 'now')))
    console.log(
      `  ${r.now.padEnd(30)} ${r.via === 'fallback' ? '(fallback) ' : ''}${r.conf.toFixed(3)} want ${r.c.acceptable.join('|')}  ${r.c.text.slice(0, 90)}`,
    );
}
