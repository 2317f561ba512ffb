// Child process of chat-streams.mjs: runs the care-consult app (built dist, offline engine) and a bare SSE
// writer side by side, each on its own loopback port, and reports its own peak RSS. Stops when the parent says so.
// With BENCH_WORKERS > 1 it runs as a node:cluster worker of chat-streams.cluster.mjs, which sums the workers.
// BENCH_LISTENERS=K: each port gets K listen sockets (SO_REUSEPORT), as startServer's `acceptSockets` and
// care-consult's ACCEPT_SOCKETS open them (ADR 0405); ignored, with a warning, in a cluster worker.
import http from 'node:http';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const service = path.resolve(here, '../../services/care-consult');
const require = createRequire(path.join(service, 'package.json'));
const { createApp, createAppDeps } = require(path.join(service, 'dist/app.js'));
const { CatalogStore } = require(path.join(service, 'dist/catalog/catalog.store.js'));
const { loadAppConfig } = require(path.join(service, 'dist/config.js'));
const { openCareConsultDatabase } = require(path.join(service, 'dist/db/open-database.js'));
const { SseWriter } = require(path.join(service, 'dist/chat/sse-writer.js'));
const { createLogger, effectiveAcceptSockets, listenAcceptSockets } = require('@care/service-kit');

const { secret, tokenDelayMs, databaseUri, frames, cpuProfDir, memory } = JSON.parse(process.argv[2]);
// BENCH_CPU_PROF: one CPU profile per measured run, started and stopped by the parent's messages.
const inspector = cpuProfDir ? new (await import('node:inspector')).Session() : undefined;
inspector?.connect();
const post = (method, params) =>
  new Promise((resolve, reject) =>
    inspector.post(method, params, (err, r) => (err ? reject(err) : resolve(r))),
  );
let profiling;
async function switchProfile(next) {
  if (!inspector) return;
  if (profiling) {
    const { profile } = await post('Profiler.stop');
    (await import('node:fs')).writeFileSync(
      path.join(cpuProfDir, `${profiling}.cpuprofile`),
      JSON.stringify(profile),
    );
  }
  profiling = next;
  if (next) {
    await post('Profiler.enable');
    await post('Profiler.start');
  }
}
const logger = createLogger({
  name: 'bench',
  level: 'error',
  destination: new Writable({ write: (_c, _e, cb) => cb() }),
});
const database = await openCareConsultDatabase({ uri: databaseUri });
const servers = [];

// `grounded`: turns search the memory service's knowledge base (and recall/save memories) as in production (ADR 0421).
async function chatApp(delay, grounded = false) {
  const memoryEnv = grounded ? { MEMORY_BASE_URL: memory.url, MEMORY_API_KEY: memory.apiKey } : {};
  const config = loadAppConfig({
    JWT_SECRET: secret,
    WORKSPACE_WATCH: 'false',
    LOG_LEVEL: 'error',
    CHAT_OFFLINE_TOKEN_DELAY_MS: String(delay),
    CHAT_HEARTBEAT_MS: '15000',
    ...memoryEnv,
  });
  const catalog = new CatalogStore({
    root: config.WORKSPACE_ROOT ?? path.join(service, 'workspace'),
    logger,
  });
  await catalog.load();
  const deps = createAppDeps({ config, logger, database, catalog });
  await deps.agentRouter.ready(); // as main does: the routing model loads before serving
  return createApp(deps);
}

// The baseline: the same SseWriter, the same number of frames at the same pace, and nothing else (no auth,
// validation, routing, retrieval, database or audit).
function bareApp(delay) {
  return function bareHandler(req, res) {
    req.resume();
    const w = new SseWriter(res, { heartbeatMs: 15000 });
    w.open();
    w.send('message', { type: 'message', role: 'assistant' });
    let i = 0;
    const next = function bareNext() {
      if (w.closed) return;
      if (i++ < frames) {
        w.send('token', { type: 'token', content: 'word ' });
        return delay ? setTimeout(next, delay) : setImmediate(next);
      }
      w.send('suggestions', { type: 'suggestions', items: ['a'], suggestions: ['a'] });
      w.send('done', '[DONE]');
      w.end();
    };
    next();
  };
}

// Server-side time to first event (request in -> first frame written) and event-loop delay, so the report can
// tell the server's latency from the client process's own lag.
let firstWrites = [];
let firstSocketWrites = [];
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
let acceptToRequest = [];
// BENCH_DEBUG (requests carry x-bench-i): accept, request, first write and first socket write per stream.
let debugRows = [];
// Server CPU (all threads: main, GC, libuv) per request over a phase.
let cpuSince = process.cpuUsage();
let requests = 0;
function timed(handler) {
  return (req, res) => {
    const t0 = performance.now();
    requests++;
    const dbg =
      req.headers['x-bench-i'] !== undefined && process.env.BENCH_DEBUG
        ? {
            i: req.headers['x-bench-i'],
            accept: performance.timeOrigin + req.socket.acceptedAt,
            request: performance.timeOrigin + t0,
            rel: t0,
          }
        : undefined;
    if (dbg) debugRows.push(dbg);
    acceptToRequest.push(t0 - req.socket.acceptedAt);
    const write = res.write;
    res.write = function (...args) {
      res.write = write;
      firstWrites.push(performance.now() - t0);
      if (dbg) dbg.written = performance.timeOrigin + performance.now();
      // Frames written while corked leave at the uncork (SseWriter: the first when the callback returns).
      const socket = res.socket;
      const socketWrite = socket._writeGeneric;
      socket._writeGeneric = function (...a) {
        socket._writeGeneric = socketWrite;
        firstSocketWrites.push(performance.now() - t0);
        if (dbg) dbg.socket = performance.timeOrigin + performance.now();
        return socketWrite.apply(this, a);
      };
      return write.apply(this, args);
    };
    handler(req, res);
  };
}

// The bench's logger drops everything below error; a listener warning goes to stderr.
const LISTENERS = effectiveAcceptSockets(Number(process.env.BENCH_LISTENERS ?? 1), {
  warn: (_fields, message) => console.error(`bench server: ${message}`),
});
const acceptSockets = {};
async function listen(name, handler) {
  const server = http.createServer(timed(handler));
  server.on('connection', (socket) => (socket.acceptedAt = performance.now()));
  server.maxConnections = 10000;
  const sockets = await listenAcceptSockets(server, {
    port: 0,
    host: '127.0.0.1',
    backlog: 2048,
    sockets: LISTENERS,
    logger,
  });
  servers.push(server);
  acceptSockets[name] = sockets;
  return sockets.port;
}

let peakRss = process.memoryUsage().rss;
setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 25).unref();

const ports = {
  chatPaced: await listen('chatPaced', await chatApp(tokenDelayMs)),
  barePaced: await listen('barePaced', bareApp(tokenDelayMs)),
  chatFast: await listen('chatFast', await chatApp(0)),
  bareFast: await listen('bareFast', bareApp(0)),
  ...(memory ? { chatGrounded: await listen('chatGrounded', await chatApp(tokenDelayMs, true)) } : {}),
};
process.send({ type: 'ready', ports, rss: process.memoryUsage().rss });
process.on('message', async (m) => {
  if (m.type === 'rss') {
    await switchProfile(m.profile);
    const quantile = (xs) => {
      const sorted = xs.sort((a, b) => a - b);
      return (p) =>
        sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : NaN;
    };
    const q = quantile(firstWrites);
    const qs = quantile(firstSocketWrites);
    process.send({
      type: 'rss',
      debugRows,
      peak: peakRss,
      now: process.memoryUsage().rss,
      serverFirst: { p50: q(0.5), p99: q(0.99) },
      socketFirst: { p50: qs(0.5), p99: qs(0.99) },
      // Connections per listen socket since the start, per port (BENCH_LISTENERS).
      accepted: Object.fromEntries(Object.entries(acceptSockets).map(([k, v]) => [k, [...v.accepted]])),
      loopP99: loopDelay.percentile(99) / 1e6,
      loopMax: loopDelay.max / 1e6,
      acceptP50: acceptToRequest.sort((a, b) => a - b)[Math.floor(acceptToRequest.length / 2)] ?? NaN,
      acceptP99: acceptToRequest[Math.floor(acceptToRequest.length * 0.99)] ?? NaN,
      cpuMsPerRequest: requests
        ? ((cpu) => (cpu.user + cpu.system) / 1000 / requests)(process.cpuUsage(cpuSince))
        : NaN,
      raw: {
        firstWrites,
        firstSocketWrites,
        acceptToRequest,
        requests,
        cpuMs: ((cpu) => (cpu.user + cpu.system) / 1000)(process.cpuUsage(cpuSince)),
      },
    });
    cpuSince = process.cpuUsage();
    requests = 0;
    acceptToRequest = [];
    debugRows = [];
    peakRss = process.memoryUsage().rss;
    firstWrites = [];
    firstSocketWrites = [];
    loopDelay.reset();
  }
  if (m.type === 'stop') {
    for (const s of servers) s.closeAllConnections();
    for (const a of Object.values(acceptSockets)) void a.close();
    await database.close();
    process.exit(0);
  }
});
