// BENCH_WORKERS > 1: the server side of chat-streams.mjs as the service runs with WEB_CONCURRENCY (ADR 0406). This
// process is the node:cluster primary: it forks BENCH_WORKERS copies of chat-streams.server.mjs, which listen on the
// same four ports (the primary accepts and hands each connection to a worker, round robin), and answers the
// parent's questions with the workers' figures merged: quantiles over all streams, CPU of the workers and of this
// process per stream, peak RSS of the largest worker. CPU profiles are not taken in this mode.
import cluster from 'node:cluster';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const WORKERS = Number(process.env.BENCH_WORKERS);
cluster.setupPrimary({ exec: path.join(here, 'chat-streams.server.mjs'), args: process.argv.slice(2) });
const workers = Array.from({ length: WORKERS }, () => cluster.fork());
const replies = (type, message) =>
  Promise.all(
    workers.map(
      (w) =>
        new Promise((resolve) => {
          const on = (m) => {
            if (m.type !== type) return;
            w.off('message', on);
            resolve(m);
          };
          w.on('message', on);
          if (message) w.send(message);
        }),
    ),
  );
const ready = await replies('ready');
process.send({
  type: 'ready',
  ports: ready[0].ports,
  rss: Math.max(...ready.map((r) => r.rss)),
  workers: WORKERS,
});

let cpuSince = process.cpuUsage();
const quantiles = (xs) => {
  const sorted = xs.sort((a, b) => a - b);
  const q = (p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : NaN);
  return { p50: q(0.5), p99: q(0.99) };
};
process.on('message', async (m) => {
  if (m.type === 'rss') {
    const parts = await replies('rss', { type: 'rss' });
    const all = (k) => parts.flatMap((p) => p.raw[k]);
    const requests = parts.reduce((n, p) => n + p.raw.requests, 0);
    const own = process.cpuUsage(cpuSince);
    cpuSince = process.cpuUsage();
    const cpuMs = parts.reduce((n, p) => n + p.raw.cpuMs, 0) + (own.user + own.system) / 1000;
    const accept = quantiles(all('acceptToRequest'));
    process.send({
      type: 'rss',
      debugRows: parts.flatMap((p) => p.debugRows),
      peak: Math.max(...parts.map((p) => p.peak)),
      peakPerWorker: parts.map((p) => p.peak),
      now: Math.max(...parts.map((p) => p.now)),
      serverFirst: quantiles(all('firstWrites')),
      socketFirst: quantiles(all('firstSocketWrites')),
      loopP99: Math.max(...parts.map((p) => p.loopP99)),
      loopMax: Math.max(...parts.map((p) => p.loopMax)),
      acceptP50: accept.p50,
      acceptP99: accept.p99,
      cpuMsPerRequest: requests ? cpuMs / requests : NaN,
      primaryCpuMs: (own.user + own.system) / 1000,
      requestsPerWorker: parts.map((p) => p.raw.requests),
    });
  }
  if (m.type === 'stop') {
    for (const w of workers) w.send({ type: 'stop' });
    await Promise.all(workers.map((w) => new Promise((r) => (w.isDead() ? r() : w.once('exit', r)))));
    process.exit(0);
  }
});
