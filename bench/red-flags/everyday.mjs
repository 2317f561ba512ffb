// Everyday false positives of the red-flag screen (ADR 0412, 0413): the 560 messages that are not emergency red
// flags by construction — the catalog's example requests (workspace/agents/*/AGENT.md `examples`), the routing
// own-examples (bench/routing/own-examples.jsonl) and the consumer development questions
// (bench/grounding/consumer-dev.jsonl) — screened one by one as the chat does. Prints the refusal rate and, with
// --list, the refused messages. Never reads a red-flag blind set.
//   pnpm --filter @care/care-consult build && node bench/red-flags/everyday.mjs [--model FILE] [--list]
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const svc = resolve(here, '../../services/care-consult');
const safety = require(resolve(svc, 'dist/safety/index.js'));

const modelArg = process.argv.indexOf('--model');
const model = safety.loadSemanticModel(modelArg >= 0 ? resolve(process.argv[modelArg + 1]) : undefined);
const agents = resolve(svc, 'workspace/agents');
const texts = [];
for (const dir of readdirSync(agents).sort()) {
  let md;
  try {
    md = readFileSync(resolve(agents, dir, 'AGENT.md'), 'utf8');
  } catch {
    continue;
  }
  const front = md.split(/^---$/m)[1] ?? '';
  const block = front.split(/^examples:\s*$/m)[1];
  if (!block) continue;
  for (const line of block.split('\n').slice(1)) {
    const m = /^\s+-\s+(.*)$/.exec(line);
    if (!m) break;
    const raw = m[1].trim();
    texts.push(raw.startsWith('"') ? JSON.parse(raw) : raw.replace(/^'(.*)'$/, '$1').replace(/''/g, "'"));
  }
}
const jsonl = (p) =>
  readFileSync(p, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
texts.push(...jsonl(resolve(here, '../routing/own-examples.jsonl')).map((c) => c.text));
texts.push(...jsonl(resolve(here, '../grounding/consumer-dev.jsonl')).map((c) => c.question));

const screen = new safety.RedFlagScreen({ model });
await screen.ready;
const refused = [];
for (const t of texts) {
  const hit = await screen.screen(t);
  if (hit)
    refused.push(`${hit.category} ${hit.matched.startsWith('semantic') ? hit.matched : 'rules'} | ${t}`);
}
console.log(
  `everyday: ${refused.length}/${texts.length} refused (${((100 * refused.length) / texts.length).toFixed(1)}%)`,
);
if (process.argv.includes('--list')) for (const r of refused) console.log(`  ${r}`);
