// Ingestion throughput of the memory service through its HTTP API (issue 17: >= 50 memories/s per CPU core).
//
// Each variant starts the built service (`services/memory/dist/main.js`) as its own process on a fresh embedded
// database, warms it, then sends N `POST /api/v1/memory/remember` requests, C at a time, over loopback. Texts are
// the turns of the long-conversation development sets (bench/recall-quality/longmem/dev-*.json, never the final
// sets), each stored once. Reported per variant: memories per wall-second, the server process's CPU seconds
// (user + system from /proc/<pid>/stat, so the client's own work is not counted) and memories per server
// CPU-second, request latency p50/p99. Baselines in the same run:
//   - `hashing` provider: the same HTTP, validation, partition check, insert (HNSW + in-process full-text index)
//     and answer, with an embedding that costs next to nothing: the ceiling of everything but the encoder;
//   - the sentence encoder alone in this process (no server), one text per call and C texts per call.
//
//   pnpm --filter @care/memory build && node bench/memory/ingest.mjs
//   N=200 CONCURRENCY=1,8 VARIANTS=builtin,hashing node bench/memory/ingest.mjs
//   PROFILE_DIR=/tmp/prof node bench/memory/ingest.mjs    # the server writes a --cpu-prof per variant there
//   SERVICE_DIR=/path/to/other/services/memory node bench/memory/ingest.mjs   # measure another build
//
// DATABASE_URI passes through (e.g. `pglite://memory` for an ephemeral database, or a PostgreSQL server, whose
// CPU is then not counted); unset, each server gets a new DATA_DIR in the temp folder (the service's default
// embedded database on disk). The reflect and reminder schedulers are off so that only ingestion runs.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { freePort } from '../lib/free-port.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
// SERVICE_DIR: another build of the service to measure (e.g. a worktree of main, for a before/after in one run).
const svc = process.env.SERVICE_DIR ?? path.join(here, '..', '..', 'services', 'memory');
const { SentenceEncoder } = require(path.join(svc, 'node_modules', '@care', 'sentence-encoder'));

const N = Number(process.env.N ?? 400);
const CONCURRENCY = (process.env.CONCURRENCY ?? '1,8').split(',').map(Number);
const VARIANTS = (process.env.VARIANTS ?? 'builtin,hashing').split(',');
// Warm-up requests (distinct texts, not measured): the JIT and the WASM tiers settle over the first hundred or so.
const WARMUP = Number(process.env.WARMUP ?? 64);
const PROFILE_DIR = process.env.PROFILE_DIR;
const CLK_TCK = 100; // Linux USER_HZ: /proc/<pid>/stat counts CPU time in these ticks
const started = Date.now();
const load0 = os.loadavg()[0];

const turns = ['dev-1.json', 'dev-2.json'].flatMap((f) => {
  const set = JSON.parse(fs.readFileSync(path.join(here, '..', 'recall-quality', 'longmem', f), 'utf8'));
  return set.sessions.flatMap((s) => s.turns.map((t) => `${t.speaker}: ${t.text}`));
});
const texts = [...new Set(turns)];
if (texts.length < N + WARMUP) throw new Error(`only ${texts.length} distinct turns for N=${N}`);

/** CPU seconds (user + system) used so far by a process (or, with `/task/<tid>`, one of its threads). */
const cpuSeconds = (pid, task = '') => {
  const stat = fs.readFileSync(`/proc/${pid}${task}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK; // utime, stime (fields 14 and 15)
};
/** The server's CPU seconds: the whole process, and its main thread (JavaScript, WASM) alone. */
const serverCpu = (pid) => ({ all: cpuSeconds(pid), main: cpuSeconds(pid, `/task/${pid}`) });

async function startServer(provider, label) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'memory-ingest-'));
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    EMBEDDING_PROVIDER: provider,
    HASHING_DIMENSIONS: '512',
    REFLECT_INTERVAL_SECONDS: '0',
    REMINDER_POLL_MS: '0',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
  };
  const args = PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`, `--cpu-prof-name=${label}.cpuprofile`]
    : [];
  // SERVER_NODE_ARGS: node flags for the server only (e.g. GC settings), space-separated.
  if (process.env.SERVER_NODE_ARGS) args.push(...process.env.SERVER_NODE_ARGS.split(' ').filter(Boolean));
  const child = spawn(process.execPath, [...args, path.join(svc, 'dist', 'main.js')], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the ${provider} server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/actuator/health/liveness`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 600) throw new Error('the server did not start within 60 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = async () => {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  return { base, pid: child.pid, stop };
}

async function remember(base, tenant, id, text) {
  const t0 = performance.now();
  const res = await fetch(`${base}/api/v1/memory/remember`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-tenant-id': tenant },
    body: JSON.stringify({ id, text, type: 'EPISODIC', source: 'USER_STATED', tags: ['bench'] }),
  });
  const body = await res.json();
  if (res.status !== 200 || body.id !== id)
    throw new Error(`remember -> ${res.status} ${JSON.stringify(body)}`);
  return performance.now() - t0;
}

/** Sends `items` with at most `c` requests in flight; returns each request's latency in ms. */
async function drive(base, tenant, items, c) {
  const latencies = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      latencies.push(await remember(base, tenant, items[i].id, items[i].text));
    }
  };
  await Promise.all(Array.from({ length: c }, worker));
  return latencies;
}

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function measureServer(provider, c) {
  const server = await startServer(provider, `${provider}-c${c}`);
  try {
    const tenant = `ingest-${provider}-${c}`;
    const items = texts.slice(0, WARMUP + N).map((text, i) => ({ id: `m${i}`, text }));
    await drive(server.base, tenant, items.slice(0, WARMUP), c);
    const cpu0 = serverCpu(server.pid);
    const t0 = performance.now();
    const latencies = await drive(server.base, tenant, items.slice(WARMUP), c);
    const wallS = (performance.now() - t0) / 1000;
    const cpu1 = serverCpu(server.pid);
    return {
      name: `HTTP remember, ${provider}`,
      c,
      wallS,
      cpuS: cpu1.all - cpu0.all,
      mainS: cpu1.main - cpu0.main,
      latencies,
    };
  } finally {
    await server.stop();
  }
}

async function measureEncoder(c) {
  const encoder = new SentenceEncoder({ cacheSize: 0 });
  await encoder.warm();
  const items = texts.slice(0, WARMUP + N);
  for (let i = 0; i < WARMUP; i += c) await encoder.embed(items.slice(i, i + c));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const latencies = [];
  for (let i = WARMUP; i < items.length; i += c) {
    const t1 = performance.now();
    await encoder.embed(items.slice(i, Math.min(items.length, i + c)));
    latencies.push(performance.now() - t1);
  }
  const cpu = process.cpuUsage(cpu0);
  return {
    name: `encoder alone (in process), ${c} text${c > 1 ? 's' : ''} per call`,
    c,
    wallS: (performance.now() - t0) / 1000,
    cpuS: (cpu.user + cpu.system) / 1e6,
    latencies,
  };
}

const rows = [];
for (const c of CONCURRENCY) {
  for (const v of VARIANTS) {
    console.error(`${v}, concurrency ${c}...`);
    rows.push(await measureServer(v, c));
  }
}
for (const c of [...new Set([1, ...CONCURRENCY])]) {
  console.error(`encoder alone, ${c} per call...`);
  rows.push(await measureEncoder(c));
}

const f1 = (x) => x.toFixed(1);
console.log(`\n# Memory ingestion through POST /api/v1/memory/remember (${N} memories per row)\n`);
console.log(
  `Server: services/memory/dist/main.js, ${process.env.DATABASE_URI ?? 'embedded PGlite on disk'}, log level ${process.env.LOG_LEVEL ?? 'info'}; texts: long-conversation dev turns (mean ${Math.round(texts.slice(0, N).reduce((s, t) => s + t.length, 0) / N)} characters).\n`,
);
console.log(
  '| path | concurrency | memories/s (wall) | server CPU s (main thread) | memories per server CPU-s | latency p50 ms | p99 ms |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  const n = r.name.startsWith('encoder') ? N : r.latencies.length;
  console.log(
    `| ${r.name} | ${r.c} | ${f1(n / r.wallS)} | ${r.cpuS.toFixed(2)}${r.mainS === undefined ? '' : ` (${r.mainS.toFixed(2)})`} | **${f1(n / r.cpuS)}** | ${f1(pct(r.latencies, 50))} | ${f1(pct(r.latencies, 99))} |`,
  );
}
const perCpu = (name, c) => {
  const r = rows.find((x) => x.name === name && x.c === c);
  return r ? N / r.cpuS : NaN;
};
console.log('');
for (const c of CONCURRENCY) {
  const b = perCpu('HTTP remember, builtin', c);
  const h = perCpu('HTTP remember, hashing', c);
  if (!Number.isNaN(b) && !Number.isNaN(h))
    console.log(
      `Concurrency ${c}: builtin ${f1(b)} memories per server CPU-s = ${f1((b / h) * 100)}% of the hashing baseline (${f1(h)}) -> target >= 50 ${b >= 50 ? 'met' : 'NOT met'}.`,
    );
}
console.log(
  `\nTotal ${((Date.now() - started) / 1000).toFixed(0)} s on ${os.cpus().length} cores, load average ${load0.toFixed(1)} -> ${os.loadavg()[0].toFixed(1)}.`,
);
