#!/usr/bin/env node
// Splits a server CPU profile of the chat-streams bench (`BENCH_CPU_PROF=dir`) into the stages of a chat turn
// (ADR 0405): each sample goes to the stage of the frame nearest the leaf that belongs to one, so a socket write
// made by the SSE writer counts as the token path and a JSON.parse made by body-parser as the body. Samples with
// no stage frame are HTTP/Express, GC or idle. Prints ms per stream for chat and bare writer side by side.
// Usage: node bench/care-consult/cpu-stages.mjs <file.cpuprofile> [chat streams] [bare streams]
import fs from 'node:fs';

const [file, chatN = '1000', bareN = '1000'] = process.argv.slice(2);
if (!file) {
  console.error('usage: cpu-stages.mjs <file.cpuprofile> [chat streams] [bare streams]');
  process.exit(2);
}
const profile = JSON.parse(fs.readFileSync(file, 'utf8'));

// Ordered: the first stage whose pattern matches a frame's url or function name wins for that frame.
const STAGES = [
  ['bare writer', (f) => /chat-streams\.server\.mjs$/.test(f.url) && /^bare/.test(f.functionName)],
  ['bench harness', (f) => /chat-streams\.server\.mjs$/.test(f.url)],
  [
    'authentication',
    (f) =>
      /auth\.middleware|access-token-verifier|bearer-auth|jsonwebtoken|\/jws\/|\/jwa\/|buffer-equal|ecdsa-sig/.test(
        f.url,
      ),
  ],
  [
    'body parse',
    (f) => /body-parser|raw-body|iconv-lite|content-type|type-is|media-typer|\/bytes\//.test(f.url),
  ],
  [
    'validation',
    (f) => /service-kit\/dist\/validate|ajv|typebox|@care\/contracts|packages\/contracts/.test(f.url),
  ],
  ['red-flag screen', (f) => /\/safety\/|sentence-encoder|onnxruntime|transformers/.test(f.url)],
  ['routing', (f) => /agent-router|chat\/routing/.test(f.url)],
  ['retrieval', (f) => /builtin\/retrieval|chat\/grounding|memory\.client/.test(f.url)],
  [
    'lease/thread writes, audit',
    (f) =>
      /threads\/|drizzle-orm|\/pg\/|pg-protocol|pg-pool|pg-types|postgres-array|postgres-date|audit\/|packages\/db|@care\/db/.test(
        f.url,
      ),
  ],
  ['tools, catalog', (f) => /tools\/|catalog\/|skill-library|chat-catalog|catalog-adapter/.test(f.url)],
  [
    'token path',
    (f) =>
      /builtin\.provider|builtin\.answer|model-loop|sse-writer|chat-events|chat\.routes|chat-answer|suggestions|prompt/.test(
        f.url,
      ),
  ],
  ['chat service (prepare, record)', (f) => /chat\.service/.test(f.url)],
  ['logging, metrics', (f) => /pino|prom-client|metrics/.test(f.url)],
];
const GENERIC = [
  ['(garbage collector)', (f) => f.functionName === '(garbage collector)'],
  ['(idle)', (f) => f.functionName === '(idle)'],
  ['(program)', (f) => f.functionName === '(program)'],
  [
    'express, middleware',
    (f) => /express|router|finalhandler|cors|helmet|service-kit|on-finished|send\//.test(f.url),
  ],
  ['node http, net, streams', (f) => /^node:/.test(f.url)],
];

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const stageOf = new Map();
const classify = (id) => {
  if (stageOf.has(id)) return stageOf.get(id);
  let stage;
  for (let cur = id; cur !== undefined && !stage; cur = parent.get(cur)) {
    const f = byId.get(cur).callFrame;
    stage = STAGES.find(([, m]) => m(f))?.[0];
  }
  if (!stage) {
    const leaf = byId.get(id).callFrame;
    stage = GENERIC.find(([, m]) => m(leaf))?.[0];
    for (let cur = parent.get(id); cur !== undefined && !stage; cur = parent.get(cur))
      stage = GENERIC.find(([, m]) => m(byId.get(cur).callFrame))?.[0];
    stage ??= 'other';
  }
  stageOf.set(id, stage);
  return stage;
};

const ms = new Map();
const deltas = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) {
  const stage = classify(profile.samples[i]);
  const dt = (deltas[i + 1] ?? 0) / 1000;
  ms.set(stage, (ms.get(stage) ?? 0) + dt);
}
const total = [...ms].filter(([k]) => k !== '(idle)').reduce((a, [, v]) => a + v, 0);
console.log(
  `\n${file}: ${(total / 1000).toFixed(1)} s on the main thread (idle excluded); per stream over ${chatN} chat / ${bareN} bare streams\n`,
);
console.log('| stage | ms total | share | ms per chat stream |');
console.log('|---|---|---|---|');
for (const [stage, v] of [...ms].sort((a, b) => b[1] - a[1])) {
  if (stage === '(idle)') continue;
  const per =
    stage === 'bare writer'
      ? `${(v / Number(bareN)).toFixed(3)} (per bare stream)`
      : (v / Number(chatN)).toFixed(3);
  console.log(`| ${stage} | ${v.toFixed(0)} | ${((100 * v) / total).toFixed(1)} % | ${per} |`);
}
