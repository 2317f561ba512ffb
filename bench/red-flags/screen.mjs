// The two-stage emergency screen (rules + semantic classifier) on the blind sets, next to the rules alone and a
// one-regex keyword baseline scored in the same run: per-category refusal recall, overall recall and
// false-positive rate, then per-message screening latency (p50/p99, wall and CPU) with the semantic stage.
// Run after building care-consult:
//   node bench/red-flags/screen.mjs                 # blind-dev.jsonl (the dev set)
//   node bench/red-flags/screen.mjs --final         # ALSO blind-final.jsonl: run exactly once, when the code is final
// Targets: recall >= 0.99 overall and >= 0.97 per category, FP rate <= 0.02, p99 < 15 ms per message.
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const safety = require(resolve(here, '../../services/care-consult/dist/safety/index.js'));

const KEYWORDS =
  /stroke|heart attack|chest pain|breathe|anaphyla|bleeding|suicid|kill myself|overdose|pills|sepsis|meningitis|seizure|pregnant|unconscious|not breathing/i;
const keyword = (text) => KEYWORDS.test(text);

const screen = new safety.RedFlagScreen();
await screen.ready;

const files = ['blind-dev.jsonl'];
if (process.argv.includes('--final')) files.push('blind-final.jsonl');

const pct = (x) => `${(x * 100).toFixed(1)}%`;
const latencies = [];
const cpu = [];
for (const file of files) {
  const cases = safety.loadLabelledFile(file);
  const rows = [];
  for (const c of cases) {
    const cpuStart = process.cpuUsage();
    const start = process.hrtime.bigint();
    const hit = await screen.screen(c.text, c.context ?? []);
    latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
    const used = process.cpuUsage(cpuStart);
    cpu.push((used.user + used.system) / 1e3);
    rows.push({ c, screen: hit, rules: safety.detectRedFlag(c.text, c.context), keyword: keyword(c.text) });
  }
  const emergencies = rows.filter((r) => r.c.label !== null);
  const negatives = rows.filter((r) => r.c.label === null);
  const recall = (list, key) => (list.length ? list.filter((r) => Boolean(r[key])).length / list.length : 1);
  const exact = (list) => (list.length ? list.filter((r) => r.screen?.category === r.c.label).length / list.length : 1);
  console.log(`\n${file}: ${cases.length} messages (${emergencies.length} emergencies, ${negatives.length} non-emergencies)`);
  console.log('| category | n | screen recall (refused) | screen exact category | rules only | keyword baseline | target >= 97% |');
  console.log('|---|---:|---:|---:|---:|---:|---|');
  for (const category of safety.RED_FLAG_CATEGORIES) {
    const list = emergencies.filter((r) => r.c.label === category);
    if (list.length === 0) continue;
    const r = recall(list, 'screen');
    console.log(`| ${category} | ${list.length} | ${pct(r)} | ${pct(exact(list))} | ${pct(recall(list, 'rules'))} | ${pct(recall(list, 'keyword'))} | ${r >= 0.97 ? 'met' : 'NOT met'} |`);
  }
  const r = recall(emergencies, 'screen');
  console.log(`| ALL EMERGENCIES | ${emergencies.length} | ${pct(r)} | ${pct(exact(emergencies))} | ${pct(recall(emergencies, 'rules'))} | ${pct(recall(emergencies, 'keyword'))} | ${r >= 0.99 ? 'met (>= 99%)' : 'NOT met (>= 99%)'} |`);
  const fpr = recall(negatives, 'screen');
  console.log(`| FALSE-POSITIVE RATE | ${negatives.length} | ${pct(fpr)} | | ${pct(recall(negatives, 'rules'))} | ${pct(recall(negatives, 'keyword'))} | ${fpr <= 0.02 ? 'met (<= 2%)' : 'NOT met (<= 2%)'} |`);
  if (file === 'blind-dev.jsonl') {
    const wrong = rows.filter((x) => Boolean(x.screen) !== (x.c.label !== null));
    for (const w of wrong) console.log(`  ${String(w.c.label).padEnd(20)} -> ${String(w.screen?.category ?? null).padEnd(20)} ${w.c.text.slice(0, 120)}`);
  }
}

// Latency of the keyword baseline over the same messages, same run.
const all = files.flatMap((f) => safety.loadLabelledFile(f));
const base = [];
for (const c of all) {
  const start = process.hrtime.bigint();
  keyword(c.text);
  base.push(Number(process.hrtime.bigint() - start) / 1e6);
}
const q = (list, p) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(p * list.length))];
console.log(`\nlatency per message over ${latencies.length} messages; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log('| stage | p50 ms | p99 ms | max ms | target p99 < 15 ms |');
console.log('|---|---:|---:|---:|---|');
console.log(`| screen (rules + semantic), wall | ${q(latencies, 0.5).toFixed(2)} | ${q(latencies, 0.99).toFixed(2)} | ${Math.max(...latencies).toFixed(2)} | ${q(latencies, 0.99) < 15 ? 'met' : 'NOT met'} |`);
console.log(`| screen (rules + semantic), CPU of this process | ${q(cpu, 0.5).toFixed(2)} | ${q(cpu, 0.99).toFixed(2)} | ${Math.max(...cpu).toFixed(2)} | ${q(cpu, 0.99) < 15 ? 'met' : 'NOT met'} |`);
console.log(`| keyword baseline, wall | ${q(base, 0.5).toFixed(4)} | ${q(base, 0.99).toFixed(4)} | ${Math.max(...base).toFixed(4)} | |`);
