// The two-stage emergency screen (rules + semantic classifier) on the development sets, next to the rules alone and
// a one-regex keyword baseline scored in the same run: per-category refusal recall, overall recall and
// false-positive rate, then per-message screening latency (p50/p99, wall and CPU) with the semantic stage.
// Run after building care-consult:
//   node bench/red-flags/screen.mjs                   # blind-dev, blind1..9-spent, labelled, holdout, and the
//                                                     # ordinary questions of bench/grounding (false positives)
//   node bench/red-flags/screen.mjs --set blind-dev   # one development set (repeatable); --misses lists the errors
//   node bench/red-flags/screen.mjs --final           # ONLY blind10-final.jsonl: run exactly once, when the code is final
// Targets: recall >= 0.99 overall and >= 0.97 per category, FP rate <= 0.02, p99 < 15 ms per message.
// Latency: each case's earlier turns are screened first, untimed, as the chat did when they were the latest message
// (their vectors are then in the encoder's cache, as in a real conversation); the latest message is timed.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jsonl } from './everyday-set.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const safety = require(resolve(here, '../../services/care-consult/dist/safety/index.js'));

const KEYWORDS =
  /stroke|heart attack|chest pain|breathe|anaphyla|bleeding|suicid|kill myself|overdose|pills|sepsis|meningitis|seizure|pregnant|unconscious|not breathing/i;
const keyword = (text) => KEYWORDS.test(text);

const DEV_SETS = [
  'blind-dev.jsonl',
  'blind1-spent.jsonl',
  'blind2-spent.jsonl',
  'blind3-spent.jsonl',
  'blind4-spent.jsonl',
  'blind5-spent.jsonl',
  'blind6-spent.jsonl',
  'blind7-spent.jsonl',
  'blind8-spent.jsonl',
  'blind9-spent.jsonl',
  'labelled.jsonl',
  'holdout.jsonl',
];
const FINAL = 'blind10-final.jsonl';
const args = process.argv.slice(2);
const picked = args.flatMap((a, i) =>
  a === '--set' ? [`${args[i + 1].replace(/\.jsonl$/, '')}.jsonl`] : [],
);
let files = picked.length > 0 ? picked : DEV_SETS;
if (args.includes('--final')) {
  if (!existsSync(resolve(safety.RED_FLAG_DATA_DIR, FINAL))) {
    console.log(
      `${FINAL} is not in services/care-consult/data/red-flags yet (the lead adds it): nothing to score.`,
    );
    process.exit(0);
  }
  files = [FINAL];
}
const showMisses = args.includes('--misses') && !files.includes(FINAL);

const screen = new safety.RedFlagScreen();
await screen.ready;
// Warm the JIT and the encoder's kernels on text that is in none of the sets.
for (const t of [
  'hello there',
  'my knee hurts after a long run and a swim',
  'what should I cook tonight? something quick.',
]) {
  await screen.screen(t);
}

const pct = (x) => `${(x * 100).toFixed(1)}%`;
const latencies = [];
const cpu = [];
const base = [];
for (const file of files) {
  const cases = safety.loadLabelledFile(file);
  const rows = [];
  for (const c of cases) {
    const earlier = c.context ?? [];
    for (let i = 0; i < earlier.length; i++) await screen.screen(earlier[i], earlier.slice(0, i));
    const cpuStart = process.cpuUsage();
    const start = process.hrtime.bigint();
    const hit = await screen.screen(c.text, earlier);
    latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
    const used = process.cpuUsage(cpuStart);
    cpu.push((used.user + used.system) / 1e3);
    const kStart = process.hrtime.bigint();
    const kw = keyword(c.text);
    base.push(Number(process.hrtime.bigint() - kStart) / 1e6);
    rows.push({ c, screen: hit, rules: safety.detectRedFlag(c.text, earlier), keyword: kw });
  }
  const emergencies = rows.filter((r) => r.c.label !== null);
  const negatives = rows.filter((r) => r.c.label === null);
  const recall = (list, key) => (list.length ? list.filter((r) => Boolean(r[key])).length / list.length : 1);
  const exact = (list) =>
    list.length ? list.filter((r) => r.screen?.category === r.c.label).length / list.length : 1;
  console.log(
    `\n${file}: ${cases.length} messages (${emergencies.length} emergencies, ${negatives.length} non-emergencies)`,
  );
  console.log(
    '| category | n | screen recall (refused) | screen exact category | rules only | keyword baseline | target >= 97% |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---|');
  for (const category of safety.RED_FLAG_CATEGORIES) {
    const list = emergencies.filter((r) => r.c.label === category);
    if (list.length === 0) continue;
    const r = recall(list, 'screen');
    console.log(
      `| ${category} | ${list.length} | ${pct(r)} | ${pct(exact(list))} | ${pct(recall(list, 'rules'))} | ${pct(recall(list, 'keyword'))} | ${r >= 0.97 ? 'met' : 'NOT met'} |`,
    );
  }
  const r = recall(emergencies, 'screen');
  console.log(
    `| ALL EMERGENCIES | ${emergencies.length} | ${pct(r)} | ${pct(exact(emergencies))} | ${pct(recall(emergencies, 'rules'))} | ${pct(recall(emergencies, 'keyword'))} | ${r >= 0.99 ? 'met (>= 99%)' : 'NOT met (>= 99%)'} |`,
  );
  const fpr = recall(negatives, 'screen');
  console.log(
    `| FALSE-POSITIVE RATE | ${negatives.length} | ${pct(fpr)} | | ${pct(recall(negatives, 'rules'))} | ${pct(recall(negatives, 'keyword'))} | ${fpr <= 0.02 ? 'met (<= 2%)' : 'NOT met (<= 2%)'} |`,
  );
  if (showMisses) {
    const wrong = rows.filter((x) => Boolean(x.screen) !== (x.c.label !== null));
    for (const w of wrong)
      console.log(
        `  ${String(w.c.label).padEnd(20)} -> ${String(w.screen?.category ?? null).padEnd(20)} ${w.c.text.slice(-160)}`,
      );
  }
}

// Ordinary questions written for another bench (bench/grounding: consumer health questions about conditions, and
// questions the corpus does not answer), never trained on: every refusal is a false positive (ADR 0434).
const GROUNDING_SETS = ['consumer-spent2.jsonl', 'off-topic.jsonl', 'off-topic-2.jsonl'];
if (picked.length === 0 && !files.includes(FINAL)) {
  console.log('\nordinary questions from bench/grounding (not emergencies; never trained on): refused');
  console.log('| set | n | screen | rules only | keyword baseline | target <= 2% |');
  console.log('|---|---:|---:|---:|---:|---|');
  for (const file of GROUNDING_SETS) {
    const questions = jsonl(resolve(here, '../grounding', file)).map((q) => q.question);
    let screened = 0;
    let rules = 0;
    let keywords = 0;
    for (const text of questions) {
      const hit = await screen.screen(text);
      if (hit) screened++;
      if (safety.detectRedFlag(text)) rules++;
      if (keyword(text)) keywords++;
      if (hit && showMisses) console.log(`  null -> ${hit.category.padEnd(20)} ${text.slice(-160)}`);
    }
    const rate = screened / questions.length;
    console.log(
      `| ${file} | ${questions.length} | ${pct(rate)} (${screened}) | ${pct(rules / questions.length)} | ${pct(keywords / questions.length)} | ${rate <= 0.02 ? 'met' : 'NOT met'} |`,
    );
  }
}

const q = (list, p) =>
  [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(p * list.length))];
console.log(
  `\nlatency per message over ${latencies.length} messages; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
console.log('| stage | p50 ms | p99 ms | max ms | target p99 < 15 ms |');
console.log('|---|---:|---:|---:|---|');
console.log(
  `| screen (rules + semantic), wall | ${q(latencies, 0.5).toFixed(2)} | ${q(latencies, 0.99).toFixed(2)} | ${Math.max(...latencies).toFixed(2)} | ${q(latencies, 0.99) < 15 ? 'met' : 'NOT met'} |`,
);
console.log(
  `| screen (rules + semantic), CPU of this process | ${q(cpu, 0.5).toFixed(2)} | ${q(cpu, 0.99).toFixed(2)} | ${Math.max(...cpu).toFixed(2)} | ${q(cpu, 0.99) < 15 ? 'met' : 'NOT met'} |`,
);
console.log(
  `| keyword baseline, wall | ${q(base, 0.5).toFixed(4)} | ${q(base, 0.99).toFixed(4)} | ${Math.max(...base).toFixed(4)} | |`,
);
console.log(
  `| ratio screen / keyword at p50 (wall) | ${(q(latencies, 0.5) / Math.max(q(base, 0.5), 1e-6)).toFixed(0)}x | | | |`,
);
