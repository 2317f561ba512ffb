// The everyday messages of the red-flag bench (ADR 0412, 0413, 0414): not emergencies by construction. The
// catalog's example requests (the `examples` of workspace/agents/*/AGENT.md), the routing own-examples
// (bench/routing/own-examples.jsonl) and the consumer development questions (bench/grounding/consumer-dev.jsonl).
// Shared by everyday.mjs (the refusal rate) and train-semantic.mjs (the operating point may not refuse more of
// them than the cap). Never reads a red-flag blind set.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const svc = resolve(here, '../../services/care-consult');

/** The objects of a JSON Lines file (blank lines skipped). */
export const jsonl = (p) =>
  readFileSync(p, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

/** The 560 everyday messages, in a stable order. */
export function everydayMessages() {
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
  texts.push(...jsonl(resolve(here, '../routing/own-examples.jsonl')).map((c) => c.text));
  texts.push(...jsonl(resolve(here, '../grounding/consumer-dev.jsonl')).map((c) => c.question));
  return texts;
}
