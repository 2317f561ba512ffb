// Red-flag detector benchmark: quality tables for the labelled set and the held-out set, then throughput
// (messages/s) against a one-regex keyword baseline measured in the same run.
// Run after building care-consult:  pnpm --filter @care/care-consult run build && node bench/red-flags/quality.mjs
// Options: --rounds N (timed passes over each workload, default 5), --seconds S (minimum time per pass, default 1).
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const safety = require(resolve(here, '../../services/care-consult/dist/safety/index.js'));

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const ROUNDS = Math.max(1, Math.min(50, arg('rounds', 5)));
const MIN_SECONDS = Math.max(0.1, Math.min(30, arg('seconds', 1)));
const TARGET_MSGS_PER_SECOND = 50_000;

const labelled = safety.loadLabelledFile('labelled.jsonl');
const holdout = safety.loadLabelledFile('holdout.jsonl');

for (const [name, cases, note] of [
  ['labelled.jsonl', labelled, 'tuning set; targets recall >= 98%, FP rate <= 3%'],
  ['holdout.jsonl', holdout, 'written before tuning and never tuned against: honest generalisation'],
]) {
  const report = safety.scoreDetector(cases);
  console.log(`\n${safety.formatQualityTable(report, name)}\n(${note})`);
  const wrong = report.misses.map(
    (m) => `  ${String(m.label).padEnd(20)} -> ${String(m.predicted).padEnd(20)} ${m.text}`,
  );
  if (wrong.length > 0) console.log(`misclassified (${wrong.length}):\n${wrong.join('\n')}`);
}

// The baseline is what a naive keyword filter costs: one case-insensitive alternation, no context.
const KEYWORDS =
  /stroke|heart attack|chest pain|breathe|anaphyla|bleeding|suicid|kill myself|overdose|pills|sepsis|meningitis|seizure|pregnant|unconscious|not breathing/i;
const baseline = (text) => KEYWORDS.test(text);
const detector = (text, context) => safety.detectRedFlag(text, context);

// Wall-clock rate and rate per CPU-second of this process: on a shared machine the second one is the
// fairer figure, since wall time includes the time other processes held the cores.
function throughput(fn, cases) {
  let best = { wall: 0, cpu: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    let count = 0;
    let sink = 0;
    const cpuStart = process.cpuUsage();
    const start = process.hrtime.bigint();
    let elapsed = 0;
    while (elapsed < MIN_SECONDS) {
      for (const c of cases) if (fn(c.text, c.context)) sink++;
      count += cases.length;
      elapsed = Number(process.hrtime.bigint() - start) / 1e9;
    }
    const cpu = process.cpuUsage(cpuStart);
    if (sink < 0) console.log(sink);
    const rate = { wall: count / elapsed, cpu: count / ((cpu.user + cpu.system) / 1e6) };
    if (rate.wall > best.wall) best = rate;
  }
  return best;
}

const workloads = [
  ['labelled set (cue-dense)', labelled],
  ['non-emergencies only', labelled.filter((c) => c.label === null)],
  [
    'plain chat (no cue words)',
    ['can you suggest a sleep routine?', 'what foods are high in iron', 'thanks, that helps a lot!'].map(
      (text) => ({ text }),
    ),
  ],
];
throughput(detector, labelled); // warm-up: JIT and the typo cache
console.log(
  `\nthroughput: best of ${ROUNDS} passes of >= ${MIN_SECONDS}s each; load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
const fmt = (n) => Math.round(n).toLocaleString('en-US');
console.log(
  '| workload | detector msgs/s (wall) | detector msgs/CPU-s | keyword baseline msgs/s | detector / baseline | target > 50,000/s |',
);
console.log('|---|---:|---:|---:|---:|---|');
for (const [name, cases] of workloads) {
  const ours = throughput(detector, cases);
  const base = throughput(baseline, cases);
  const ok =
    ours.wall >= TARGET_MSGS_PER_SECOND
      ? 'met'
      : ours.cpu >= TARGET_MSGS_PER_SECOND
        ? 'met per CPU-s only'
        : 'NOT met';
  console.log(
    `| ${name} | ${fmt(ours.wall)} | ${fmt(ours.cpu)} | ${fmt(base.wall)} | ${(ours.wall / base.wall).toFixed(3)} | ${ok} |`,
  );
}
