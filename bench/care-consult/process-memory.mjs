#!/usr/bin/env node
// Memory of one lone care-consult process (`dist/main.js`, offline engine), as issue 22 counts it (RSS < 400 MB):
// the peak from start-up to idle and the idle figures after three chat turns, split into V8 heap, ArrayBuffers, WASM memories (the sentence
// encoder's tfjs heap; MB each) and the rest. PostgreSQL from TEST_DATABASE_URI (a throwaway database), else
// embedded PGlite (which adds its own WASM heap). Run after `pnpm --filter @care/care-consult build`:
// `node bench/care-consult/process-memory.mjs [runs]` (default 3). MEMORY_GC=1: idle measured after a full GC.
// The figures move by 10-40 MB between runs with GC and malloc timing; compare builds in alternating runs.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
// SERVICE_DIR=<another checkout's services/care-consult> measures that build (before/after in one session).
const service = path.resolve(process.env.SERVICE_DIR ?? path.join(here, '../../services/care-consult'));
const requireService = createRequire(path.join(service, 'package.json'));
const jwt = requireService('jsonwebtoken');
const RUNS = Number(process.argv[2] ?? 3);
const SECRET = 'bench-secret-0123456789abcdefghijklmnop';
const PORT = Number(process.env.BENCH_PORT ?? 18190);
const throwaway = process.env.TEST_DATABASE_URI
  ? await requireService('@care/db/testing').createServerTestDatabase(process.env.TEST_DATABASE_URI)
  : undefined;
const token = jwt.sign({ email: 'm@bench.test', tenantId: 'bench', roles: ['USER'] }, SECRET, {
  algorithm: 'HS256',
  subject: 'bench-memory',
  issuer: 'care-platform',
  audience: 'care-platform',
  expiresIn: 600,
});
const TURNS = [
  'How can I build a calmer bedtime routine and sleep better?',
  'My father keeps forgetting his pills, what can help?',
  'I feel tired after lunch every day',
];

async function run(i) {
  const out = path.join(os.tmpdir(), `care-consult-memory-${process.pid}-${i}.json`);
  const args = ['-r', path.join(here, 'memory-probe.cjs')];
  if (process.env.MEMORY_GC) args.unshift('--expose-gc');
  const child = spawn(process.execPath, [...args, path.join(service, 'dist/main.js')], {
    env: {
      ...process.env,
      PORT: String(PORT),
      DATABASE_URI: throwaway?.uri ?? 'pglite://memory',
      JWT_SECRET: SECRET,
      WORKSPACE_WATCH: 'false',
      LOG_LEVEL: 'warn',
      MEMORY_PROBE_OUT: out,
      MEMORY_PROBE_GC: process.env.MEMORY_GC ?? '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`dist/main.js exited with ${child.exitCode}`);
    const up = await fetch(`http://127.0.0.1:${PORT}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await sleep(100);
  }
  const readyMs = Date.now() - started;
  for (const content of TURNS) {
    const res = await fetch(`http://127.0.0.1:${PORT}/api/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content }] }),
    });
    await res.text();
  }
  await sleep(5000);
  child.kill('SIGUSR2');
  await sleep(500);
  const report = JSON.parse(fs.readFileSync(out, 'utf8'));
  fs.rmSync(out, { force: true });
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return { readyMs, ...report };
}

const fmt = (s) =>
  `${s.rss} | ${s.heapUsed} / ${s.heapTotal} | ${s.arrayBuffers} | ${s.wasm.join(' + ') || '-'} | ` +
  `${Math.round((s.rss - s.heapTotal - s.external) * 10) / 10}`;
console.log(
  `## care-consult dist/main.js memory, MB (${throwaway ? 'PostgreSQL' : 'PGlite in memory'}, Node ${process.version})\n`,
);
console.log('| run | when | RSS | V8 heap used / total | ArrayBuffers | WASM | RSS - heap - external |');
console.log('|---|---|---|---|---|---|---|');
try {
  for (let i = 1; i <= RUNS; i++) {
    const r = await run(i);
    console.log(`| ${i} | peak, at ${r.peak.atMs} ms (listening at ${r.readyMs} ms) | ${fmt(r.peak)} |`);
    console.log(`| ${i} | idle after 3 turns${process.env.MEMORY_GC ? ', GC' : ''} | ${fmt(r.now)} |`);
  }
} finally {
  await throwaway?.drop?.();
}
console.log(
  `\nMachine load average at the end: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${os.cpus().length} cores.`,
);
