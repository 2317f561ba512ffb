#!/usr/bin/env node
// 1,000 concurrent POST /api/chat streams on the built-in offline engine against a bare SSE writer in the same
// run (issue 6 targets: time to first event p99 < 50 ms, server RSS < 400 MB). The server runs in a child process
// so its RSS is its own; this process is only the clients. Run after `pnpm --filter @care/care-consult build`.
// Phases (ADR 0405): steady (1,000 streams held open, a new stream replacing each one that ends, new streams
// measured while 1,000 are open), burst (1,000 opened within RAMP_MS), unpaced (1,000 at once, tokens as fast as
// the socket takes them) and grounded (50 turns that search the memory service's knowledge base against 50 that do
// not, first token compared; needs services/memory built). Bounded, loopback only, ~4 min on a quiet machine.
// `pnpm --filter @care/care-consult bench`. Issue 22 targets, as same-run ratios: first event p99 <= 3x the bare
// writer (steady, burst), server CPU per stream <= 1.5x, grounded first token p99 <= 1.2x ungrounded and < 150 ms.
// Diagnostics: BENCH_PHASES (a subset), BENCH_WORKERS=N (the server as N node:cluster workers, as WEB_CONCURRENCY
// runs it; ADR 0406), BENCH_LISTENERS=K (K listen sockets per server port with SO_REUSEPORT, as ACCEPT_SOCKETS
// opens them: up to K accepts per event-loop turn instead of 1; Linux, Node >= 22.12; default 1; ADR 0405),
// BENCH_CPU_PROF=dir (one server CPU profile per run, for cpu-stages.mjs), BENCH_NODE_ARGS (server flags, e.g.
// --trace-gc), BENCH_DEBUG=1 (per-stream breakdown of the slowest first events, client connect included, and CPU per
// process every 200 ms).
import { fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const service = path.resolve(here, '../../services/care-consult');
const requireService = createRequire(path.join(service, 'package.json'));
const jwt = requireService('jsonwebtoken');

const STREAMS = Number(process.env.BENCH_STREAMS ?? 1000);
const RAMP_MS = Number(process.env.BENCH_RAMP_MS ?? 2000);
// 10 tokens/s per stream: 1,000 streams make 10,000 frames/s, what this 2-core machine can carry alongside the clients.
const TOKEN_DELAY_MS = Number(process.env.BENCH_TOKEN_DELAY_MS ?? 100);
const FRAMES = Number(process.env.BENCH_BARE_FRAMES ?? 150);
// Steady phase: open STREAMS streams evenly over about one stream lifetime (so they do not all end together),
// then keep STREAMS open for STEADY_MS, replacing each stream that ends, and measure the replacements.
const STEADY_OPEN_MS = Number(process.env.BENCH_STEADY_OPEN_MS ?? 15000);
const STEADY_MS = Number(process.env.BENCH_STEADY_MS ?? 12000);
// A PostgreSQL server when one is known (a throwaway database on TEST_DATABASE_URI): what a deployment serving
// 1,000 streams runs. Else embedded PGlite, whose WASM heap alone is several hundred MB of the server's RSS.
let throwaway;
if (!process.env.BENCH_DATABASE_URI && process.env.TEST_DATABASE_URI) {
  throwaway = await requireService('@care/db/testing').createServerTestDatabase(
    process.env.TEST_DATABASE_URI,
  );
}
const DATABASE_URI = process.env.BENCH_DATABASE_URI ?? throwaway?.uri ?? 'pglite://memory';
const SECRET = 'bench-secret-0123456789abcdefghijklmnop';

const token = (i) =>
  jwt.sign({ email: `b${i}@bench.test`, tenantId: `bench-${i % 10}`, roles: ['USER'] }, SECRET, {
    algorithm: 'HS256',
    subject: `bench-user-${i}`,
    issuer: 'care-platform',
    audience: 'care-platform',
    expiresIn: 600,
  });
const TOKENS = Array.from({ length: 50 }, (_, i) => token(i));
const BODY = JSON.stringify({
  messages: [{ role: 'user', content: 'How can I build a calmer bedtime routine and sleep better?' }],
  agent_id: 'sleep-coach',
});
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

/** One stream: time to the first complete frame, frames counted, status. */
function stream(port, i) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const start = performance.timeOrigin + t0;
    let first;
    let connected;
    let firstToken;
    let kbCited = false;
    let frames = 0;
    let tail = '';
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/chat',
        agent,
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${TOKENS[i % TOKENS.length]}`,
          'x-bench-i': String(i),
        },
      },
      (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          const text = tail + chunk;
          const n = text.split('\n\n').length - 1;
          if (n && first === undefined) first = performance.now() - t0;
          if (firstToken === undefined && text.includes('\nevent: token\n'))
            firstToken = performance.now() - t0;
          if (!kbCited && text.includes('"kind":"kb"')) kbCited = true;
          frames += (text.match(/\nevent: /g) ?? []).length;
          tail = text.slice(text.lastIndexOf('\n\n') + 2);
        });
        res.on('end', () =>
          resolve({
            i,
            start,
            connected,
            status: res.statusCode,
            first,
            firstToken,
            kbCited,
            frames,
            total: performance.now() - t0,
          }),
        );
      },
    );
    // The client's own connect: when the handshake completed on this side (SYN-ACK received). A late one means
    // the connect itself waited (the client's loop or a dropped SYN), an early one with a late server accept
    // means the connection waited in the server's accept queue.
    req.once('socket', (s) => s.once('connect', () => (connected = performance.now() - t0)));
    req.on('error', (err) => resolve({ status: 0, error: err.message }));
    req.end(BODY);
  });
}

function summarize(results, wall, extra = {}) {
  const ok = results.filter((r) => r.status === 200);
  const firsts = ok.map((r) => r.first).sort((a, b) => a - b);
  const q = (p) => (firsts.length ? firsts[Math.min(firsts.length - 1, Math.floor(p * firsts.length))] : NaN);
  const events = ok.reduce((n, r) => n + r.frames, 0);
  return {
    results,
    ok: ok.length,
    failed: results.length - ok.length,
    p50: q(0.5),
    p99: q(0.99),
    events,
    eventsPerSec: events / wall,
    wall,
    errors: [...new Set(results.filter((r) => r.error).map((r) => r.error))],
    ...extra,
  };
}

// The client's own event-loop delay per run, so a slow client is not taken for a slow server.
const clientLoop = monitorEventLoopDelay({ resolution: 10 });
clientLoop.enable();

// Share of the whole machine's CPU time spent busy (all processes: clients, server, PostgreSQL), from /proc/stat.
const cpuTimes = () => {
  try {
    const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return { idle: f[3] + f[4], total: f.reduce((a, b) => a + b, 0) };
  } catch {
    return undefined;
  }
};
const busyBetween = (before, after) =>
  before && after ? 1 - (after.idle - before.idle) / (after.total - before.total) : NaN;
const machineBusy = (before) => busyBetween(before, cpuTimes());

/** BENCH_DEBUG: CPU ticks (10 ms) per 200 ms of the server, this client and PostgreSQL, from /proc. */
function sampleCpu() {
  const procs = () => {
    const out = { server: 0, client: 0, pg: 0, other: 0 };
    for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      try {
        const st = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const comm = st.slice(st.indexOf('(') + 1, st.lastIndexOf(')'));
        const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
        const t = Number(f[11]) + Number(f[12]);
        const k =
          Number(pid) === child.pid
            ? 'server'
            : Number(pid) === process.pid
              ? 'client'
              : comm.startsWith('postgres')
                ? 'pg'
                : 'other';
        out[k] += t;
      } catch {}
    }
    return out;
  };
  const rows = [];
  let prev = procs();
  let prevT = cpuTimes();
  const timer = setInterval(() => {
    const cur = procs();
    const t = cpuTimes();
    rows.push(
      `busy ${(100 * busyBetween(prevT, t)).toFixed(0)}% srv ${cur.server - prev.server} cli ${cur.client - prev.client} pg ${cur.pg - prev.pg} oth ${cur.other - prev.other}`,
    );
    prev = cur;
    prevT = t;
  }, 200);
  return () => {
    clearInterval(timer);
    return rows;
  };
}

async function phase(port, ramp) {
  const stopSampling = process.env.BENCH_DEBUG ? sampleCpu() : undefined;
  const started = performance.now();
  const runs = [];
  for (let i = 0; i < STREAMS; i++) {
    runs.push(stream(port, i));
    if (ramp && i % 10 === 9) await new Promise((r) => setTimeout(r, (ramp * 10) / STREAMS));
  }
  const results = await Promise.all(runs);
  if (stopSampling)
    console.error('cpu per 200 ms (ticks of 10 ms):\n' + stopSampling().slice(0, 15).join('\n'));
  return summarize(results, (performance.now() - started) / 1000);
}

/**
 * STREAMS slots; slot i opens its first stream at i * STEADY_OPEN_MS / STREAMS, and each slot opens a new stream
 * as soon as its previous one ends, until the measuring window closes. Streams opened while all slots were open
 * (inside the window) are the measured ones; the open count is sampled to show it held.
 */
async function steady(port) {
  const started = performance.now();
  let open = 0;
  let openedAll = Infinity;
  let windowEnd = Infinity;
  const measured = [];
  const counts = [];
  let n = 0;
  const slot = async (i) => {
    await new Promise((r) => setTimeout(r, (i * STEADY_OPEN_MS) / STREAMS));
    if (i === STREAMS - 1) {
      openedAll = performance.now();
      windowEnd = openedAll + STEADY_MS;
    }
    for (;;) {
      const t = performance.now();
      if (t >= windowEnd) return;
      open++;
      const r = await stream(port, n++);
      open--;
      if (t > openedAll) measured.push(r);
    }
  };
  const sampler = setInterval(
    () => performance.now() > openedAll && performance.now() < windowEnd && counts.push(open),
    100,
  );
  const slots = Array.from({ length: STREAMS }, (_, i) => slot(i));
  await Promise.all(slots);
  clearInterval(sampler);
  const wall = (performance.now() - started) / 1000;
  return summarize(measured, wall, {
    openMin: Math.min(...counts),
    openMax: Math.max(...counts),
    measured: measured.length,
  });
}

// Grounded phase (ADR 0421): GROUNDED_STREAMS consultations at once whose turns search the memory service's knowledge
// base, against the same number of ungrounded turns in the same run; first token, not first event, is compared,
// since the search runs after the stream opened. Needs services/memory built; skipped with a notice otherwise.
const GROUNDED_STREAMS = Number(process.env.BENCH_GROUNDED_STREAMS ?? 50);
const PHASES = (process.env.BENCH_PHASES ?? 'steady,burst,unpaced,grounded').split(',');
const memoryBuilt = fs.existsSync(path.resolve(here, '../../services/memory/dist/app.js'));
if (PHASES.includes('grounded') && !memoryBuilt)
  console.error('grounded phase skipped: services/memory is not built (pnpm --filter @care/memory build)');
const memoryChild =
  PHASES.includes('grounded') && memoryBuilt
    ? fork(
        path.join(here, 'chat-streams.memory.mjs'),
        [JSON.stringify(Array.from({ length: 10 }, (_, i) => `bench-${i}`))],
        { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
      )
    : undefined;
const memory = memoryChild
  ? await new Promise((resolve) =>
      memoryChild.on('message', (m) => m.type === 'ready' && resolve({ url: m.url, apiKey: m.apiKey })),
    )
  : undefined;
// BENCH_WORKERS=N: the server as N node:cluster workers behind the same ports (WEB_CONCURRENCY, ADR 0406).
const WORKERS = Number(process.env.BENCH_WORKERS ?? 1);
const child = fork(
  path.join(here, WORKERS > 1 ? 'chat-streams.cluster.mjs' : 'chat-streams.server.mjs'),
  [
    JSON.stringify({
      secret: SECRET,
      tokenDelayMs: TOKEN_DELAY_MS,
      databaseUri: DATABASE_URI,
      frames: FRAMES,
      cpuProfDir: process.env.BENCH_CPU_PROF,
      memory,
    }),
  ],
  {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean),
  },
);
// `profile` names the run that starts now: with BENCH_CPU_PROF the server writes one CPU profile per run
// (<dir>/<chat|bare>-<phase>.cpuprofile, for cpu-stages.mjs), from this message to the next.
const ask = (type, profile) =>
  new Promise((resolve) => {
    child.once('message', resolve);
    child.send({ type, profile });
  });
const ready = await new Promise((resolve) => child.on('message', (m) => m.type === 'ready' && resolve(m)));
const rows = [];
const guard = setTimeout(() => {
  console.error('bench exceeded 10 minutes, stopping');
  child.kill();
  memoryChild?.kill();
  process.exit(2);
}, 600_000);
// BENCH_PHASES=steady,burst,unpaced,grounded (default all) runs a subset, e.g. with BENCH_CPU_PROF to profile one phase.
for (const [label, chatPort, barePort, run] of [
  [
    `steady (${STREAMS} open, ${TOKEN_DELAY_MS} ms/token, new streams measured over ${STEADY_MS / 1000} s)`,
    ready.ports.chatPaced,
    ready.ports.barePaced,
    steady,
  ],
  [
    `burst (${TOKEN_DELAY_MS} ms/token, ${STREAMS} opened within ${RAMP_MS} ms)`,
    ready.ports.chatPaced,
    ready.ports.barePaced,
    (port) => phase(port, RAMP_MS),
  ],
  [`unpaced (${STREAMS} at once)`, ready.ports.chatFast, ready.ports.bareFast, (port) => phase(port, 0)],
].filter(([label]) => PHASES.includes(label.split(' ')[0]))) {
  await stream(chatPort, 0); // warm-up: catalog index, retrieval index, JIT
  const phaseName = label.split(' ')[0];
  await ask('rss', `chat-${phaseName}`);
  clientLoop.reset();
  let cpu = cpuTimes();
  const chat = await run(chatPort);
  chat.busy = machineBusy(cpu);
  chat.clientLoop = [clientLoop.percentile(99) / 1e6, clientLoop.max / 1e6];
  const chatRss = await ask('rss', `bare-${phaseName}`);
  if (process.env.BENCH_DEBUG) {
    // Where the slowest first events spent their time, per stream (client and server clocks share the epoch).
    const byI = new Map(chatRss.debugRows.map((d) => [Number(d.i), d]));
    for (const r of chat.results
      .filter((x) => x.first !== undefined)
      .sort((a, b) => b.first - a.first)
      .slice(0, 12)) {
      const d = byI.get(r.i);
      if (d)
        console.error(
          `#${r.i} @${d.rel.toFixed(0)} first ${r.first.toFixed(1)}: connect+accept ${(d.accept - r.start).toFixed(1)} (client connected ${r.connected?.toFixed(1)}, then accept ${(d.accept - r.start - (r.connected ?? NaN)).toFixed(1)}) | accept->request ${(d.request - d.accept).toFixed(1)} | request->written ${(d.written - d.request).toFixed(1)} | written->socket ${(d.socket - d.written).toFixed(1)} | socket->client ${(r.start + r.first - d.socket).toFixed(1)}`,
        );
    }
  }
  clientLoop.reset();
  cpu = cpuTimes();
  const bare = await run(barePort);
  bare.busy = machineBusy(cpu);
  bare.clientLoop = [clientLoop.percentile(99) / 1e6, clientLoop.max / 1e6];
  const bareRss = await ask('rss');
  rows.push({
    label,
    chat,
    bare,
    chatRss: chatRss.peak,
    bareRss: bareRss.peak,
    chatSrv: chatRss,
    bareSrv: bareRss,
  });
}
let groundedRows;
if (memory) {
  // Ungrounded and grounded turns alternate in two rounds, so drift in the machine's load falls on both.
  const at = async (port) => {
    const results = await Promise.all(Array.from({ length: GROUNDED_STREAMS }, (_, i) => stream(port, i)));
    return results;
  };
  await stream(ready.ports.chatGrounded, 0); // warm-up: memory client, knowledge-base search
  const plain = [];
  const grounded = [];
  for (let round = 0; round < 2; round++) {
    plain.push(...(await at(ready.ports.chatPaced)));
    grounded.push(...(await at(ready.ports.chatGrounded)));
  }
  const tokenQ = (rs) => {
    const xs = rs
      .filter((r) => r.status === 200 && r.firstToken !== undefined)
      .map((r) => r.firstToken)
      .sort((a, b) => a - b);
    const q = (p) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor(p * xs.length))] : NaN);
    return {
      ok: xs.length,
      failed: rs.length - xs.length,
      cited: rs.filter((r) => r.kbCited).length,
      p50: q(0.5),
      p99: q(0.99),
    };
  };
  groundedRows = { plain: tokenQ(plain), grounded: tokenQ(grounded) };
  await ask('rss');
}
clearTimeout(guard);
memoryChild?.send({ type: 'stop' });
child.send({ type: 'stop' });
await new Promise((r) => child.once('exit', r));
await throwaway?.drop();

const mb = (b) => `${(b / 1024 / 1024).toFixed(0)} MB`;
const ms = (v) => `${v.toFixed(1)} ms`;
const dbLabel = DATABASE_URI.startsWith('pglite')
  ? 'embedded PGlite'
  : `PostgreSQL ${DATABASE_URI.split('@').pop()}`;
console.log(
  `\n## POST /api/chat: ${STREAMS} concurrent streams, offline engine (server RSS at start ${mb(ready.rss)}${WORKERS > 1 ? ` per worker, ${WORKERS} node:cluster workers; CPU per stream includes the primary` : ''}, ${dbLabel})\n`,
);
console.log(
  '| phase | server | ok / failed | first event p50 (client) | p99 (client) | in the server: request -> first frame written p50 / p99 | -> on the socket p50 / p99 | accept -> request p50 / p99 | server loop delay p99 / max | client loop delay p99 / max | server CPU per stream | machine CPU busy | events | events/s | peak server RSS | open streams while measured |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  for (const [name, m, srv] of [
    ['care-consult chat', r.chat, r.chatSrv],
    ['bare SSE writer', r.bare, r.bareSrv],
  ]) {
    console.log(
      `| ${r.label} | ${name} | ${m.ok} / ${m.failed} | ${ms(m.p50)} | ${ms(m.p99)} | ${ms(srv.serverFirst.p50)} / ${ms(srv.serverFirst.p99)} | ${ms(srv.socketFirst.p50)} / ${ms(srv.socketFirst.p99)} | ${ms(srv.acceptP50)} / ${ms(srv.acceptP99)} | ${ms(srv.loopP99)} / ${ms(srv.loopMax)} | ${ms(m.clientLoop[0])} / ${ms(m.clientLoop[1])} | ${ms(srv.cpuMsPerRequest)} | ${(100 * m.busy).toFixed(0)} % | ${m.events} | ${m.eventsPerSec.toFixed(0)} | ${mb(srv.peak)} | ${m.openMin === undefined ? 'all' : `${m.openMin}-${m.openMax} (${m.measured} measured)`} |`,
    );
  }
}
console.log(
  '\n| phase | events/s ratio chat / bare | first event p99 ratio (client) | target p99 < 50 ms (client) | target RSS < 400 MB |',
);
console.log('|---|---|---|---|---|');
for (const r of rows) {
  console.log(
    `| ${r.label} | ${(r.chat.eventsPerSec / r.bare.eventsPerSec).toFixed(2)} | ${(r.chat.p99 / r.bare.p99).toFixed(1)}x | ${r.chat.p99 < 50 ? 'met' : 'MISSED'} (${ms(r.chat.p99)}) | ${r.chatRss < 400 * 1024 * 1024 ? 'met' : 'MISSED'} (${mb(r.chatRss)}) |`,
  );
}
if (WORKERS > 1)
  for (const r of rows)
    console.log(
      `\n${r.label}: requests per worker chat ${r.chatSrv.requestsPerWorker.join(' / ')}, bare ${r.bareSrv.requestsPerWorker.join(' / ')}; peak RSS per worker chat ${r.chatSrv.peakPerWorker.map(mb).join(' / ')}; primary CPU chat ${r.chatSrv.primaryCpuMs.toFixed(0)} ms, bare ${r.bareSrv.primaryCpuMs.toFixed(0)} ms`,
    );
const lastAccepted = rows.at(-1)?.bareSrv.accepted;
if (lastAccepted && lastAccepted.chatPaced.length > 1)
  console.log(
    `\nConnections accepted per listen socket, whole run: ${['chatPaced', 'barePaced']
      .map((k) => `${k} ${lastAccepted[k].join(' / ')}`)
      .join('; ')}`,
  );
if (groundedRows) {
  const { plain, grounded } = groundedRows;
  console.log(
    `\n## Grounded turns: ${GROUNDED_STREAMS} consultations at once, two rounds each, ${TOKEN_DELAY_MS} ms/token; first token (client)\n`,
  );
  console.log('| turn | ok / no token | cited the knowledge base | first token p50 | first token p99 |');
  console.log('|---|---|---|---|---|');
  console.log(
    `| ungrounded (same agent, no memory service) | ${plain.ok} / ${plain.failed} | ${plain.cited} | ${ms(plain.p50)} | ${ms(plain.p99)} |`,
  );
  console.log(
    `| grounded (knowledge base + memories searched every turn) | ${grounded.ok} / ${grounded.failed} | ${grounded.cited} | ${ms(grounded.p50)} | ${ms(grounded.p99)} |`,
  );
  const ratio = grounded.p99 / plain.p99;
  console.log(
    `\nGrounded / ungrounded first-token p99: ${ratio.toFixed(2)}x (target <= 1.2x: ${ratio <= 1.2 ? 'met' : 'MISSED'}); grounded p99 ${ms(grounded.p99)} (target < 150 ms: ${grounded.p99 < 150 ? 'met' : 'MISSED'}).`,
  );
}
console.log(
  `\nMachine load average at the end: ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${os.cpus().length} cores.`,
);
for (const r of rows)
  for (const m of [r.chat, r.bare])
    if (m.errors.length) console.log(`\nerrors (${r.label}): ${m.errors.join('; ')}`);
