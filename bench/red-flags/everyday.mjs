// Everyday false positives of the red-flag screen (ADR 0412, 0413): the 560 messages that are not emergency red
// flags by construction (everyday-set.mjs), screened one by one as the chat does. Prints the refusal rate and, with
// --list, the refused messages. Never reads a red-flag blind set.
//   pnpm --filter @care/care-consult build && node bench/red-flags/everyday.mjs [--model FILE] [--list]
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { everydayMessages } from './everyday-set.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const svc = resolve(here, '../../services/care-consult');
const safety = require(resolve(svc, 'dist/safety/index.js'));

const modelArg = process.argv.indexOf('--model');
const model = safety.loadSemanticModel(modelArg >= 0 ? resolve(process.argv[modelArg + 1]) : undefined);
const texts = everydayMessages();

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
